//! Agents: the keys agents present to `haema mcp --http`, with what each may do and when
//! it was last used; make one (shown once), rotate, revoke, and undo what an agent did.

use haema_core::{AgentAccess, AgentKey};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::{Ctx, Cursor, Effect, LineInput, Overlay, PAGE_STEP, Pane, Reply};
use crate::tui::action::Action;

/// What the new-key line asks for.
pub const NEW_KEY_HINT: &str = "name access [expires], e.g. claude-laptop propose 30d";

/// The Agents view.
#[derive(Debug, Default)]
pub struct AgentsState {
    /// Every key, revoked and expired ones too, by name.
    pub items: Vec<AgentKey>,
    /// Selection.
    pub cursor: Cursor,
    /// The new key's line, while it is typed.
    pub new_key: Option<LineInput>,
    /// The first answer arrived.
    pub loaded: bool,
}

impl AgentsState {
    /// Takes the list, keeping the selection on the same key.
    pub fn receive(&mut self, items: Vec<AgentKey>) {
        let keep = self.selected().map(|k| k.name.clone());
        self.items = items;
        if let Some(pos) = keep.and_then(|name| self.items.iter().position(|k| k.name == name)) {
            self.cursor.selected = pos;
        }
        self.loaded = true;
        self.cursor.clamp(self.items.len());
    }

    /// The selected key.
    pub fn selected(&self) -> Option<&AgentKey> {
        self.items.get(self.cursor.selected)
    }
}

/// The new key asked for by a line `name access [expires]`, or what is wrong with it.
pub fn parse_new_key(line: &str) -> Result<Effect, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let (name, access, expires) = match words.as_slice() {
        [] => return Err(format!("type {NEW_KEY_HINT}")),
        [name] => {
            return Err(format!("say what {name} may do after its name: read, propose or write"));
        }
        [name, access] => (name, access, None),
        [name, access, expires] => (name, access, Some((*expires).to_owned())),
        _ => return Err(format!("too many words: {NEW_KEY_HINT}")),
    };
    let access: AgentAccess = access.parse().map_err(|_| {
        format!("`{access}` is no access: read (search and read only), propose (every change waits for your review) or write")
    })?;
    Ok(Effect::CreateAgentKey {
        name: (*name).to_owned(),
        access,
        expires,
    })
}

impl Pane for AgentsState {
    fn load(&mut self) -> Vec<Effect> {
        vec![Effect::ListAgentKeys]
    }

    fn act(&mut self, action: Action, _ctx: &Ctx<'_>) -> Reply {
        if self.cursor.act(action, self.items.len(), PAGE_STEP) {
            return Reply::none();
        }
        if action == Action::NewKey {
            self.new_key = Some(LineInput::default());
            return Reply::none();
        }
        let Some(key) = self.selected() else {
            return Reply::none();
        };
        let name = key.name.clone();
        match action {
            Action::RevokeKey if !key.usable() => Reply::inform(format!("{name}'s key is {} already", key.state())),
            Action::RevokeKey => Reply::overlay(Overlay::confirm(
                format!(
                    "Revoke {name}'s key? It stops working at once, on every server of this store. Its changes stay: u undoes them."
                ),
                "revoke",
                vec![Effect::RevokeAgentKey(name)],
            )),
            Action::RotateKey if !key.usable() => {
                Reply::inform(format!("{name}'s key is {}: make a new key instead (N)", key.state()))
            }
            Action::RotateKey => Reply::overlay(Overlay::confirm(
                format!("Give {name} a new key? The old one stops working at once; the new one is shown once."),
                "rotate",
                vec![Effect::RotateAgentKey(name)],
            )),
            Action::UndoAgent => Reply::overlay(Overlay::confirm(
                format!(
                    "Undo what {name} did? Its committed changes are reverted, newest first, and its proposals that wait for review rejected.{}",
                    if key.usable() {
                        " Its key still works: revoke it (x) or it may go on writing."
                    } else {
                        ""
                    }
                ),
                "undo its changes",
                vec![Effect::UndoAgentKey(name)],
            )),
            _ => Reply::none(),
        }
    }

    fn typing(&self) -> bool {
        self.new_key.is_some()
    }

    fn paste(&mut self, text: &str, _ctx: &Ctx<'_>) -> Reply {
        if let Some(input) = &mut self.new_key {
            input.insert_str(text);
        }
        Reply::none()
    }

    /// A key while the new key's line is typed.
    fn input(&mut self, key: KeyEvent, _ctx: &Ctx<'_>) -> Reply {
        let Some(input) = &mut self.new_key else {
            return Reply::none();
        };
        match key.code {
            KeyCode::Esc => {
                self.new_key = None;
                Reply::none()
            }
            KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => {
                self.new_key = None;
                Reply::none()
            }
            KeyCode::Enter => match parse_new_key(input.text()) {
                Ok(effect) => {
                    self.new_key = None;
                    vec![effect].into()
                }
                // The line stays, so the person fixes it instead of typing it again.
                Err(e) => Reply::fail(e),
            },
            _ => {
                input.handle(key);
                Reply::none()
            }
        }
    }
}
