//! Styles in the 16 ANSI colours (what every terminal and tmux shows), or none at all
//! under `NO_COLOR`: then bold, reverse and underline carry the meaning.

use ratatui::style::{Color, Modifier, Style};

/// The styles of the TUI.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    color: bool,
}

impl Theme {
    /// Colours unless `NO_COLOR` is set to anything non-empty (<https://no-color.org>).
    pub fn from_env() -> Self {
        Self {
            color: std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
        }
    }

    /// With or without colour.
    pub fn new(color: bool) -> Self {
        Self { color }
    }

    fn fg(self, color: Color) -> Style {
        if self.color {
            Style::default().fg(color)
        } else {
            Style::default()
        }
    }

    /// Plain text.
    pub fn text(self) -> Style {
        Style::default()
    }

    /// Secondary text (times, ids, hints).
    pub fn dim(self) -> Style {
        if self.color {
            Style::default().fg(Color::DarkGray)
        } else {
            Style::default()
        }
    }

    /// Titles and the active tab.
    pub fn accent(self) -> Style {
        self.fg(Color::Cyan).add_modifier(Modifier::BOLD)
    }

    /// The selected row.
    pub fn selected(self) -> Style {
        Style::default().add_modifier(Modifier::REVERSED)
    }

    /// Added text.
    pub fn added(self) -> Style {
        if self.color {
            Style::default().fg(Color::Green)
        } else {
            Style::default().add_modifier(Modifier::UNDERLINED)
        }
    }

    /// Removed text.
    pub fn removed(self) -> Style {
        if self.color {
            Style::default().fg(Color::Red)
        } else {
            Style::default().add_modifier(Modifier::CROSSED_OUT)
        }
    }

    /// Changed words inside an added or removed memory.
    pub fn emphasis(self, base: Style) -> Style {
        base.add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
    }

    /// Warnings (stale, locked, pending badge).
    pub fn warning(self) -> Style {
        self.fg(Color::Yellow).add_modifier(Modifier::BOLD)
    }

    /// Errors.
    pub fn error(self) -> Style {
        self.fg(Color::Red).add_modifier(Modifier::BOLD)
    }

    /// Markdown headings.
    pub fn heading(self) -> Style {
        self.fg(Color::Blue).add_modifier(Modifier::BOLD)
    }

    /// Inline code and code blocks.
    pub fn code(self) -> Style {
        self.fg(Color::Yellow)
    }

    /// List bullets and quote markers.
    pub fn marker(self) -> Style {
        self.fg(Color::Magenta)
    }

    /// Links.
    pub fn link(self) -> Style {
        self.fg(Color::Blue).add_modifier(Modifier::UNDERLINED)
    }
}
