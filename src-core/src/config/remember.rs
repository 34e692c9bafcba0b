//! Writing the embedder a store was switched to into its settings file, so that later
//! commands use it without environment variables.

use std::path::Path;

use super::Settings;
use crate::{Error, Result};

impl Settings {
    /// Adds an `[embedder]` table with these settings (never a key) to `<store>/haema.toml`
    /// when the file has none. Returns whether it wrote; a file that already configures an
    /// embedder is left alone.
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
        if table.contains_key("embedder") {
            return Ok(false);
        }
        let e = &self.embedder;
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
            "{existing}{separator}# Written by `haema reembed`: the embedder this store's vectors are made with.\n[embedder]\n{body}"
        );
        crate::store::files::write_atomically(&path, &text)?;
        Ok(true)
    }
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
            (crate::ReviewPolicy::Review, ProviderKind::Local)
        );
        assert_eq!(loaded.embedder.model.as_deref(), Some("/models/minilm"));
        assert!(
            !settings.remember_embedder(dir.path()).unwrap(),
            "an existing [embedder] is left alone"
        );
    }
}
