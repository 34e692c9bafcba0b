//! Stores: the stores next to the open one; open one, create one.

use std::path::Path;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::{App, Cursor, Effect, LineInput, PAGE_STEP, StoreEntry};
use crate::tui::action::Action;

/// The Stores view.
#[derive(Debug, Default)]
pub struct StoresState {
    /// Stores found, the open one included.
    pub items: Vec<StoreEntry>,
    /// Selection.
    pub cursor: Cursor,
    /// The name of a store being created, while it is typed.
    pub new_name: Option<LineInput>,
    /// The first answer arrived.
    pub loaded: bool,
}

impl StoresState {
    /// Takes the list; selects the open store the first time.
    pub fn receive(&mut self, items: Vec<StoreEntry>, open: &Path) {
        let keep = self.items.get(self.cursor.selected).map(|s| s.dir.clone());
        self.items = items;
        let target = if self.loaded { keep } else { Some(open.to_path_buf()) };
        if let Some(pos) = target.and_then(|d| self.items.iter().position(|s| s.dir == d)) {
            self.cursor.selected = pos;
        }
        self.loaded = true;
        self.cursor.clamp(self.items.len());
    }
}

/// A valid store name: letters, digits, `-`, `_` and `.`, not starting with a dot.
pub fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("type a name for the store".into());
    }
    if name.starts_with('.') || !name.chars().all(|c| c.is_alphanumeric() || "-_.".contains(c)) {
        return Err(format!(
            "`{name}` cannot be a store name; use letters, digits, `-`, `_` and `.` (not first)"
        ));
    }
    Ok(())
}

impl App {
    /// The folder that holds the stores: the parent of the open one.
    pub fn stores_root(&self) -> std::path::PathBuf {
        self.store_dir
            .parent()
            .map_or_else(|| self.store_dir.clone(), Path::to_path_buf)
    }

    pub(super) fn stores_action(&mut self, action: Action) -> Vec<Effect> {
        let len = self.stores.items.len();
        if Self::move_cursor(&mut self.stores.cursor, action, len, PAGE_STEP) {
            return Vec::new();
        }
        match action {
            Action::Open | Action::SwitchStore => {
                match self
                    .stores
                    .items
                    .get(self.stores.cursor.selected)
                    .map(|s| s.dir.clone())
                {
                    Some(dir) if dir == self.store_dir => {
                        self.inform("this store is already open");
                        Vec::new()
                    }
                    Some(dir) => vec![Effect::SwitchStore(dir)],
                    None => Vec::new(),
                }
            }
            Action::NewStore => {
                self.stores.new_name = Some(LineInput::default());
                Vec::new()
            }
            _ => Vec::new(),
        }
    }

    /// A key while a new store's name is typed.
    pub(super) fn stores_input(&mut self, key: KeyEvent) -> Vec<Effect> {
        let Some(input) = &mut self.stores.new_name else {
            return Vec::new();
        };
        match key.code {
            KeyCode::Esc => {
                self.stores.new_name = None;
                Vec::new()
            }
            KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => {
                self.stores.new_name = None;
                Vec::new()
            }
            KeyCode::Enter => {
                let name = input.text().trim().to_owned();
                if let Err(e) = check_name(&name) {
                    self.fail(e);
                    return Vec::new();
                }
                let dir = self.stores_root().join(&name);
                self.stores.new_name = None;
                if self.stores.items.iter().any(|s| s.dir == dir) {
                    self.inform(format!("`{name}` exists; opening it"));
                }
                vec![Effect::SwitchStore(dir)]
            }
            _ => {
                input.handle(key);
                Vec::new()
            }
        }
    }
}
