//! Where each effective setting comes from: the environment, the file, or the default.

use std::path::Path;

use serde::Serialize;

use super::registry::lookup;
use super::{ReadBy, SETTINGS, SettingFile, Settings};
use crate::error::{Error, Result};

/// Where a setting's value came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// An environment variable.
    Env,
    /// `<store>/haema.toml`.
    File,
    /// The user's `config.toml`.
    UserFile,
    /// The OS keyring (API keys only; see [`crate::keys`]).
    Keyring,
    /// Built in.
    Default,
}

/// One effective setting.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SettingLine {
    /// Dotted name as in haema.toml (`llm.model`), from [`SETTINGS`].
    pub key: String,
    /// Effective value; secrets masked.
    pub value: String,
    /// Where it came from.
    pub source: Source,
    /// The file it can be written in; `None`: the environment only.
    pub file: Option<SettingFile>,
    /// The environment variable that sets it (empty when none does).
    pub env: String,
    /// The default, as the registry shows it.
    pub default: String,
    /// The allowed values when they are a closed set; empty otherwise.
    pub allowed: Vec<String>,
    /// One line of help.
    pub help: String,
}

/// Whether `name` is an API key that is set, though not by the environment: then the
/// keyring gave it.
fn from_keyring(settings: &Settings, name: &str) -> bool {
    match name {
        "llm.api_key" => settings.llm.api_key.is_some(),
        "embedder.api_key" => settings.embedder.api_key.is_some(),
        _ => false,
    }
}

/// A settings file as a table; an empty one when there is none.
fn table_of(path: &Path) -> Result<toml::Table> {
    match super::read_optional(path)? {
        Some(text) => text
            .parse()
            .map_err(|e| Error::Config(format!("{}: {e}", path.display()))),
        None => Ok(toml::Table::new()),
    }
}

impl Settings {
    /// The effective settings of a store with their sources, for `haema config`: every
    /// setting of [`SETTINGS`] but the store folder, which front ends show themselves.
    ///
    /// ```
    /// use haema_core::Settings;
    /// use haema_core::config::Source;
    /// let store = tempfile::tempdir()?;
    /// std::fs::write(Settings::file_path(store.path()), "review = \"auto\"\n")?;
    /// let lines = Settings::explain(store.path(), |_| None)?;
    /// let review = lines.iter().find(|l| l.key == "review").ok_or("no review line")?;
    /// assert_eq!((review.value.as_str(), review.source), ("auto", Source::File));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// API keys the environment does not give are looked up in the OS keyring, as
    /// [`Settings::load`] does, and shown masked.
    pub fn explain(store: &Path, env: impl Fn(&str) -> Option<String>) -> Result<Vec<SettingLine>> {
        let keys = crate::keys::from_env(&env);
        Self::explain_with_keys(store, Self::user_file_path().as_deref(), env, &*keys)
    }

    /// [`Settings::explain`] with the user's file given, and no keyring.
    pub fn explain_with(
        store: &Path,
        user_file: Option<&Path>,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Vec<SettingLine>> {
        Self::explain_with_keys(store, user_file, env, &crate::keys::NoKeys)
    }

    /// [`Settings::explain`] with the user's file and the keyring given.
    pub fn explain_with_keys(
        store: &Path,
        user_file: Option<&Path>,
        env: impl Fn(&str) -> Option<String>,
        keys: &dyn crate::keys::KeyStore,
    ) -> Result<Vec<SettingLine>> {
        let settings = Self::load_with_keys(store, user_file, &env, keys)?;
        let file = table_of(&Self::file_path(store))?;
        let user = match user_file {
            Some(path) => table_of(path)?,
            None => toml::Table::new(),
        };
        let lines = SETTINGS
            .iter()
            .filter(|spec| spec.read_by != ReadBy::FrontEnd)
            .map(|spec| {
                let from_env = spec.env.and_then(&env).filter(|v| !v.is_empty());
                let written = |table: &toml::Table| spec.file_key().is_some_and(|key| lookup(table, key).is_some());
                let source = if from_env.is_some() {
                    Source::Env
                } else if from_keyring(&settings, spec.name) {
                    Source::Keyring
                } else if written(&file) {
                    Source::File
                } else if spec.file == Some(SettingFile::User) && written(&user) {
                    Source::UserFile
                } else {
                    Source::Default
                };
                let value = match spec.show {
                    Some(show) => show(&settings),
                    None => from_env.unwrap_or_else(|| spec.default.to_owned()),
                };
                SettingLine {
                    key: spec.name.to_owned(),
                    value,
                    source,
                    file: spec.file,
                    env: spec.env.unwrap_or_default().to_owned(),
                    default: spec.default.to_owned(),
                    allowed: spec.allowed.iter().map(|&a| a.to_owned()).collect(),
                    help: spec.help.to_owned(),
                }
            });
        Ok(lines.collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_and_masking() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("haema.toml"),
            "[merge]\ntop_k = 5\n[llm]\nprovider = \"openai\"\n",
        )
        .unwrap();
        let env = |name: &str| match name {
            "HAEMA_LLM_MODEL" => Some("llama3.1:8b".to_owned()),
            "HAEMA_LLM_API_KEY" => Some("sk-proj-abcdefghijklmnop1234".to_owned()),
            _ => None,
        };
        let lines = Settings::explain(dir.path(), env).unwrap();
        let find = |k: &str| lines.iter().find(|l| l.key == k).unwrap().clone();
        assert_eq!(
            (find("merge.top_k").value.as_str(), find("merge.top_k").source),
            ("5", Source::File)
        );
        assert_eq!(
            (find("llm.provider").value.as_str(), find("llm.provider").source),
            ("openai", Source::File)
        );
        assert_eq!(
            (find("llm.model").value.as_str(), find("llm.model").source),
            ("llama3.1:8b", Source::Env)
        );
        assert_eq!(find("review").source, Source::Default);
        let key = find("llm.api_key");
        assert_eq!((key.value.as_str(), key.source), ("sk-…1234", Source::Env));
        assert!(lines.iter().all(|l| !l.value.contains("abcdefghijklmnop")));
        assert_eq!(key.file, None, "keys are never written in a file");
        assert_eq!(find("merge.top_k").file, Some(SettingFile::Store));
        assert_eq!(find("tui.mouse").file, Some(SettingFile::User));
        assert_eq!(find("review").allowed, ["auto", "review", "guarded"]);
        assert!(find("llm.model").allowed.is_empty());
        assert_eq!(crate::keys::mask("short"), "set (hidden)");
    }
}
