//! `[tui]` settings: key bindings and mouse capture of the terminal UI.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One key or a list of keys, as written in haema.toml.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum KeyList {
    /// `quit = "q"`
    One(String),
    /// `quit = ["q", "ctrl-q"]`
    Many(Vec<String>),
}

impl KeyList {
    /// The keys as written.
    pub fn keys(&self) -> Vec<&str> {
        match self {
            Self::One(k) => vec![k.as_str()],
            Self::Many(ks) => ks.iter().map(String::as_str).collect(),
        }
    }
}

/// Settings of the terminal UI.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TuiSettings {
    /// Key bindings that replace the defaults: action name → keys (`approve = ["y", "enter"]`).
    /// The TUI checks the names and keys when it starts.
    pub keys: BTreeMap<String, KeyList>,
    /// Capture the mouse (wheel scrolls, click selects). Off: the terminal's own text
    /// selection works without holding Shift.
    pub mouse: bool,
}

impl Default for TuiSettings {
    fn default() -> Self {
        Self {
            keys: BTreeMap::new(),
            mouse: true,
        }
    }
}
