//! The Core view: the four sections with the selected one highlighted as markdown, or the
//! version history with a diff.

use haema_core::Section;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};

use super::Ui;
use super::changeset::diff_lines;
use super::widgets::{self, block};
use crate::tui::app::{App, CoreMode, CoreState};

/// Draws the view.
pub fn draw(state: &CoreState, frame: &mut Frame<'_>, area: Rect, app: &App, ui: &Ui) {
    match state.mode {
        CoreMode::Sections => sections(state, frame, area, app, ui),
        CoreMode::Versions => versions(state, frame, area, app, ui),
    }
}

fn sections(state: &CoreState, frame: &mut Frame<'_>, area: Rect, app: &App, ui: &Ui) {
    let Some(core) = &state.sections else {
        let lines = vec![Line::from(Span::styled("loading…", ui.theme.dim()))];
        widgets::placeholder(frame, area, lines, block(" Core ", ui));
        return;
    };
    let [list_area, text_area] = Layout::horizontal([Constraint::Length(18), Constraint::Min(10)]).areas(area);
    let items: Vec<Line<'_>> = Section::ALL
        .iter()
        .map(|s| {
            let lines = core.get(*s).lines().filter(|l| !l.trim().is_empty()).count();
            let mut spans = vec![Span::raw(format!("{:<6}", s.name()))];
            spans.push(Span::styled(format!("{lines:>3} ln"), ui.theme.dim()));
            if state.locked.contains(s) {
                spans.push(Span::styled(" L", ui.theme.warning()));
            }
            Line::from(spans)
        })
        .collect();
    widgets::list(frame, list_area, items, &state.cursor, block(" core.md ", ui), ui);
    let section = state.section();
    let text = core.get(section);
    let lock = if state.locked.contains(&section) {
        " · locked: the LLM never changes it"
    } else {
        ""
    };
    let title = format!(" {section}{lock} ");
    let lines = if text.trim().is_empty() {
        vec![Line::from(Span::styled(
            format!("{section} is empty. Press e to write it, E for $EDITOR."),
            ui.theme.dim(),
        ))]
    } else {
        ui.highlighter.markdown(text, ui.theme)
    };
    widgets::pane_text(frame, text_area, lines, &title, app, ui);
}

fn versions(state: &CoreState, frame: &mut Frame<'_>, area: Rect, app: &App, ui: &Ui) {
    if state.versions.is_empty() {
        let lines = vec![Line::from(Span::styled("loading versions…", ui.theme.dim()))];
        widgets::placeholder(frame, area, lines, block(" Versions ", ui));
        return;
    }
    let list_width = if area.width >= 100 { 42 } else { 36 };
    let [list_area, diff_area] = Layout::horizontal([Constraint::Length(list_width), Constraint::Min(10)]).areas(area);
    let items: Vec<Line<'_>> = state
        .versions
        .iter()
        .map(|v| {
            let mark = if state.mark == Some(v.id) { "*" } else { " " };
            let by = v.changeset_id.map(|c| format!(" #{c}")).unwrap_or_default();
            Line::from(vec![
                Span::styled(mark, ui.theme.warning()),
                Span::raw(format!("v{:<4}", v.id)),
                Span::styled(format!("{} ", ui.clock.format(v.created_at_ms)), ui.theme.dim()),
                Span::raw(format!("{}{by}", v.author)),
            ])
        })
        .collect();
    let title = format!(" Versions · {} ", state.versions.len());
    widgets::list(frame, list_area, items, &state.version_cursor, block(title, ui), ui);
    let Some((old, new)) = state.compared() else {
        return;
    };
    let (title, lines) = match old {
        Some(old) => (
            format!(" v{} → v{} ", old.id, new.id),
            diff_lines(&old.content, &new.content, ui),
        ),
        None => (
            format!(" v{} (first version) ", new.id),
            ui.highlighter.markdown(&new.content, ui.theme),
        ),
    };
    widgets::pane_text(frame, diff_area, lines, &title, app, ui);
}
