//! Writing the embedder a store was switched to into its settings file, so that later
//! commands use it without environment variables.

use std::path::Path;

use super::Settings;
use crate::error::{Error, Result};

impl Settings {
    /// Writes the embedder a store was switched to into `<store>/haema.toml` (never a key):
    /// an `[embedder]` table is added when the file has none; an existing one has its
    /// `provider`, `model`, `base_url` and `dims` lines replaced (its other lines and
    /// comments kept) when they name another embedder, so the file never contradicts the
    /// store's vectors. Returns whether it wrote.
    ///
    /// ```
    /// use haema_core::Settings;
    /// use haema_core::config::ProviderKind;
    /// let store = tempfile::tempdir()?;
    /// let mut settings = Settings::default();
    /// settings.embedder.provider = Some(ProviderKind::Openai);
    /// settings.embedder.model = Some("text-embedding-3-large".into());
    /// assert!(settings.remember_embedder(store.path())?);
    /// let written = std::fs::read_to_string(Settings::file_path(store.path()))?;
    /// assert!(written.contains("[embedder]") && written.contains("text-embedding-3-large"));
    /// assert!(!settings.remember_embedder(store.path())?); // already there
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn remember_embedder(&self, store: &Path) -> Result<bool> {
        let path = Self::file_path(store);
        let existing = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(Error::io("read", &path, e)),
        };
        let table: toml::Table = existing
            .parse()
            .map_err(|e| Error::Config(format!("{}: {e}", path.display())))?;
        let e = &self.embedder;
        if let Some(current) = table.get("embedder").and_then(toml::Value::as_table) {
            let text_of = |key: &str| current.get(key).map(|v| v.to_string().trim_matches('"').to_owned());
            let wanted = self.embedder_lines();
            let same = wanted
                .iter()
                .all(|(key, value)| text_of(key).as_deref() == Some(value.trim_matches('"')))
                && text_of("provider").is_some();
            if same {
                return Ok(false);
            }
            let text = replace_in_table(&existing, "embedder", &wanted);
            crate::store::files::write_atomically(&path, &text)?;
            return Ok(true);
        }
        let mut section = toml::Table::new();
        section.insert("provider".into(), e.kind().as_str().into());
        if let Some(model) = &e.model {
            section.insert("model".into(), model.clone().into());
        }
        if let Some(url) = &e.base_url {
            section.insert("base_url".into(), url.clone().into());
        }
        if let Some(dims) = e.dims {
            section.insert("dims".into(), i64::try_from(dims).unwrap_or(i64::MAX).into());
        }
        let body = toml::to_string(&section).map_err(|e| Error::Config(e.to_string()))?;
        let separator = if existing.is_empty() || existing.ends_with("\n\n") {
            ""
        } else if existing.ends_with('\n') {
            "\n"
        } else {
            "\n\n"
        };
        let text = format!(
            "{existing}{separator}# Written by haema when the vectors were remade: the embedder this store's vectors are made with.\n[embedder]\n{body}"
        );
        crate::store::files::write_atomically(&path, &text)?;
        Ok(true)
    }
}

impl Settings {
    /// The `[embedder]` lines `haema reembed` writes, as `key = value` with TOML values.
    fn embedder_lines(&self) -> Vec<(&'static str, String)> {
        let e = &self.embedder;
        let quoted = |s: &str| toml::Value::from(s).to_string();
        let mut lines = vec![("provider", quoted(e.kind().as_str()))];
        if let Some(model) = &e.model {
            lines.push(("model", quoted(model)));
        }
        if let Some(url) = &e.base_url {
            lines.push(("base_url", quoted(url)));
        }
        if let Some(dims) = e.dims {
            lines.push(("dims", dims.to_string()));
        }
        lines
    }
}

/// `text` with the `lines` (key, TOML value) set in table `[name]`: a line of that key is
/// replaced, a missing one added after the header; everything else is kept as written.
fn replace_in_table(text: &str, name: &str, lines: &[(&str, String)]) -> String {
    let header = format!("[{name}]");
    let mut out: Vec<String> = Vec::new();
    let mut inside = false;
    let mut written: Vec<&str> = Vec::new();
    let mut header_at = None;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            inside = trimmed == header;
            if inside {
                header_at = Some(out.len());
            }
        } else if inside {
            let key = trimmed.split('=').next().unwrap_or_default().trim();
            if let Some((k, value)) = lines.iter().find(|(k, _)| *k == key) {
                out.push(format!("{k} = {value}"));
                written.push(k);
                continue;
            }
        }
        out.push(line.to_owned());
    }
    if let Some(at) = header_at {
        let missing: Vec<String> = lines
            .iter()
            .filter(|(k, _)| !written.contains(k))
            .map(|(k, v)| format!("{k} = {v}"))
            .collect();
        out.splice(at + 1..at + 1, missing);
    }
    let mut joined = out.join("\n");
    joined.push('\n');
    joined
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ProviderKind;

    #[test]
    fn writes_an_embedder_table_once_and_keeps_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(Settings::file_path(dir.path()), "# mine\nreview = \"review\"\n").unwrap();
        let mut settings = Settings::default();
        settings.embedder.provider = Some(ProviderKind::Local);
        settings.embedder.model = Some("/models/minilm".into());
        settings.embedder.api_key = Some("secret".into());
        assert!(settings.remember_embedder(dir.path()).unwrap());
        let text = std::fs::read_to_string(Settings::file_path(dir.path())).unwrap();
        assert!(
            text.starts_with("# mine\nreview = \"review\"\n") && !text.contains("secret"),
            "{text}"
        );
        let loaded = Settings::load_with_env(dir.path(), |_| None).unwrap();
        assert_eq!(
            (loaded.review, loaded.embedder.kind()),
            (crate::config::ReviewPolicy::Review, ProviderKind::Local)
        );
        assert_eq!(loaded.embedder.model.as_deref(), Some("/models/minilm"));
        assert!(
            !settings.remember_embedder(dir.path()).unwrap(),
            "an [embedder] that already names this embedder is left alone"
        );
    }

    #[test]
    fn a_switch_from_none_rewrites_the_embedder_lines_and_keeps_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let path = Settings::file_path(dir.path());
        std::fs::write(
            &path,
            "review = \"auto\"\n\n[embedder]\n# words only for now\nprovider = \"none\"\ntimeout_secs = 30\n\n[merge]\ntop_k = 4\n",
        )
        .unwrap();
        let mut settings = Settings::default();
        settings.embedder.provider = Some(ProviderKind::Local);
        settings.embedder.model = Some("sentence-transformers/all-MiniLM-L6-v2".into());
        assert!(settings.remember_embedder(dir.path()).unwrap());
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.contains("# words only for now") && text.contains("timeout_secs = 30"),
            "{text}"
        );
        let loaded = Settings::load_with_env(dir.path(), |_| None).unwrap();
        assert_eq!(loaded.embedder.kind(), ProviderKind::Local, "{text}");
        assert_eq!(
            loaded.embedder.model.as_deref(),
            Some("sentence-transformers/all-MiniLM-L6-v2")
        );
        assert_eq!((loaded.merge.top_k, loaded.embedder.timeout_secs), (4, 30));
        assert!(!settings.remember_embedder(dir.path()).unwrap(), "written once");
    }
}
