//! The Search view: the query, hits with their scores and signals, and a preview of the
//! selected hit or the recall block an agent would get.

use haema_core::{FoundBy, RecallReason};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::Ui;
use super::widgets::{self, block, field, one_line};
use crate::tui::action::Action;
use crate::tui::app::{App, SearchState};

fn found_by(found: FoundBy) -> &'static str {
    match found {
        FoundBy::Vector => "vec",
        FoundBy::Lexical => "text",
        FoundBy::Both => "both",
    }
}

/// Draws the view.
pub fn draw(state: &SearchState, frame: &mut Frame<'_>, area: Rect, app: &App, ui: &Ui) {
    let [query_area, rest] = Layout::vertical([Constraint::Length(3), Constraint::Min(3)]).areas(area);
    let mode = format!(
        " Search · mode: {} ({}) ",
        state.mode.as_str(),
        app.keymap.first_label(Action::CycleMode)
    );
    let query_block = if state.editing {
        block(mode, ui).border_style(ui.theme.accent())
    } else {
        block(mode, ui)
    };
    let inner = query_block.inner(query_area);
    let query_line = if state.query.text().is_empty() && !state.editing {
        Line::from(Span::styled("press / and type what to look for", ui.theme.dim()))
    } else {
        Line::from(format!("> {}", state.query.text()))
    };
    frame.render_widget(Paragraph::new(query_line).block(query_block), query_area);
    if state.editing {
        let column = u16::try_from(state.query.cursor() + 2).unwrap_or(0);
        let before: String = state.query.text().chars().take(state.query.cursor()).collect();
        let width = u16::try_from(unicode_width::UnicodeWidthStr::width(before.as_str()) + 2).unwrap_or(column);
        frame.set_cursor_position(Position::new(
            inner.x + width.min(inner.width.saturating_sub(1)),
            inner.y,
        ));
    }

    let (list_area, preview_area) = if rest.width >= 100 {
        let [l, p] = Layout::horizontal([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(rest);
        (l, p)
    } else {
        let preview = (rest.height / 3).clamp(4, 10);
        let [l, p] = Layout::vertical([Constraint::Min(3), Constraint::Length(preview)]).areas(rest);
        (l, p)
    };
    // The profile's matching lines above the hits: what the assistant is always told.
    let list_area = if state.profile.is_empty() {
        list_area
    } else {
        let height = u16::try_from(state.profile.len()).unwrap_or(4) + 2;
        let [profile_area, rest] = Layout::vertical([Constraint::Length(height), Constraint::Min(3)]).areas(list_area);
        profile(state, frame, profile_area, ui);
        rest
    };
    hits(state, frame, list_area, ui);
    if state.show_recall {
        recall(state, frame, preview_area, app, ui);
    } else {
        preview(state, frame, preview_area, app, ui);
    }
}

fn profile(state: &SearchState, frame: &mut Frame<'_>, area: Rect, ui: &Ui) {
    let width = usize::from(area.width.saturating_sub(2));
    let lines: Vec<Line<'_>> = state
        .profile
        .iter()
        .map(|l| {
            widgets::fit(
                Line::from(vec![
                    Span::styled(format!("{:<6}", l.section.name()), ui.theme.dim()),
                    Span::raw(without_emphasis(&one_line(&l.text))),
                ]),
                width,
            )
        })
        .collect();
    widgets::text(frame, area, lines, block(" In the profile (always told) ", ui), 0);
}

/// A profile line as read: `**bold**`, `__bold__` and `` `code` `` marks dropped when
/// they come in pairs (a lone `*` or `_` stays, as in `snake_case` or `2 * 3`).
fn without_emphasis(text: &str) -> String {
    let mut out = text.to_owned();
    for mark in ["**", "__", "`"] {
        if out.matches(mark).count() >= 2 && out.matches(mark).count() % 2 == 0 {
            out = out.replace(mark, "");
        }
    }
    out
}

fn hits(state: &SearchState, frame: &mut Frame<'_>, area: Rect, ui: &Ui) {
    let Some(ran) = state.ran else {
        let text = if state.searching {
            "searching…"
        } else {
            "Results appear as you type."
        };
        widgets::placeholder(
            frame,
            area,
            vec![Line::from(Span::styled(text, ui.theme.dim()))],
            block(" Hits ", ui),
        );
        return;
    };
    let title = format!(
        " Hits · {} · ran {}{} ",
        state.hits.items.len(),
        ran.as_str(),
        if state.searching { " · searching…" } else { "" }
    );
    if state.hits.items.is_empty() {
        let lines = vec![
            Line::from("Nothing found."),
            Line::from(Span::styled("Try other words, or another mode (m).", ui.theme.dim())),
        ];
        widgets::placeholder(frame, area, lines, block(title, ui));
        return;
    }
    let items: Vec<Line<'_>> = state
        .hits
        .items
        .iter()
        .map(|h| {
            Line::from(vec![
                Span::styled(format!("{:>6.3} {:<4} ", h.score, found_by(h.found_by)), ui.theme.dim()),
                super::latest::pin_mark(&h.memory, ui),
                Span::raw(one_line(&h.memory.content)),
            ])
        })
        .collect();
    // The focus shows: keys are commands on the selected result only when the results
    // have it (the border lights up and the title says so).
    let hits_block = if state.editing {
        block(title, ui)
    } else {
        block(format!("{}· keys act on the selected one ", title), ui).border_style(ui.theme.accent())
    };
    widgets::list(frame, area, items, &state.hits.cursor, hits_block, ui);
}

fn preview(state: &SearchState, frame: &mut Frame<'_>, area: Rect, app: &App, ui: &Ui) {
    let Some(hit) = state.selected() else {
        let title = widgets::keyed_title("Preview", &[(Action::ToggleRecall, "recall preview")], app);
        widgets::text(frame, area, Vec::new(), block(title, ui), 0);
        return;
    };
    let mut lines = vec![
        Line::from(crate::output::printable(&hit.memory.content)),
        Line::from(""),
    ];
    lines.push(field(
        "score",
        format!("{:.4} (found by {})", hit.score, found_by(hit.found_by)),
        ui,
    ));
    if let Some(d) = hit.distance {
        lines.push(field("cosine distance", format!("{d:.4}"), ui));
    }
    if let Some(b) = hit.bm25 {
        lines.push(field("bm25", format!("{b:.3}"), ui));
    }
    lines.push(field("added", ui.clock.format(hit.memory.timestamp_ms), ui));
    if hit.memory.pinned {
        lines.push(field(
            "pinned",
            "no change replaces it without your review (P unpins)".to_owned(),
            ui,
        ));
    }
    let attributes = crate::output::attributes_line(&hit.memory.attributes);
    if !attributes.is_empty() {
        lines.push(field("about", attributes, ui));
    }
    let mut keys = super::latest::MEMORY_KEYS.to_vec();
    keys.push((Action::ToggleRecall, "recall"));
    let title = widgets::keyed_title("Preview", &keys, app);
    widgets::pane_text(frame, area, lines, &title, app, ui);
}

fn recall(state: &SearchState, frame: &mut Frame<'_>, area: Rect, app: &App, ui: &Ui) {
    let Some(recall) = &state.recall else {
        let lines = vec![Line::from(Span::styled("building the recall block…", ui.theme.dim()))];
        widgets::text(frame, area, lines, block(" Recall preview ", ui), 0);
        return;
    };
    let title = format!(" Recall preview · {} / {} tokens ", recall.tokens, recall.budget);
    let mut lines: Vec<Line<'_>> = recall.text.lines().map(|l| Line::from(l.to_owned())).collect();
    lines.push(Line::from(""));
    let count = |r: RecallReason| recall.items.iter().filter(|i| i.reason == r).count();
    lines.push(Line::from(Span::styled(
        format!(
            "core {} · latest {} · relevant {} · sanitised {} · flagged {} · cut {} (>{} chars)",
            count(RecallReason::Core),
            count(RecallReason::Latest),
            count(RecallReason::Relevant),
            recall.items.iter().filter(|i| i.sanitized).count(),
            recall.items.iter().filter(|i| !i.flags.is_empty()).count(),
            recall.items.iter().filter(|i| i.truncated).count(),
            recall.max_chars
        ),
        ui.theme.dim(),
    )));
    widgets::pane_text(frame, area, lines, &title, app, ui);
}

#[cfg(test)]
mod tests {
    #[test]
    fn profile_lines_read_without_their_emphasis_marks() {
        use super::without_emphasis as w;
        assert_eq!(
            w("Black coffee, **green tea** after lunch"),
            "Black coffee, green tea after lunch"
        );
        assert_eq!(
            w("`calendar`: read and create events"),
            "calendar: read and create events"
        );
        assert_eq!(w("snake_case and 2 * 3"), "snake_case and 2 * 3");
        assert_eq!(w("a lone ** stays"), "a lone ** stays");
    }
}
