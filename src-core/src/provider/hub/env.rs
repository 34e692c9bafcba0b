//! The Hub's settings from environment variables, by the rules of `huggingface_hub`.

use std::path::{Path, PathBuf};

use super::HubError;

/// The Hub used when `HF_ENDPOINT` is unset.
pub const DEFAULT_ENDPOINT: &str = "https://huggingface.co";

/// Endpoint, cache folder and offline flag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HubSettings {
    pub endpoint: String,
    pub cache: PathBuf,
    pub offline: bool,
}

/// Reads the settings through `var` (an environment lookup; empty values count as unset)
/// with `home` as the home folder:
///
/// - endpoint: `HF_ENDPOINT` without trailing `/`, else `https://huggingface.co`;
/// - cache: `HF_HUB_CACHE`, else the legacy `HUGGINGFACE_HUB_CACHE`, else `$HF_HOME/hub`,
///   else `$XDG_CACHE_HOME/huggingface/hub`, else `~/.cache/huggingface/hub` (a leading
///   `~` is the home folder);
/// - offline: `HF_HUB_OFFLINE`, else `TRANSFORMERS_OFFLINE`, is `1`, `on`, `yes` or `true`
///   (any case).
pub(crate) fn settings_from(
    var: impl Fn(&str) -> Option<String>,
    home: Option<&Path>,
) -> Result<HubSettings, HubError> {
    let var = |name: &str| var(name).filter(|v| !v.is_empty());
    let endpoint = var("HF_ENDPOINT")
        .map(|e| e.trim_end_matches('/').to_owned())
        .filter(|e| !e.is_empty())
        .unwrap_or_else(|| DEFAULT_ENDPOINT.to_owned());
    let expand = |value: String| expand_home(&value, home);
    let cache = match var("HF_HUB_CACHE").or_else(|| var("HUGGINGFACE_HUB_CACHE")) {
        Some(dir) => expand(dir),
        None => {
            let hf_home = match var("HF_HOME") {
                Some(dir) => expand(dir),
                None => {
                    let base = match var("XDG_CACHE_HOME") {
                        Some(dir) => expand(dir),
                        None => home.map(|h| h.join(".cache")),
                    };
                    base.map(|b| b.join("huggingface"))
                }
            };
            hf_home.map(|h| h.join("hub"))
        }
    }
    .ok_or(HubError::NoCacheFolder)?;
    let offline = var("HF_HUB_OFFLINE")
        .or_else(|| var("TRANSFORMERS_OFFLINE"))
        .is_some_and(|v| is_true(&v));
    Ok(HubSettings {
        endpoint,
        cache,
        offline,
    })
}

/// `huggingface_hub`'s truth values: `1`, `ON`, `YES`, `TRUE` in any case.
fn is_true(value: &str) -> bool {
    ["1", "on", "yes", "true"]
        .iter()
        .any(|t| value.trim().eq_ignore_ascii_case(t))
}

/// `~` or `~/…` with the home folder put in; `None` when that needs a home there is not.
fn expand_home(value: &str, home: Option<&Path>) -> Option<PathBuf> {
    if value == "~" {
        return home.map(Path::to_path_buf);
    }
    match value.strip_prefix("~/") {
        Some(rest) => home.map(|h| h.join(rest)),
        None => Some(PathBuf::from(value)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(vars: &[(&str, &str)], home: Option<&str>) -> Result<HubSettings, HubError> {
        let vars: Vec<(String, String)> = vars.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
        settings_from(
            |name| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()),
            home.map(Path::new),
        )
    }

    #[test]
    fn defaults_follow_the_home_folder() {
        let s = settings(&[], Some("/home/u")).unwrap();
        assert_eq!(s.endpoint, "https://huggingface.co");
        assert_eq!(s.cache, PathBuf::from("/home/u/.cache/huggingface/hub"));
        assert!(!s.offline);
        assert!(matches!(settings(&[], None), Err(HubError::NoCacheFolder)));
    }

    #[test]
    fn the_cache_folder_takes_the_most_specific_variable() {
        let home = Some("/home/u");
        let all = [
            ("HF_HUB_CACHE", "/a"),
            ("HUGGINGFACE_HUB_CACHE", "/b"),
            ("HF_HOME", "/c"),
            ("XDG_CACHE_HOME", "/d"),
        ];
        assert_eq!(settings(&all, home).unwrap().cache, PathBuf::from("/a"));
        assert_eq!(settings(&all[1..], home).unwrap().cache, PathBuf::from("/b"));
        assert_eq!(settings(&all[2..], home).unwrap().cache, PathBuf::from("/c/hub"));
        assert_eq!(
            settings(&all[3..], home).unwrap().cache,
            PathBuf::from("/d/huggingface/hub")
        );
        assert_eq!(
            settings(&[("HF_HOME", "~/hf")], home).unwrap().cache,
            PathBuf::from("/home/u/hf/hub")
        );
        // Empty counts as unset; a set variable needs no home folder.
        assert_eq!(
            settings(&[("HF_HUB_CACHE", ""), ("HF_HOME", "/c")], None)
                .unwrap()
                .cache,
            PathBuf::from("/c/hub")
        );
    }

    #[test]
    fn offline_and_endpoint_are_read_like_huggingface_hub() {
        for yes in ["1", "true", "TRUE", "yes", "On"] {
            assert!(
                settings(&[("HF_HUB_OFFLINE", yes)], Some("/h")).unwrap().offline,
                "{yes}"
            );
        }
        for no in ["0", "false", "no", "off", "2", ""] {
            assert!(
                !settings(&[("HF_HUB_OFFLINE", no)], Some("/h")).unwrap().offline,
                "{no}"
            );
        }
        assert!(settings(&[("TRANSFORMERS_OFFLINE", "1")], Some("/h")).unwrap().offline);
        let s = settings(&[("HF_ENDPOINT", "http://127.0.0.1:9/")], Some("/h")).unwrap();
        assert_eq!(s.endpoint, "http://127.0.0.1:9");
    }
}
