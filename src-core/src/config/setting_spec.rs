//! What a setting is: its declaration ([`SettingSpec`]), the file it can be written in and
//! what reads it. The table of every setting is [`super::registry::SETTINGS`].

use serde::Serialize;

use super::Settings;
use super::registry::SETTINGS;

/// The file a setting can be written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "snake_case")]
pub enum SettingFile {
    /// `<store>/haema.toml`: the store's own settings.
    Store,
    /// The user's `config.toml` (`$XDG_CONFIG_HOME/haema/config.toml`), for every store;
    /// a store's `haema.toml` may still set it (older stores did), and wins.
    User,
}

/// What reads a setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReadBy {
    /// The settings loader ([`Settings::load`]).
    Settings,
    /// The front ends (command line, desktop app), which pick the store with it.
    FrontEnd,
    /// The local embedder's model cache and downloader (Hugging Face's own variables).
    Hub,
}

/// Turns an environment value into a setting.
pub(crate) type Set = fn(&mut Settings, &str) -> Result<(), String>;
/// The effective value of a setting, as people are shown it (secrets masked).
pub(crate) type Show = fn(&Settings) -> String;

/// One setting.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct SettingSpec {
    /// Dotted name (`llm.model`), as `haema config` shows it; when [`SettingSpec::file`] is
    /// set, also its key in that file (`model` under `[llm]`).
    pub name: &'static str,
    /// The file it can be written in; `None`: the environment (or command line) only.
    pub file: Option<SettingFile>,
    /// Its environment variable, which overrides the file.
    pub env: Option<&'static str>,
    /// The default, as people are shown it.
    pub default: &'static str,
    /// The allowed values when they are a closed set; empty otherwise.
    pub allowed: &'static [&'static str],
    /// One line of help.
    pub help: &'static str,
    /// What reads it.
    pub read_by: ReadBy,
    /// How an environment value sets it (settings read by the loader that have a variable).
    #[serde(skip)]
    pub(crate) set: Option<Set>,
    /// Its effective value (settings read by the loader).
    #[serde(skip)]
    pub(crate) show: Option<Show>,
}

impl SettingSpec {
    /// Its key in its file (the dotted name), or `None` when no file can set it.
    pub fn file_key(&self) -> Option<&'static str> {
        self.file.map(|_| self.name)
    }

    /// The declaration of a setting by name.
    pub fn named(name: &str) -> Option<&'static SettingSpec> {
        SETTINGS.iter().find(|s| s.name == name)
    }
}
