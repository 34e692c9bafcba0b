//! Windows over the view: help, confirmation, add, editors, lineage, changeset details.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};

use super::Ui;
use super::changeset::full_lines;
use super::widgets::{self, block, centered, field};
use crate::tui::app::{App, Overlay};

/// The answer line under a question: only `y` is yes.
pub fn answer_line(yes: &str) -> String {
    format!("y: {yes} · any other key, enter too: no")
}

/// Draws the open window.
pub fn draw(frame: &mut Frame<'_>, area: Rect, app: &App, ui: &Ui) {
    let Some(overlay) = &app.overlay else {
        return;
    };
    let large = centered(
        area,
        area.width.saturating_sub(4).max(20),
        area.height.saturating_sub(2).max(5),
    );
    // A large window hides the view whole: no strip of the view's letters is left beside it.
    if !matches!(overlay, Overlay::Confirm { .. } | Overlay::Add(_)) {
        frame.render_widget(Clear, area);
    }
    match overlay {
        Overlay::Help {
            scroll,
            filter,
            filtering,
        } => {
            frame.render_widget(Clear, large);
            let lines = super::help::lines(&app.keymap, ui, app.view.scope(), filter);
            let title = if *filtering {
                format!(" Keys matching “{filter}▏” · enter keeps · esc drops ")
            } else if filter.is_empty() {
                " Keys · / filters · j/k scroll · esc closes ".to_owned()
            } else {
                format!(" Keys matching “{filter}” · esc shows all ")
            };
            scrolled(frame, large, lines, &title, *scroll, app, ui);
        }
        Overlay::Messages { scroll } => {
            frame.render_widget(Clear, large);
            let mut lines: Vec<Line<'_>> = app
                .messages
                .iter()
                .map(|m| {
                    let style = if m.error { ui.theme.error() } else { ui.theme.text() };
                    let ago = app.now.saturating_duration_since(m.at).as_secs();
                    Line::from(vec![
                        Span::styled(format!("{:>5}  ", ago_words(ago)), ui.theme.dim()),
                        Span::styled(crate::output::printable(&m.text), style),
                    ])
                })
                .collect();
            if lines.is_empty() {
                lines.push(Line::from(Span::styled("No messages yet.", ui.theme.dim())));
            }
            scrolled(
                frame,
                large,
                lines,
                " Messages, newest first · esc closes ",
                *scroll,
                app,
                ui,
            );
        }
        Overlay::Confirm { question, yes, .. } => {
            let width = area.width.saturating_sub(8).clamp(20, 70);
            let answer = answer_line(yes);
            let inner = width.saturating_sub(2);
            let text = vec![
                Line::from(question.as_str()),
                Line::from(""),
                Line::from(Span::styled(answer, ui.theme.warning())),
            ];
            let paragraph = Paragraph::new(text).wrap(Wrap { trim: true });
            let rows = paragraph.line_count(inner.max(1));
            let height = u16::try_from(rows).unwrap_or(5).saturating_add(2).min(area.height);
            let rect = centered(area, width, height);
            frame.render_widget(Clear, rect);
            frame.render_widget(
                paragraph.block(block(" Confirm ", ui).border_style(ui.theme.warning())),
                rect,
            );
        }
        Overlay::Add(area_widget) | Overlay::Editor { area: area_widget, .. } => {
            let rect = if matches!(overlay, Overlay::Add(_)) {
                centered(area, area.width.saturating_sub(6).max(20), 10)
            } else {
                large
            };
            frame.render_widget(Clear, rect);
            frame.render_widget(&**area_widget, rect);
        }
        Overlay::Lineage { lineage, scroll } => {
            frame.render_widget(Clear, large);
            let m = &lineage.memory;
            let mut lines = vec![
                Line::from(crate::output::printable(&m.content)),
                Line::from(""),
                field("status", format!("{:?}", m.status).to_lowercase(), ui),
                field("added", ui.clock.format(m.timestamp_ms), ui),
                field("id", m.id.clone(), ui),
            ];
            let attributes = crate::output::attributes_line(&m.attributes);
            if !attributes.is_empty() {
                lines.push(field("about", attributes, ui));
            }
            lines.push(field("returned", returned(&lineage.access, ui), ui));
            if app.info.as_ref().is_some_and(|i| i.dims > 0) {
                let vector = if m.has_embedding {
                    "made: found by meaning and by words"
                } else {
                    "not made yet: found by words until it is"
                };
                lines.push(field("vector", vector, ui));
            }
            if let Some(origin) = &lineage.origin {
                lines.push(Line::from(""));
                lines.push(Line::from(Span::styled(
                    format!("Made by changeset #{} · {}", origin.id, origin.outcome.describe()),
                    ui.theme.accent(),
                )));
                let input = origin
                    .raw_input
                    .clone()
                    .unwrap_or_else(|| super::changeset::inputs_line(origin));
                lines.push(field("raw input", widgets::one_line(&input), ui));
                let replaced = lineage.replaced();
                if replaced.is_empty() {
                    lines.push(Line::from(Span::styled(
                        "It replaced nothing: it was new.",
                        ui.theme.dim(),
                    )));
                } else {
                    lines.push(Line::from("It replaced:"));
                    for r in replaced {
                        lines.push(Line::from(Span::styled(format!("- {}", r.content), ui.theme.removed())));
                    }
                }
            }
            if let Some(by) = &lineage.replaced_by {
                lines.push(Line::from(""));
                lines.push(Line::from(Span::styled(
                    format!(
                        "Replaced by changeset #{} ({})",
                        by.id,
                        super::changeset::status_text(by)
                    ),
                    ui.theme.accent(),
                )));
                for p in lineage.successors() {
                    lines.push(Line::from(Span::styled(format!("+ {}", p.content), ui.theme.added())));
                }
            }
            scrolled(
                frame,
                large,
                lines,
                " Lineage · j/k scroll · esc closes ",
                *scroll,
                app,
                ui,
            );
        }
        Overlay::NewKey(made) => {
            frame.render_widget(Clear, large);
            let agent = &made.agent;
            let user = agent
                .user_id
                .as_deref()
                .map_or_else(|| "any user".to_owned(), |u| format!("user {u} only"));
            let lines = vec![
                Line::from(format!(
                    "Agent key {}: {} access, {user}, {}.",
                    agent.name,
                    agent.access,
                    agent.state()
                )),
                Line::from(""),
                Line::from(Span::styled(format!("    {}", made.key), ui.theme.accent())),
                Line::from(""),
                Line::from("Copy it now: haema keeps only its hash and cannot show it again."),
                Line::from(Span::styled(
                    "The agent sends it as `Authorization: Bearer …` to `haema mcp --http`.",
                    ui.theme.dim(),
                )),
            ];
            scrolled(
                frame,
                large,
                lines,
                " New agent key · shown once · enter or esc closes ",
                0,
                app,
                ui,
            );
        }
        Overlay::Changeset { changeset, scroll } => {
            frame.render_widget(Clear, large);
            let lines = full_lines(changeset, ui, ui.clock);
            scrolled(
                frame,
                large,
                lines,
                " Changeset · j/k scroll · esc closes ",
                *scroll,
                app,
                ui,
            );
        }
    }
}

/// A window of text scrolled to `scroll`, kept within the text (a scroll key stops at its
/// end).
fn scrolled(frame: &mut Frame<'_>, rect: Rect, lines: Vec<Line<'_>>, title: &str, scroll: u16, app: &App, ui: &Ui) {
    app.overlay_max_scroll
        .set(widgets::scrolled(frame, rect, lines, title, scroll, "", ui));
}

/// A duration in a few characters: `4s`, `3m`, `2h`.
fn ago_words(secs: u64) -> String {
    match secs {
        0..60 => format!("{secs}s"),
        60..3600 => format!("{}m", secs / 60),
        _ => format!("{}h", secs / 3600),
    }
}

/// How often search and recall returned a memory, in words.
fn returned(access: &haema_core::AccessStats, ui: &Ui) -> String {
    match (access.access_count, access.last_accessed_ms) {
        (0, _) | (_, None) => "never by a search or recall yet".to_owned(),
        (1, Some(last)) => format!("once, {}", ui.clock.format(last)),
        (hits, Some(last)) => format!("{hits} times, last {}", ui.clock.format(last)),
    }
}
