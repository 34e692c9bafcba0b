//! What every view's state does: load itself, answer the actions of its key scope, take
//! typed text when it has a text field, and draw itself (the drawing half,
//! [`Render`], lives in `views/`). Panes return what they want done as data, a [`Reply`];
//! the app applies it, so a pane never reaches into another pane or the window stack.

use std::path::Path;
use std::time::Instant;

use ratatui::crossterm::event::KeyEvent;

use super::{Effect, Overlay};
use crate::tui::action::Action;
pub use crate::tui::views::Render;

/// What a pane may read of the app.
#[derive(Debug, Clone, Copy)]
pub struct Ctx<'a> {
    /// Time as of the last tick.
    pub now: Instant,
    /// Folder of the open store.
    pub store_dir: &'a Path,
}

/// A line for the status bar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Note {
    /// Information; fades after a while.
    Inform(String),
    /// An error; stays until the next key.
    Fail(String),
}

/// What a pane wants done after a key, besides changing itself.
#[derive(Default)]
pub struct Reply {
    /// Work for the runtime.
    pub effects: Vec<Effect>,
    /// A window to open over the view.
    pub overlay: Option<Overlay>,
    /// A status line.
    pub note: Option<Note>,
    /// Quit the UI.
    pub quit: bool,
    /// Leave the view for the one shown before it.
    pub leave: bool,
}

impl Reply {
    /// Nothing to do.
    pub fn none() -> Self {
        Self::default()
    }

    /// Opens a window.
    pub fn overlay(overlay: Overlay) -> Self {
        Self {
            overlay: Some(overlay),
            ..Self::default()
        }
    }

    /// Shows information.
    pub fn inform(text: impl Into<String>) -> Self {
        Self {
            note: Some(Note::Inform(text.into())),
            ..Self::default()
        }
    }

    /// Shows an error.
    pub fn fail(text: impl Into<String>) -> Self {
        Self {
            note: Some(Note::Fail(text.into())),
            ..Self::default()
        }
    }

    /// Quits.
    pub fn quit() -> Self {
        Self {
            quit: true,
            ..Self::default()
        }
    }
}

impl From<Vec<Effect>> for Reply {
    fn from(effects: Vec<Effect>) -> Self {
        Self {
            effects,
            ..Self::default()
        }
    }
}

impl From<Option<Effect>> for Reply {
    fn from(effect: Option<Effect>) -> Self {
        effect.into_iter().collect::<Vec<_>>().into()
    }
}

/// The state of one view: Latest, Search, Core, Review, History or Stores.
pub trait Pane: Render {
    /// Effects that read what the pane shows: when it is shown, and on every refresh.
    fn load(&mut self) -> Vec<Effect>;

    /// An action from the pane's key scope, or a list move.
    fn act(&mut self, action: Action, ctx: &Ctx<'_>) -> Reply;

    /// Whether keys go to the pane's own text field (a query, a name) instead of the
    /// key bindings.
    fn typing(&self) -> bool {
        false
    }

    /// A key while [`Pane::typing`].
    fn input(&mut self, _key: KeyEvent, _ctx: &Ctx<'_>) -> Reply {
        Reply::none()
    }

    /// Pasted text.
    fn paste(&mut self, _text: &str, _ctx: &Ctx<'_>) -> Reply {
        Reply::none()
    }

    /// Time passes (every pane hears it, shown or not).
    fn tick(&mut self, _now: Instant) -> Vec<Effect> {
        Vec::new()
    }

    /// A read failed: stop showing that something is on its way.
    fn failed(&mut self) {}
}
