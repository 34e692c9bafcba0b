//! Settings: defaults, then `<store>/haema.toml`, then environment variables.
//!
//! API keys are read from the environment only; a key in the file is an error.

mod build;
mod explain;
mod remember;
mod tui;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::{Error, Result};

pub(crate) use build::{default_base_url, default_embed_model, default_llm_model};
pub use explain::{SettingLine, Source, mask};
pub use tui::{KeyList, TuiSettings};

/// What happens to a changeset once it is built.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReviewPolicy {
    /// Commit at once (HAEMA's behaviour).
    Auto,
    /// Every changeset waits for a person.
    Review,
    /// Commit at once when it removes no memory and leaves core alone; otherwise wait.
    #[default]
    Guarded,
}

impl std::str::FromStr for ReviewPolicy {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, Self::Err> {
        match s.trim() {
            "auto" => Ok(Self::Auto),
            "review" => Ok(Self::Review),
            "guarded" => Ok(Self::Guarded),
            other => Err(format!("unknown review policy `{other}`; use auto, review or guarded")),
        }
    }
}

/// Which LLM or embedding provider.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProviderKind {
    /// None: no LLM (memories are stored as given) or no embedder (lexical search only).
    #[default]
    None,
    /// An OpenAI-compatible HTTP server.
    Openai,
    /// Google's Gemini API.
    Gemini,
    /// A sentence-transformers model run on this machine (embedder only).
    Local,
}

impl std::str::FromStr for ProviderKind {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, Self::Err> {
        match s.trim() {
            "none" | "" => Ok(Self::None),
            "openai" => Ok(Self::Openai),
            "local" => Ok(Self::Local),
            "gemini" => Ok(Self::Gemini),
            other => Err(format!("unknown provider `{other}`; use none, openai, gemini or local")),
        }
    }
}

/// LLM settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LlmSettings {
    /// Provider.
    pub provider: ProviderKind,
    /// Base URL (default `https://api.openai.com/v1`).
    pub base_url: Option<String>,
    /// Model (default `gpt-4o-mini`).
    pub model: Option<String>,
    /// Seconds one HTTP attempt may take.
    pub timeout_secs: u64,
    /// Retries of 429, 5xx and timeouts.
    pub max_retries: u32,
    /// From `HAEMA_LLM_API_KEY` only.
    #[serde(skip)]
    pub api_key: Option<String>,
}

impl Default for LlmSettings {
    fn default() -> Self {
        Self {
            provider: ProviderKind::None,
            base_url: None,
            model: None,
            timeout_secs: 120,
            max_retries: 3,
            api_key: None,
        }
    }
}

/// Embedder settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EmbedderSettings {
    /// Provider; `None` when neither the file nor the environment names one: then a new
    /// store uses the local model ([`EmbedderSettings::kind`]) and an existing store keeps
    /// the embedder it was made with.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provider: Option<ProviderKind>,
    /// Base URL (default `https://api.openai.com/v1`).
    pub base_url: Option<String>,
    /// Model (default `text-embedding-3-small`).
    pub model: Option<String>,
    /// Vector length; known models have a default, local models know their own.
    pub dims: Option<usize>,
    /// Texts per batch of the local embedder.
    pub batch_size: usize,
    /// Seconds one HTTP attempt may take.
    pub timeout_secs: u64,
    /// Retries of 429, 5xx and timeouts.
    pub max_retries: u32,
    /// From `HAEMA_EMBED_API_KEY` only.
    #[serde(skip)]
    pub api_key: Option<String>,
}

impl Default for EmbedderSettings {
    fn default() -> Self {
        Self {
            provider: None,
            base_url: None,
            model: None,
            dims: None,
            batch_size: 32,
            timeout_secs: 60,
            max_retries: 3,
            api_key: None,
        }
    }
}

impl EmbedderSettings {
    /// The provider in force: the configured one, else the local model (the default of a
    /// new store).
    pub fn kind(&self) -> ProviderKind {
        self.provider.unwrap_or(ProviderKind::Local)
    }

    /// Whether no provider is configured, so the default applies.
    pub fn is_default(&self) -> bool {
        self.provider.is_none()
    }

    /// The model name in force (a folder or a Hugging Face name for `local`).
    pub fn model_name(&self) -> String {
        self.model
            .clone()
            .unwrap_or_else(|| default_embed_model(self.kind()).to_owned())
    }
}

/// Related-memory lookup settings.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MergeSettings {
    /// Related memories looked up per new content.
    pub top_k: usize,
    /// Largest cosine distance (inclusive) at which a memory counts as related.
    pub distance_cutoff: f64,
}

impl Default for MergeSettings {
    fn default() -> Self {
        Self {
            top_k: 3,
            distance_cutoff: 0.25,
        }
    }
}

/// All settings of a store.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// Review policy.
    pub review: ReviewPolicy,
    /// Related-memory lookup.
    pub merge: MergeSettings,
    /// The LLM.
    pub llm: LlmSettings,
    /// The embedder.
    pub embedder: EmbedderSettings,
    /// The terminal UI.
    pub tui: TuiSettings,
}

impl Settings {
    /// Path of the settings file of a store.
    pub fn file_path(store: &Path) -> PathBuf {
        store.join("haema.toml")
    }

    /// Loads settings for a store from its file and the process environment.
    pub fn load(store: &Path) -> Result<Self> {
        Self::load_with_env(store, |name| std::env::var(name).ok())
    }

    /// Loads settings from the store's file and an environment given as a function.
    pub fn load_with_env(store: &Path, env: impl Fn(&str) -> Option<String>) -> Result<Self> {
        let path = Self::file_path(store);
        let mut settings = match std::fs::read_to_string(&path) {
            Ok(text) => Self::from_toml(&text).map_err(|e| Error::Config(format!("{}: {e}", path.display())))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Self::default(),
            Err(e) => return Err(Error::io("read", &path, e)),
        };
        settings.apply_env(env)?;
        settings.validate()?;
        Ok(settings)
    }

    /// Parses a settings file.
    pub fn from_toml(text: &str) -> std::result::Result<Self, String> {
        if let Ok(value) = text.parse::<toml::Table>() {
            for table in ["llm", "embedder"] {
                if value.get(table).and_then(|t| t.get("api_key")).is_some() {
                    return Err(format!(
                        "[{table}] api_key is not allowed in the file; keys are read from the environment only (HAEMA_LLM_API_KEY, HAEMA_EMBED_API_KEY)"
                    ));
                }
            }
        }
        toml::from_str(text).map_err(|e| e.to_string())
    }

    fn apply_env(&mut self, env: impl Fn(&str) -> Option<String>) -> Result<()> {
        fn parse<T: std::str::FromStr>(name: &str, value: &str) -> Result<T>
        where
            T::Err: std::fmt::Display,
        {
            value
                .trim()
                .parse()
                .map_err(|e| Error::Config(format!("{name}={value:?} is not valid: {e}")))
        }
        let get = |name: &str| env(name).filter(|v| !v.is_empty());
        if let Some(v) = get("HAEMA_REVIEW") {
            self.review = parse("HAEMA_REVIEW", &v)?;
        }
        if let Some(v) = get("HAEMA_MERGE_TOP_K") {
            self.merge.top_k = parse("HAEMA_MERGE_TOP_K", &v)?;
        }
        if let Some(v) = get("HAEMA_MERGE_DISTANCE_CUTOFF") {
            self.merge.distance_cutoff = parse("HAEMA_MERGE_DISTANCE_CUTOFF", &v)?;
        }
        if let Some(v) = get("HAEMA_LLM") {
            self.llm.provider = parse("HAEMA_LLM", &v)?;
        }
        if let Some(v) = get("HAEMA_LLM_BASE_URL") {
            self.llm.base_url = Some(v);
        }
        if let Some(v) = get("HAEMA_LLM_MODEL") {
            self.llm.model = Some(v);
        }
        self.llm.api_key = get("HAEMA_LLM_API_KEY");
        if let Some(v) = get("HAEMA_EMBEDDER") {
            self.embedder.provider = Some(parse("HAEMA_EMBEDDER", &v)?);
        }
        if let Some(v) = get("HAEMA_EMBED_BASE_URL") {
            self.embedder.base_url = Some(v);
        }
        if let Some(v) = get("HAEMA_EMBED_MODEL") {
            self.embedder.model = Some(v);
        }
        if let Some(v) = get("HAEMA_EMBED_DIMS") {
            self.embedder.dims = Some(parse("HAEMA_EMBED_DIMS", &v)?);
        }
        self.embedder.api_key = get("HAEMA_EMBED_API_KEY");
        Ok(())
    }

    /// Checks ranges as HAEMA's constructor does: dims > 0, top_k > 0, cutoff >= 0.
    pub fn validate(&self) -> Result<()> {
        if self.embedder.dims == Some(0) {
            return Err(Error::Config(
                "the embedding dimension must be greater than 0 (HAEMA_EMBED_DIMS / [embedder] dims)".into(),
            ));
        }
        if self.embedder.batch_size == 0 {
            return Err(Error::Config(
                "the embedding batch size must be greater than 0 ([embedder] batch_size)".into(),
            ));
        }
        if self.llm.provider == ProviderKind::Local {
            return Err(Error::Config("HAEMA_LLM=local is not supported: local models are for embeddings; use none or openai (an Ollama or llama.cpp server works through openai)".into()));
        }
        if self.merge.top_k == 0 {
            return Err(Error::Config(
                "merge top_k must be greater than 0 (HAEMA_MERGE_TOP_K / [merge] top_k)".into(),
            ));
        }
        if !(self.merge.distance_cutoff >= 0.0 && self.merge.distance_cutoff.is_finite()) {
            return Err(Error::Config(
                "merge distance_cutoff must be a number >= 0 (HAEMA_MERGE_DISTANCE_CUTOFF / [merge] distance_cutoff)"
                    .into(),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
