//! Stores: the stores next to the open one; open one, create one.

use std::path::Path;

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::{Ctx, Cursor, Effect, LineInput, PAGE_STEP, Pane, Reply, StoreEntry};
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

/// The folder that holds the stores: the parent of the open one.
pub fn stores_root(store_dir: &Path) -> std::path::PathBuf {
    store_dir
        .parent()
        .map_or_else(|| store_dir.to_path_buf(), Path::to_path_buf)
}

impl Pane for StoresState {
    fn load(&mut self) -> Vec<Effect> {
        vec![Effect::ListStores]
    }

    fn act(&mut self, action: Action, ctx: &Ctx<'_>) -> Reply {
        if self.cursor.act(action, self.items.len(), PAGE_STEP) {
            return Reply::none();
        }
        match action {
            Action::Open | Action::SwitchStore => match self.items.get(self.cursor.selected).map(|s| s.dir.clone()) {
                Some(dir) if dir == ctx.store_dir => Reply::inform("this store is already open"),
                Some(dir) => vec![Effect::SwitchStore(dir)].into(),
                None => Reply::none(),
            },
            Action::NewStore => {
                self.new_name = Some(LineInput::default());
                Reply::none()
            }
            _ => Reply::none(),
        }
    }

    fn typing(&self) -> bool {
        self.new_name.is_some()
    }

    fn paste(&mut self, text: &str, _ctx: &Ctx<'_>) -> Reply {
        if let Some(input) = &mut self.new_name {
            input.insert_str(text);
        }
        Reply::none()
    }

    /// A key while a new store's name is typed.
    fn input(&mut self, key: KeyEvent, ctx: &Ctx<'_>) -> Reply {
        let Some(input) = &mut self.new_name else {
            return Reply::none();
        };
        match key.code {
            KeyCode::Esc => {
                self.new_name = None;
                Reply::none()
            }
            KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => {
                self.new_name = None;
                Reply::none()
            }
            KeyCode::Enter => {
                let name = input.text().trim().to_owned();
                if let Err(e) = check_name(&name) {
                    return Reply::fail(e);
                }
                let dir = stores_root(ctx.store_dir).join(&name);
                self.new_name = None;
                let mut reply = Reply::from(vec![Effect::SwitchStore(dir.clone())]);
                if self.items.iter().any(|s| s.dir == dir) {
                    reply.note = Some(super::Note::Inform(format!("`{name}` exists; opening it")));
                }
                reply
            }
            _ => {
                input.handle(key);
                Reply::none()
            }
        }
    }
}
