//! Settings: defaults, then the user's `config.toml` (the terminal UI's settings), then
//! `<store>/haema.toml`, then environment variables. Every setting is declared once, in
//! [`SETTINGS`].
//!
//! API keys are read from the environment, else from the OS keyring ([`crate::keys`]);
//! a key in the file is an error.
//!
//! [`SETTINGS`] is what `haema config` lists: each setting's name, file, variable, default
//! and help.
//!
//! ```
//! use haema_core::config::{ReadBy, SETTINGS, SettingSpec, dotted_leaves};
//!
//! let review = SettingSpec::named("review").ok_or("no such setting")?;
//! assert_eq!((review.env, review.default), (Some("HAEMA_REVIEW"), "guarded"));
//! assert_eq!(review.allowed, ["auto", "review", "guarded"]);
//! for spec in SETTINGS.iter().filter(|s| s.read_by == ReadBy::Settings) {
//!     println!("{:<28} {:<30} {}", spec.name, spec.env.unwrap_or("-"), spec.help);
//! }
//!
//! // What a settings file sets, as dotted names.
//! let file: toml::Table = "review = \"auto\"\n[llm]\nmodel = \"llama3.1\"\n".parse()?;
//! let set: Vec<String> = dotted_leaves(&file).into_iter().map(|(name, _)| name).collect();
//! assert_eq!(set, ["llm.model", "review"]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod build;
pub mod check;
pub mod connect;
mod dotted;
mod edit;
mod explain;
mod keyring_keys;
mod on_add;
mod registry;
mod remember;
mod search;
mod setting_spec;
mod tui;
mod user_file;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

pub use crate::types::policy::{ReviewPolicy, StoreScope};
pub use crate::types::provider_kind::ProviderKind;
pub(crate) use build::{default_embed_model, default_llm_model};
pub use explain::{SettingLine, Source};
pub use on_add::EmbedOnAdd;
pub use registry::{ReadBy, SETTINGS, SettingFile, SettingSpec, dotted_leaves};
pub use search::SearchSettings;
pub use tui::{KeyList, TuiSettings};
pub use user_file::{configured_store_dir, store_in_user_file};

/// LLM settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LlmSettings {
    /// Provider.
    #[serde(deserialize_with = "ProviderKind::deserialize_setting")]
    pub provider: ProviderKind,
    /// Base URL (default `https://api.openai.com/v1`).
    pub base_url: Option<String>,
    /// Model (default `gpt-4o-mini`).
    pub model: Option<String>,
    /// Seconds one HTTP attempt may take.
    pub timeout_secs: u64,
    /// Retries of 429, 5xx and timeouts.
    pub max_retries: u32,
    /// Seconds all the LLM calls of one add may take together (every stage and retry).
    pub add_deadline_secs: u64,
    /// Ask the LLM to split a text even when it already is one short fact (HAEMA always
    /// does; the Python `Memory` turns it on). Off, such a text is taken as it is: one call
    /// fewer per add.
    pub split_short_texts: bool,
    /// From `HAEMA_LLM_API_KEY`, else the OS keyring ([`crate::keys`]); never a file.
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
            add_deadline_secs: 300,
            split_short_texts: false,
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
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "ProviderKind::deserialize_optional_setting"
    )]
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
    /// When an add makes its memories' vectors: now (default) or later, in the background.
    pub on_add: EmbedOnAdd,
    /// From `HAEMA_EMBED_API_KEY`, else the OS keyring ([`crate::keys`]); never a file.
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
            on_add: EmbedOnAdd::Now,
            api_key: None,
        }
    }
}

impl EmbedderSettings {
    /// The provider in force: the configured one, else the local model (the default of a
    /// new store).
    ///
    /// ```
    /// use haema_core::config::{EmbedderSettings, ProviderKind};
    /// let unset = EmbedderSettings::default();
    /// assert_eq!((unset.kind(), unset.is_default()), (ProviderKind::Local, true));
    /// println!("a new store would use {}", unset.model_name());
    /// ```
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

    /// Whether vectors made with `self` cannot be searched with `next`'s (another provider,
    /// model, address or length): every memory then needs new ones.
    pub fn needs_new_vectors(&self, next: &EmbedderSettings) -> bool {
        (self.kind(), self.model_name(), &self.base_url, self.dims)
            != (next.kind(), next.model_name(), &next.base_url, next.dims)
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

/// Recall block settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RecallSettings {
    /// Longest memory text in a recall block, in characters; a longer memory is cut, and
    /// the block says so.
    pub max_chars: usize,
    /// How long a recall waits for its search, in milliseconds, before it answers with core
    /// and the newest memories alone (0: no limit).
    pub timeout_ms: u64,
}

impl Default for RecallSettings {
    fn default() -> Self {
        Self {
            max_chars: 1_000,
            timeout_ms: 500,
        }
    }
}

/// Settings of the hooks that recall and capture in other agents (`haema hook claude-code`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HookSettings {
    /// The most a hook's recall adds to a prompt, in estimated tokens.
    pub budget_tokens: usize,
    /// How long a hook may take to answer, in milliseconds, store opening included; past
    /// it the hook answers nothing and the prompt goes on without it.
    pub timeout_ms: u64,
}

impl Default for HookSettings {
    fn default() -> Self {
        Self {
            budget_tokens: 300,
            timeout_ms: 1_500,
        }
    }
}

/// All settings of a store.
///
/// Usually loaded ([`Settings::load`]); in code, change what differs from the defaults:
///
/// ```
/// use haema_core::config::{LlmSettings, ProviderKind};
/// use haema_core::{ReviewPolicy, Settings};
///
/// let settings = Settings {
///     review: ReviewPolicy::Review,
///     llm: LlmSettings {
///         provider: ProviderKind::Openai,
///         base_url: Some("http://127.0.0.1:11434/v1".into()), // Ollama
///         model: Some("llama3.1".into()),
///         ..LlmSettings::default()
///     },
///     ..Settings::default()
/// };
/// settings.validate()?;
/// # Ok::<(), haema_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// Review policy.
    pub review: ReviewPolicy,
    /// Whether the store keeps users' memories apart.
    pub scope: StoreScope,
    /// Related-memory lookup.
    pub merge: MergeSettings,
    /// The recall block.
    pub recall: RecallSettings,
    /// Search ranking.
    pub search: SearchSettings,
    /// The LLM.
    pub llm: LlmSettings,
    /// The embedder.
    pub embedder: EmbedderSettings,
    /// The terminal UI.
    pub tui: TuiSettings,
    /// The secret screen.
    pub secrets: SecretSettings,
    /// The hooks that recall and capture in other agents.
    pub hooks: HookSettings,
}

/// Secret screen settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SecretSettings {
    /// What happens to a change whose text held a secret: `redact` (stored with markers)
    /// or `hold` (stored with markers, and waits for review).
    pub policy: crate::secrets::SecretPolicy,
}

/// The merge settings' rule, as HAEMA's constructor checks it (`top_k > 0`, `cutoff >= 0`):
/// the setting it breaks and the rule in words, for each surface to say where the value
/// came from (a setting's file or variable, a Python argument).
///
/// ```
/// use haema_core::config::merge_rule_broken;
/// assert_eq!(merge_rule_broken(3, 0.25), None);
/// assert_eq!(merge_rule_broken(0, 0.25), Some(("merge.top_k", "merge top_k must be greater than 0")));
/// assert_eq!(merge_rule_broken(3, -1.0).map(|b| b.0), Some("merge.distance_cutoff"));
/// ```
pub fn merge_rule_broken(top_k: i64, distance_cutoff: f64) -> Option<(&'static str, &'static str)> {
    if top_k <= 0 {
        return Some(("merge.top_k", "merge top_k must be greater than 0"));
    }
    if !(distance_cutoff >= 0.0 && distance_cutoff.is_finite()) {
        return Some(("merge.distance_cutoff", "merge distance_cutoff must be a number >= 0"));
    }
    None
}

impl Settings {
    /// Path of the settings file of a store.
    pub fn file_path(store: &Path) -> PathBuf {
        store.join("haema.toml")
    }

    /// Path of the user's settings file, for every store: `config.toml` in haema's folder
    /// of the user's configuration folder (`$XDG_CONFIG_HOME/haema/config.toml`, else
    /// `~/.config/haema/config.toml`; on macOS `~/Library/Application Support/haema/`).
    /// `None` without a home folder.
    pub fn user_file_path() -> Option<PathBuf> {
        directories::BaseDirs::new().map(|dirs| dirs.config_dir().join("haema").join("config.toml"))
    }

    /// Loads settings for a store from the user's file, the store's file and the process
    /// environment. API keys the environment does not give are read from the OS keyring
    /// ([`crate::keys`]) unless `HAEMA_KEYRING=off`.
    pub fn load(store: &Path) -> Result<Self> {
        let env = |name: &str| std::env::var(name).ok();
        Self::load_with_keys(
            store,
            Self::user_file_path().as_deref(),
            env,
            &*crate::keys::from_env(env),
        )
    }

    /// Loads settings from the store's file and an environment given as a function,
    /// without the user's file.
    ///
    /// ```
    /// use haema_core::{ReviewPolicy, Settings};
    /// let store = tempfile::tempdir()?;
    /// std::fs::write(Settings::file_path(store.path()), "review = \"review\"\n[llm]\nprovider = \"openai\"\n")?;
    /// // A variable overrides the file.
    /// let env = |name: &str| (name == "HAEMA_LLM_MODEL").then(|| "llama3.1".to_string());
    /// let settings = Settings::load_with_env(store.path(), env)?;
    /// assert_eq!(settings.review, ReviewPolicy::Review);
    /// assert_eq!(settings.llm.model.as_deref(), Some("llama3.1"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn load_with_env(store: &Path, env: impl Fn(&str) -> Option<String>) -> Result<Self> {
        Self::load_with(store, None, env)
    }

    /// Loads settings from the user's file (when given; a missing one is no error), the
    /// store's file and an environment given as a function, in that order of precedence
    /// from lowest.
    ///
    /// ```
    /// use haema_core::{ReviewPolicy, Settings};
    /// let (home, store) = (tempfile::tempdir()?, tempfile::tempdir()?);
    /// let user_file = home.path().join("config.toml"); // the person's: key bindings, mouse
    /// std::fs::write(&user_file, "[tui]\nmouse = false\n")?;
    /// std::fs::write(Settings::file_path(store.path()), "review = \"auto\"\n")?;
    /// let env = |name: &str| (name == "HAEMA_REVIEW").then(|| "review".to_string());
    /// let settings = Settings::load_with(store.path(), Some(&user_file), env)?;
    /// assert_eq!((settings.review, settings.tui.mouse), (ReviewPolicy::Review, false));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn load_with(store: &Path, user_file: Option<&Path>, env: impl Fn(&str) -> Option<String>) -> Result<Self> {
        let path = Self::file_path(store);
        let (mut settings, table) = match read_optional(&path)? {
            Some(text) => {
                let in_path = |e: String| Error::Config(format!("{}: {e}", path.display()));
                (
                    Self::from_toml(&text).map_err(in_path)?,
                    text.parse::<toml::Table>().ok(),
                )
            }
            None => (Self::default(), None),
        };
        if let Some(user) = user_file.map(user_file::read_user_file).transpose()?.flatten() {
            let written = |key: &str| table.as_ref().is_some_and(|t| registry::lookup(t, key).is_some());
            settings.tui = user.tui.under(std::mem::take(&mut settings.tui), written);
        }
        settings.apply_env(env)?;
        settings.validate()?;
        Ok(settings)
    }

    /// Parses a settings file.
    ///
    /// ```
    /// use haema_core::Settings;
    /// let settings = Settings::from_toml("[merge]\ntop_k = 5\n")?;
    /// assert_eq!(settings.merge.top_k, 5);
    /// let refused = Settings::from_toml("[llm]\napi_key = \"sk-…\"\n").unwrap_err();
    /// assert!(refused.contains("HAEMA_LLM_API_KEY")); // keys never go in a file
    /// # Ok::<(), String>(())
    /// ```
    pub fn from_toml(text: &str) -> std::result::Result<Self, String> {
        if let Ok(table) = text.parse::<toml::Table>() {
            let env_only = SETTINGS
                .iter()
                .filter(|s| s.file.is_none() && s.read_by == ReadBy::Settings);
            for spec in env_only {
                if registry::lookup(&table, spec.name).is_some() {
                    return Err(format!(
                        "{} is not allowed in the file; keys are read from the environment ({}) or the system keyring",
                        registry::as_written(spec.name),
                        spec.env.unwrap_or_default()
                    ));
                }
            }
        }
        toml::from_str(text).map_err(|e| e.to_string())
    }

    /// Applies every variable the registry declares for these settings.
    fn apply_env(&mut self, env: impl Fn(&str) -> Option<String>) -> Result<()> {
        for spec in SETTINGS {
            let (Some(name), Some(set)) = (spec.env, spec.set) else {
                continue;
            };
            if let Some(value) = env(name).filter(|v| !v.is_empty()) {
                set(self, &value).map_err(|e| Error::Config(format!("{name}={value:?} is not valid: {e}")))?;
            }
        }
        Ok(())
    }

    /// Checks ranges as HAEMA's constructor does: dims > 0, top_k > 0, cutoff >= 0 (and a
    /// few of haema's own). See the example on [`Settings`].
    pub fn validate(&self) -> Result<()> {
        use registry::origin;
        if self.embedder.dims == Some(0) {
            return Err(Error::Config(format!(
                "the embedding dimension must be greater than 0 ({})",
                origin("embedder.dims")
            )));
        }
        if self.embedder.batch_size == 0 {
            return Err(Error::Config(format!(
                "the embedding batch size must be greater than 0 ({})",
                origin("embedder.batch_size")
            )));
        }
        if self.llm.provider == ProviderKind::Local {
            return Err(Error::Config(format!(
                "{}=local is not supported: local models are for embeddings; use none or openai (an Ollama or llama.cpp server works through openai)",
                registry::env_of("llm.provider")
            )));
        }
        if self.llm.add_deadline_secs == 0 {
            return Err(Error::Config(format!(
                "the LLM's time for one add must be at least 1 second ({})",
                origin("llm.add_deadline_secs")
            )));
        }
        let top_k = i64::try_from(self.merge.top_k).unwrap_or(i64::MAX);
        if let Some((setting, rule)) = merge_rule_broken(top_k, self.merge.distance_cutoff) {
            return Err(Error::Config(format!("{rule} ({})", origin(setting))));
        }
        if self.recall.max_chars == 0 {
            return Err(Error::Config(format!(
                "recall max_chars must be greater than 0 ({})",
                origin("recall.max_chars")
            )));
        }
        if !(50..=32_000).contains(&self.hooks.budget_tokens) {
            return Err(Error::Config(format!(
                "a hook's budget must be from 50 to 32000 tokens ({})",
                origin("hooks.budget_tokens")
            )));
        }
        self.search.validate()
    }
}

/// A file's text, or `None` when there is no such file.
fn read_optional(path: &Path) -> Result<Option<String>> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::io("read", path, e)),
    }
}

#[cfg(test)]
mod tests;
