//! The History view (every changeset) and the Stores view.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::Ui;
use super::changeset::{change_words, summary, summary_status as status_text};
use super::widgets::{self, block, field, thousands};
use crate::tui::action::Action;
use crate::tui::app::{App, HistoryState, StoresState};

/// Draws the History view.
pub fn history(state: &HistoryState, frame: &mut Frame<'_>, area: Rect, app: &App, ui: &Ui) {
    if state.items.is_empty() {
        let text = if state.loaded {
            "No changesets yet."
        } else {
            "loading…"
        };
        widgets::placeholder(frame, area, vec![Line::from(text)], block(" History ", ui));
        return;
    }
    let more = if state.exhausted { "" } else { "+" };
    let title = format!(" History · {}{more} ", state.items.len());
    let preview_height = (area.height / 3).clamp(5, 9);
    let [list_area, preview_area] =
        Layout::vertical([Constraint::Min(3), Constraint::Length(preview_height)]).areas(area);
    let items: Vec<Line<'_>> = state
        .items
        .iter()
        .map(|cs| {
            Line::from(vec![
                Span::styled(format!("#{:<5}", cs.id), ui.theme.dim()),
                Span::raw(format!("{:<18} ", status_text(cs))),
                // When it was decided (an approval made now reads now), else proposed.
                Span::styled(
                    format!("{}  ", ui.clock.format(cs.decided_at_ms.unwrap_or(cs.created_at_ms))),
                    ui.theme.dim(),
                ),
                Span::raw(summary(cs)),
            ])
        })
        .collect();
    widgets::list(frame, list_area, items, &state.cursor, block(title, ui), ui);
    if let Some(cs) = state.selected() {
        let mut lines = vec![
            field("status", status_text(cs), ui),
            field("when", when_words(cs, ui), ui),
            field("how", cs.outcome.describe(), ui),
            field("changes", change_words(cs), ui),
        ];
        if let Some(agent) = &cs.agent_key {
            lines.push(field("agent key", agent.clone(), ui));
        }
        if let Some(r) = cs.reverts_id {
            lines.push(field("reverts", format!("#{r}"), ui));
        }
        if let Some(r) = cs.reverted_by_id {
            lines.push(field("reverted by", format!("#{r}"), ui));
        }
        let title = widgets::keyed_title(
            "Changeset",
            &[(Action::Open, "details"), (Action::Revert, "revert")],
            app,
        );
        widgets::pane_text(frame, preview_area, lines, &title, app, ui);
    }
}

/// When a change was decided and, if it was, proposed: "decided 11:05 · proposed 11:01".
fn when_words(cs: &haema_core::ChangesetSummary, ui: &Ui) -> String {
    let proposed = ui.clock.format(cs.created_at_ms);
    match cs.decided_at_ms {
        Some(at) => format!("decided {} · proposed {proposed}", ui.clock.format(at)),
        None => format!("proposed {proposed}"),
    }
}

/// Draws the Stores view.
pub fn stores(state: &StoresState, frame: &mut Frame<'_>, area: Rect, app: &App, ui: &Ui) {
    let (list_area, input_area) = if state.new_name.is_some() {
        let [l, i] = Layout::vertical([Constraint::Min(3), Constraint::Length(3)]).areas(area);
        (l, Some(i))
    } else {
        (area, None)
    };
    let title = format!(" Stores in {} ", app.stores_root().display());
    if state.items.is_empty() {
        let text = if state.loaded { "No stores found." } else { "loading…" };
        widgets::placeholder(frame, list_area, vec![Line::from(text)], block(title, ui));
    } else {
        let items: Vec<Line<'_>> = state
            .items
            .iter()
            .map(|s| {
                let name = match &s.info {
                    Ok(info) => info.name.clone(),
                    Err(_) => haema_core::store_name(&s.dir.to_string_lossy()),
                };
                let open = if s.dir == app.store_dir { " (open)" } else { "" };
                let detail = match &s.info {
                    // What a person tells stores apart by: how many memories, and what
                    // waits for them (the search model is only known once a store is open).
                    Ok(info) => Span::styled(
                        match info.pending_changesets {
                            0 => format!("{} memories", thousands(info.active)),
                            n => format!("{} memories · {n} waiting for review", thousands(info.active)),
                        },
                        ui.theme.dim(),
                    ),
                    Err(e) => Span::styled(format!("cannot open: {e}"), ui.theme.error()),
                };
                Line::from(vec![
                    Span::styled(format!("{name}{open}"), ui.theme.accent()),
                    Span::raw("  "),
                    detail,
                ])
            })
            .collect();
        widgets::list(frame, list_area, items, &state.cursor, block(title, ui), ui);
    }
    if let (Some(area), Some(input)) = (input_area, &state.new_name) {
        let b = block(" New store name · enter creates and opens · esc cancels ", ui);
        let inner = b.inner(area);
        frame.render_widget(Paragraph::new(format!("> {}", input.text())).block(b), area);
        let before: String = input.text().chars().take(input.cursor()).collect();
        let x = u16::try_from(unicode_width::UnicodeWidthStr::width(before.as_str()) + 2).unwrap_or(0);
        frame.set_cursor_position((inner.x + x.min(inner.width.saturating_sub(1)), inner.y));
    }
}
