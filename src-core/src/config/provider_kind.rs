//! Which provider an LLM or embedder setting names, as settings files and variables spell it.

use serde::Deserialize;

use crate::types::UnknownValue;

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
    pub(super) fn deserialize_setting<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Self::from_setting(&text).map_err(serde::de::Error::custom)
    }

    /// [`ProviderKind::deserialize_setting`] for a provider that may be left unset.
    pub(super) fn deserialize_optional_setting<'de, D: serde::Deserializer<'de>>(
        d: D,
    ) -> std::result::Result<Option<Self>, D::Error> {
        Self::deserialize_setting(d).map(Some)
    }
}
