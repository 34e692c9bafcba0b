//! The API keys the environment does not give, from the OS keyring ([`crate::keys`]).

use std::path::Path;

use super::{ProviderKind, Settings};
use crate::error::Result;
use crate::keys::{KeyStore, account_for};

impl Settings {
    /// [`Settings::load_with`], then the API keys the environment did not give from `keys`.
    ///
    /// ```
    /// use haema_core::Settings;
    /// use haema_core::keys::{KeyStore, MemoryKeys};
    /// let store = tempfile::tempdir()?;
    /// std::fs::write(Settings::file_path(store.path()), "[llm]\nprovider = \"openai\"\n")?;
    /// let keys = MemoryKeys::default();
    /// keys.set("https://api.openai.com/v1", "sk-from-the-keyring")?;
    /// let settings = Settings::load_with_keys(store.path(), None, |_| None, &keys)?;
    /// assert_eq!(settings.llm.api_key.as_deref(), Some("sk-from-the-keyring"));
    /// // A variable wins over the keyring.
    /// let env = |name: &str| (name == "HAEMA_LLM_API_KEY").then(|| "sk-from-env".to_string());
    /// let settings = Settings::load_with_keys(store.path(), None, env, &keys)?;
    /// assert_eq!(settings.llm.api_key.as_deref(), Some("sk-from-env"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn load_with_keys(
        store: &Path,
        user_file: Option<&Path>,
        env: impl Fn(&str) -> Option<String>,
        keys: &dyn KeyStore,
    ) -> Result<Self> {
        let mut settings = Self::load_with(store, user_file, env)?;
        // A keyring that cannot be reached leaves the key unset: building the provider then
        // says which key is missing and where it can be given.
        let _ = settings.fill_keys(keys);
        Ok(settings)
    }

    /// Fills the API keys that are still unset for a provider that is reached over HTTP,
    /// from `keys`, under [`account_for`] the provider's base URL.
    ///
    /// # Errors
    /// The first [`crate::Error::Keyring`] met; the keys found before it are kept.
    pub fn fill_keys(&mut self, keys: &dyn KeyStore) -> Result<()> {
        let remote = |kind: ProviderKind| matches!(kind, ProviderKind::Openai | ProviderKind::Gemini);
        if self.llm.api_key.is_none() && remote(self.llm.provider) {
            let account = account_for(self.llm.provider, self.llm.base_url.as_deref());
            self.llm.api_key = keys.get(&account)?;
        }
        let kind = self.embedder.kind();
        if self.embedder.api_key.is_none() && remote(kind) {
            let account = account_for(kind, self.embedder.base_url.as_deref());
            self.embedder.api_key = keys.get(&account)?;
        }
        Ok(())
    }
}
