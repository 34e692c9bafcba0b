//! The views in tab order, terminal events, and the status line's contents.

use std::time::Instant;

use ratatui::crossterm::event::{KeyEvent, MouseEvent};

use crate::tui::action::Scope;

/// Something that happened in the terminal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A key press.
    Key(KeyEvent),
    /// Pasted text (bracketed paste).
    Paste(String),
    /// A mouse event (when mouse capture is on).
    Mouse(MouseEvent),
    /// The terminal was resized.
    Resize,
    /// Time passes (about ten times a second).
    Tick(Instant),
}

/// The views, in tab order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// Newest memories.
    Latest,
    /// Search and recall preview.
    Search,
    /// core.md.
    Core,
    /// Pending changesets.
    Review,
    /// Every changeset.
    History,
    /// Store switching.
    Stores,
    /// Agent keys.
    Agents,
}

impl View {
    /// Tab order.
    pub const ALL: [Self; 7] = [
        Self::Latest,
        Self::Search,
        Self::Core,
        Self::Review,
        Self::History,
        Self::Stores,
        Self::Agents,
    ];

    /// Tab title.
    pub fn title(self) -> &'static str {
        match self {
            Self::Latest => "Latest",
            Self::Search => "Search",
            Self::Core => "Core",
            Self::Review => "Review",
            Self::History => "History",
            Self::Stores => "Stores",
            Self::Agents => "Agents",
        }
    }

    /// The key scope of the view.
    pub fn scope(self) -> Scope {
        match self {
            Self::Latest => Scope::Latest,
            Self::Search => Scope::Search,
            Self::Core => Scope::Core,
            Self::Review => Scope::Review,
            Self::History => Scope::History,
            Self::Stores => Scope::Stores,
            Self::Agents => Scope::Agents,
        }
    }

    /// Position in [`View::ALL`].
    pub fn index(self) -> usize {
        Self::ALL.iter().position(|v| *v == self).unwrap_or(0)
    }
}

/// A line in the status bar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Status {
    /// Text.
    pub text: String,
    /// Shown as an error (and kept until the next action).
    pub error: bool,
    /// When it was set.
    pub at: Instant,
}

/// Work in progress shown with a spinner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Busy {
    /// What is being done.
    pub label: String,
    /// Since when.
    pub since: Instant,
}
