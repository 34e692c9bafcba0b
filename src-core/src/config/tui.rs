//! `[tui]` settings: key bindings and mouse capture of the terminal UI.
//!
//! They belong to the person, not to a store: they are read from the user's `config.toml`.
//! A store's `haema.toml` may still hold a `[tui]` table (older stores did); what it writes
//! wins, binding by binding.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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
    ///
    /// ```
    /// use haema_core::KeyList;
    /// let quit = KeyList::Many(vec!["q".into(), "ctrl-q".into()]); // quit = ["q", "ctrl-q"]
    /// assert_eq!(quit.keys(), ["q", "ctrl-q"]);
    /// assert_eq!(KeyList::One("y".into()).keys(), ["y"]);
    /// ```
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

impl TuiSettings {
    /// These (the user's) settings with a store's on top: the store's bindings replace the
    /// user's action by action, and its `mouse` wins when `written` says the store's file
    /// sets it.
    pub(crate) fn under(self, store: TuiSettings, written: impl Fn(&str) -> bool) -> TuiSettings {
        let mut keys = self.keys;
        keys.extend(store.keys);
        let mouse = if written("tui.mouse") { store.mouse } else { self.mouse };
        TuiSettings { keys, mouse }
    }
}
