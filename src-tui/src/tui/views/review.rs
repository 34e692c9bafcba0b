//! The Review view: the changesets waiting for a decision and, for the selected one, what
//! it replaces next to what it proposes, and the core.md diff.

use haema_core::{ChangesetStatus, ChangesetSummary, PendingForget};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};

use super::Ui;
use super::changeset::{core_lines, proposed_lines, related_lines, summary};
use super::widgets::{self, block};
use crate::tui::action::Action;
use crate::tui::app::{App, ReviewState};

/// Draws the view.
pub fn draw(state: &ReviewState, frame: &mut Frame<'_>, area: Rect, app: &App, ui: &Ui) {
    // Captured conversations an LLM has yet to read are said here, where their changes will be.
    let captured = app.info.as_ref().and_then(|i| i.status().captured);
    if state.items.is_empty() {
        let lines = if state.loaded {
            let mut lines = vec![
                Line::from("Nothing waits for review."),
                Line::from(""),
                Line::from(Span::styled(
                    "Changes the LLM proposes under the `review` or `guarded` policy appear here.",
                    ui.theme.dim(),
                )),
            ];
            if let Some(captured) = captured {
                // A line for each part of the sentence (the view does not wrap).
                lines.push(Line::from(""));
                for part in captured.split(": ").flat_map(|p| p.split("; ")) {
                    lines.push(Line::from(Span::styled(part.to_owned(), ui.theme.warning())));
                }
            }
            lines
        } else {
            vec![Line::from(Span::styled("loading…", ui.theme.dim()))]
        };
        widgets::placeholder(frame, area, lines, block(" Review ", ui));
        return;
    }
    let list_height = u16::try_from(state.items.len()).unwrap_or(u16::MAX).clamp(1, 5) + 2;
    let [list_area, detail_area] = Layout::vertical([Constraint::Length(list_height), Constraint::Min(4)]).areas(area);
    let items: Vec<Line<'_>> = state
        .items
        .iter()
        .map(|cs| {
            let tag = match cs.status {
                ChangesetStatus::Stale => Span::styled("stale   ", ui.theme.warning()),
                _ => Span::styled("pending ", ui.theme.dim()),
            };
            Line::from(vec![
                Span::styled(format!("#{:<5}", cs.id), ui.theme.dim()),
                tag,
                Span::styled(format!("{}  ", ui.clock.format(cs.created_at_ms)), ui.theme.dim()),
                Span::raw(match state.forget_of(cs.id) {
                    Some(forget) => forget.summary(),
                    None => summary(&ChangesetSummary::from(cs)),
                }),
            ])
        })
        .collect();
    let title = match app.info.as_ref().map_or(0, |i| i.captures_waiting) {
        0 => format!(" Review · {} waiting ", state.items.len()),
        n => format!(
            " Review · {} waiting · {n} captured, waiting for an AI ",
            state.items.len()
        ),
    };
    widgets::list(frame, list_area, items, &state.cursor, block(title, ui), ui);
    let Some(cs) = state.selected() else {
        return;
    };
    if let Some(forget) = state.forget_of(cs.id) {
        let title = format!(" If approved now · {} forgets ", app.keymap.label(Action::Approve));
        widgets::pane_text(frame, detail_area, forget_lines(forget, ui), &title, app, ui);
        return;
    }
    let core = core_lines(cs, ui);
    let (sides_area, core_area) = if core.is_empty() {
        (detail_area, None)
    } else {
        let core_height = (u16::try_from(core.len()).unwrap_or(u16::MAX) + 2).min(detail_area.height / 2);
        let [s, c] = Layout::vertical([Constraint::Min(4), Constraint::Length(core_height)]).areas(detail_area);
        (s, Some(c))
    };
    let [left, right] = if sides_area.width >= 70 {
        Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(sides_area)
    } else {
        Layout::vertical([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(sides_area)
    };
    let mut left_lines = Vec::new();
    if let Some(agent) = &cs.agent_key {
        left_lines.push(Line::from(Span::styled(
            format!("proposed by agent key {agent}"),
            ui.theme.accent(),
        )));
    }
    if cs.status == ChangesetStatus::Stale {
        left_lines.push(Line::from(Span::styled(
            format!(
                "stale: {}. {} re-runs it.",
                haema_core::STALE_MEANING,
                app.keymap.label(Action::Rerun)
            ),
            ui.theme.warning(),
        )));
    }
    for w in &cs.warnings {
        left_lines.push(Line::from(Span::styled(format!("! {w}"), ui.theme.warning())));
    }
    left_lines.extend(related_lines(cs, ui));
    widgets::pane_text(frame, left, left_lines, " Replaces ", app, ui);
    let title = format!(" Proposed · {} ", cs.outcome.describe());
    widgets::pane_text(frame, right, proposed_lines(cs, ui), &title, app, ui);
    if let Some(core_area) = core_area {
        widgets::pane_text(frame, core_area, core, " core.md ", app, ui);
    }
}

/// What approving an agent's forget request would remove now: the phrase, the memories,
/// the agent state keys removed whole, what else is blanked, and what it cannot reach.
fn forget_lines(forget: &PendingForget, ui: &Ui) -> Vec<Line<'static>> {
    let plan = &forget.plan;
    let mut lines = vec![match &forget.mentioning {
        Some(phrase) => Line::from(vec![
            Span::raw("An agent asks to forget everything that mentions “"),
            Span::styled(phrase.clone(), ui.theme.removed()),
            Span::raw("”, and to blank it wherever it is written."),
        ]),
        None => Line::from(format!(
            "An agent asks to forget {} memories by id, with the older ones they were built from.",
            forget.memory_ids.len()
        )),
    }];
    lines.push(Line::from(""));
    lines.push(Line::from(format!("{} memories forgotten:", plan.memories.len())));
    for m in plan.memories.iter().take(SHOWN) {
        lines.push(Line::from(Span::styled(format!("- {}", m.content), ui.theme.removed())));
    }
    if plan.memories.len() > SHOWN {
        lines.push(Line::from(Span::styled(
            format!("… and {} more", plan.memories.len() - SHOWN),
            ui.theme.dim(),
        )));
    }
    if !plan.agent_state_removed.is_empty() {
        lines.push(Line::from(format!(
            "{} agent state keys removed whole, with their history (the agent or the key is named by it):",
            plan.agent_state_removed.len()
        )));
        for k in &plan.agent_state_removed {
            lines.push(Line::from(Span::styled(
                format!("- agent {}  key {}", k.agent_id, k.key),
                ui.theme.removed(),
            )));
        }
    }
    lines.push(Line::from(format!(
        "Blanked or removed: {} agent state entries (now or in their history), {} earlier changes, {} core.md versions.",
        plan.agent_state, plan.changesets, plan.core_versions
    )));
    lines.push(Line::from(Span::styled(
        "Copies outside the store (exports, backups) still hold the text. This cannot be undone.",
        ui.theme.warning(),
    )));
    lines
}

/// Memories listed before `… and N more`.
const SHOWN: usize = 8;
