//! Which provider an LLM or embedder setting names, as settings files and variables spell it,
//! and the public API each one is called at when no address is set.

use serde::Deserialize;

use crate::types::UnknownValue;

/// OpenAI's public API: an `openai` provider's address when none is set.
pub(crate) const OPENAI_BASE_URL: &str = "https://api.openai.com/v1";

/// Gemini's public API: a `gemini` provider's address when none is set.
pub const GEMINI_BASE_URL: &str = "https://generativelanguage.googleapis.com/v1beta";

closed_set! {
    /// Which LLM or embedding provider.
    #[derive(Default)]
    pub enum ProviderKind ("provider") {
        /// None: no LLM (memories are stored as given) or no embedder (lexical search only).
        #[default]
        None = "none",
        /// An OpenAI-compatible HTTP server.
        Openai = "openai",
        /// Google's Gemini API.
        Gemini = "gemini",
        /// A sentence-transformers model run on this machine (embedder only).
        Local = "local",
    }
}

impl ProviderKind {
    /// A provider as a setting is written (an environment variable, a settings file, a
    /// command-line flag): its spelling, with spaces around it, or nothing, which is
    /// `none`. [`FromStr`](std::str::FromStr) takes the spellings alone.
    ///
    /// ```
    /// use haema_core::config::ProviderKind;
    /// assert_eq!(ProviderKind::from_setting(" openai ")?, ProviderKind::Openai);
    /// assert_eq!(ProviderKind::from_setting("")?, ProviderKind::None);
    /// assert!(ProviderKind::from_setting("anthropic").is_err());
    /// # Ok::<(), haema_core::UnknownValue>(())
    /// ```
    pub fn from_setting(value: &str) -> std::result::Result<Self, UnknownValue> {
        match value.trim() {
            "" => Ok(Self::None),
            spelling => spelling.parse(),
        }
    }

    /// Reads a provider from a settings file as [`ProviderKind::from_setting`] does.
    pub(crate) fn deserialize_setting<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Self::from_setting(&text).map_err(serde::de::Error::custom)
    }

    /// [`ProviderKind::deserialize_setting`] for a provider that may be left unset.
    pub(crate) fn deserialize_optional_setting<'de, D: serde::Deserializer<'de>>(
        d: D,
    ) -> std::result::Result<Option<Self>, D::Error> {
        Self::deserialize_setting(d).map(Some)
    }

    /// The provider's own public API.
    pub(crate) fn default_base_url(self) -> &'static str {
        match self {
            Self::Gemini => GEMINI_BASE_URL,
            _ => OPENAI_BASE_URL,
        }
    }

    /// Whether this provider at `base_url` (its public API when `None`) is to be called
    /// without the key its public API requires.
    pub(crate) fn lacks_key(self, base_url: Option<&str>, api_key: Option<&str>) -> bool {
        let official = self.default_base_url();
        api_key.is_none() && base_url.unwrap_or(official).starts_with(official)
    }
}
