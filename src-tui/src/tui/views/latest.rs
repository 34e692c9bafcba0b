//! The Latest view: newest memories with the selected one in full below.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};

use super::Ui;
use super::widgets::{self, block, field, one_line};
use crate::tui::action::Action;
use crate::tui::app::{App, LatestState};

/// Draws the view.
pub fn draw(state: &LatestState, frame: &mut Frame<'_>, area: Rect, app: &App, ui: &Ui) {
    let title = if state.exhausted || state.items.is_empty() {
        format!(" Latest · {} ", state.items.len())
    } else {
        format!(" Latest · {}+ ", state.items.len())
    };
    if state.items.is_empty() {
        let message = if state.loaded {
            vec![
                Line::from("No memories yet."),
                Line::from(""),
                Line::from(Span::styled(
                    format!(
                        "Press {} to add one, or run `haema add \"...\"`.",
                        app.keymap.label(crate::tui::action::Action::Add)
                    ),
                    ui.theme.dim(),
                )),
            ]
        } else {
            vec![Line::from(Span::styled("loading…", ui.theme.dim()))]
        };
        widgets::placeholder(frame, area, message, block(title, ui));
        return;
    }
    let preview_height = (area.height / 3).clamp(5, 10);
    let [list_area, preview_area] =
        Layout::vertical([Constraint::Min(3), Constraint::Length(preview_height)]).areas(area);
    let items: Vec<Line<'_>> = state
        .items
        .iter()
        .map(|m| {
            let changeset = m.changeset_id.map(|c| format!(" #{c}")).unwrap_or_default();
            Line::from(vec![
                Span::styled(ui.clock.format(m.timestamp_ms), ui.theme.dim()),
                Span::raw("  "),
                pin_mark(m, ui),
                Span::raw(one_line(&m.content)),
                Span::styled(changeset, ui.theme.dim()),
            ])
        })
        .collect();
    widgets::list(frame, list_area, items, &state.cursor, block(title, ui), ui);
    if let Some(m) = state.selected() {
        let mut lines = vec![Line::from(crate::output::printable(&m.content))];
        lines.push(Line::from(""));
        let mut meta = format!("added {}", ui.clock.format(m.timestamp_ms));
        if let Some(c) = m.changeset_id {
            meta.push_str(&format!(" by changeset #{c}"));
        }
        lines.push(field("memory", meta, ui));
        if m.pinned {
            lines.push(field(
                "pinned",
                "no change replaces it without your review (P unpins)".to_owned(),
                ui,
            ));
        }
        let attributes = crate::output::attributes_line(&m.attributes);
        if !attributes.is_empty() {
            lines.push(field("about", attributes, ui));
        }
        let title = widgets::keyed_title("Memory", MEMORY_KEYS, app);
        widgets::pane_text(frame, preview_area, lines, &title, app, ui);
    }
}

/// The keys that act on the memory a preview shows.
pub(super) const MEMORY_KEYS: &[(Action, &str)] = &[
    (Action::Open, "lineage"),
    (Action::EditMemory, "change"),
    (Action::DeleteMemory, "delete"),
    (Action::TogglePin, "pin"),
];

/// `[pinned] ` before a pinned memory's text in a list; nothing for the others.
pub(super) fn pin_mark(m: &haema_core::MemoryRecord, ui: &Ui) -> Span<'static> {
    if m.pinned {
        Span::styled("[pinned] ", ui.theme.accent())
    } else {
        Span::raw("")
    }
}
