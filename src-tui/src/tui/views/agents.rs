//! The Agents view: every agent key with its access, user, state and last use; the
//! selected key's details and keys; the new key's line while it is typed.

use haema_core::AgentAccess;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::Ui;
use super::widgets::{self, block, field};
use crate::tui::action::Action;
use crate::tui::app::{AgentsState, App, NEW_KEY_HINT};

/// What an access lets an agent do, in a few words.
fn access_words(access: AgentAccess) -> &'static str {
    match access {
        AgentAccess::Read => "search and read only",
        AgentAccess::Propose => "every change waits for your review",
        AgentAccess::Write => "changes follow the review policy",
    }
}

/// Draws the Agents view.
pub fn agents(state: &AgentsState, frame: &mut Frame<'_>, area: Rect, app: &App, ui: &Ui) {
    let (main_area, input_area) = if state.new_key.is_some() {
        let [m, i] = Layout::vertical([Constraint::Min(3), Constraint::Length(3)]).areas(area);
        (m, Some(i))
    } else {
        (area, None)
    };
    let new_key = app.keymap.label(Action::NewKey);
    if state.items.is_empty() {
        let lines = if state.loaded {
            vec![
                Line::from("No agent keys yet."),
                Line::from(""),
                Line::from(Span::styled(
                    format!(
                        "An agent on another machine reaches this store through `haema mcp --http` with a key. {new_key} makes one."
                    ),
                    ui.theme.dim(),
                )),
            ]
        } else {
            vec![Line::from(Span::styled("loading…", ui.theme.dim()))]
        };
        widgets::placeholder(frame, main_area, lines, block(" Agents ", ui));
    } else {
        let preview_height = (main_area.height / 3).clamp(5, 9);
        let [list_area, preview_area] =
            Layout::vertical([Constraint::Min(3), Constraint::Length(preview_height)]).areas(main_area);
        let items: Vec<Line<'_>> = state
            .items
            .iter()
            .map(|key| {
                let state_style = if key.usable() { ui.theme.text() } else { ui.theme.dim() };
                Line::from(vec![
                    Span::styled(format!("{:<18} ", key.name), ui.theme.accent()),
                    Span::raw(format!("{:<8} ", key.access.as_str())),
                    Span::styled(
                        format!("{:<12} ", key.user_id.as_deref().unwrap_or("any user")),
                        ui.theme.dim(),
                    ),
                    Span::styled(format!("{:<16} ", short_state(key)), state_style),
                    Span::styled(
                        key.last_used_ms
                            .map_or_else(|| "never used".to_owned(), |at| format!("used {}", ui.clock.format(at))),
                        ui.theme.dim(),
                    ),
                ])
            })
            .collect();
        let title = format!(" Agents · {} keys ", state.items.len());
        widgets::list(frame, list_area, items, &state.cursor, block(title, ui), ui);
        if let Some(key) = state.selected() {
            let lines = vec![
                field("access", format!("{}: {}", key.access, access_words(key.access)), ui),
                field(
                    "user",
                    key.user_id.as_deref().map_or_else(
                        || "any (an agent names the user on each call)".to_owned(),
                        |u| format!("{u} only"),
                    ),
                    ui,
                ),
                field("state", key.state(), ui),
                field("made", ui.clock.format(key.created_at_ms), ui),
                field("its changes", format!("haema history --agent-key {}", key.name), ui),
            ];
            let title = widgets::keyed_title(
                "Key",
                &[
                    (Action::RevokeKey, "revoke"),
                    (Action::RotateKey, "rotate"),
                    (Action::UndoAgent, "undo its changes"),
                ],
                app,
            );
            widgets::pane_text(frame, preview_area, lines, &title, app, ui);
        }
    }
    if let (Some(area), Some(input)) = (input_area, &state.new_key) {
        let b = block(" New agent key · enter makes it · esc cancels ", ui);
        let inner = b.inner(area);
        let text = if input.text().is_empty() {
            Line::from(vec![Span::raw("> "), Span::styled(NEW_KEY_HINT, ui.theme.dim())])
        } else {
            Line::from(format!("> {}", input.text()))
        };
        frame.render_widget(Paragraph::new(text).block(b), area);
        let before: String = input.text().chars().take(input.cursor()).collect();
        let x = u16::try_from(unicode_width::UnicodeWidthStr::width(before.as_str()) + 2).unwrap_or(0);
        frame.set_cursor_position((inner.x + x.min(inner.width.saturating_sub(1)), inner.y));
    }
}

/// The state in a list column: `active`, `expires 2027-01-31`, `revoked`, `expired`.
fn short_state(key: &haema_core::AgentKey) -> String {
    match (key.revoked_at_ms, key.expires_at_ms) {
        (Some(_), _) => "revoked".into(),
        (None, Some(_)) if !key.usable() => "expired".into(),
        (None, Some(at)) => format!(
            "until {}",
            haema_core::format_utc(at).chars().take(10).collect::<String>()
        ),
        (None, None) => "active".into(),
    }
}
