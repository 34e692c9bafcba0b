//! The tab bar (with the pending badge and the store) and the status line.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use unicode_width::UnicodeWidthStr;

use super::Ui;
use super::widgets::thousands;
use crate::tui::action::Action;
use crate::tui::app::{App, View};

const SPINNER: [&str; 4] = ["|", "/", "-", "\\"];

/// The top line: views, the pending badge, the store.
pub fn tabs(frame: &mut Frame<'_>, area: Rect, app: &App, ui: &Ui) {
    let mut spans = Vec::new();
    let mut hits = Vec::new();
    let mut column: u16 = 0;
    for (i, view) in View::ALL.iter().enumerate() {
        let mut label = format!(" {} {} ", i + 1, view.title());
        if *view == View::Review && app.pending_count() > 0 {
            label = format!(" {} {} ({}) ", i + 1, view.title(), app.pending_count());
        }
        let width = u16::try_from(label.width()).unwrap_or(0);
        hits.push((*view, column, column + width.saturating_sub(1)));
        column += width;
        let style = if *view == app.view {
            ui.theme.accent().add_modifier(ratatui::style::Modifier::REVERSED)
        } else if *view == View::Review && app.pending_count() > 0 {
            ui.theme.warning()
        } else {
            ui.theme.text()
        };
        spans.push(Span::styled(label, style));
    }
    *app.tab_hits.borrow_mut() = hits;
    let name = app.info.as_ref().map_or_else(
        || haema_core::store_name(&app.store_dir.to_string_lossy()),
        |i| i.name.clone(),
    );
    let count = app
        .info
        .as_ref()
        .map(|i| format!(" · {} memories", thousands(i.active)))
        .unwrap_or_default();
    let user = app
        .info
        .as_ref()
        .and_then(|i| i.user.as_deref())
        .map(|u| format!(" · user {}", crate::output::printable(u)))
        .unwrap_or_default();
    // The store's name stays in view: the count goes first, then the user, when the line
    // is narrow.
    let right = [
        format!("{name}{user}{count} "),
        format!("{name}{user} "),
        format!("{name} "),
    ]
    .into_iter()
    .find(|r| column + u16::try_from(r.width()).unwrap_or(u16::MAX) <= area.width)
    .unwrap_or_default();
    let right_width = u16::try_from(right.width()).unwrap_or(0);
    if right.is_empty() {
        frame.render_widget(Paragraph::new(Line::from(spans)), area);
        return;
    }
    let [left_area, right_area] = Layout::horizontal([Constraint::Min(0), Constraint::Length(right_width)]).areas(area);
    frame.render_widget(Paragraph::new(Line::from(spans)), left_area);
    frame.render_widget(Paragraph::new(Span::styled(right, ui.theme.dim())), right_area);
}

/// Key hints for the current view.
fn hints(app: &App) -> Vec<(Action, &'static str)> {
    let mut list = app.pane(app.view).hints();
    if app.undo.is_some() {
        list.insert(0, (Action::Undo, "undo"));
    }
    list.push((Action::Help, "help"));
    list.push((Action::Quit, "quit"));
    list
}

/// The keys of the open window, when one is open.
fn overlay_hints(app: &App) -> Option<&'static [&'static str]> {
    use crate::tui::app::Overlay;
    Some(match app.overlay.as_ref()? {
        Overlay::Help { filtering: true, .. } => &["enter keep", "esc drop"],
        Overlay::Help { .. } => &["/ filter", "j/k scroll", "esc close"],
        Overlay::Messages { .. } | Overlay::Lineage { .. } | Overlay::Changeset { .. } => &["j/k scroll", "esc close"],
        Overlay::Confirm { .. } => &["y yes", "any other key no"],
        Overlay::NewKey(_) => &["copy the key", "enter or esc close"],
        Overlay::Add(_) => &["enter add", "alt-enter new line", "esc keep draft"],
        Overlay::Editor { .. } => &["ctrl-s save", "ctrl-z undo", "esc cancel"],
    })
}

/// The bottom line: work in progress or a message on the left, key hints on the right.
pub fn status(frame: &mut Frame<'_>, area: Rect, app: &App, ui: &Ui) {
    let left = if let Some(busy) = &app.busy {
        let frame_no = usize::try_from(app.ticks % 4).unwrap_or(0);
        let secs = app.now.saturating_duration_since(busy.since).as_secs();
        Line::from(vec![
            Span::styled(format!("{} ", SPINNER[frame_no]), ui.theme.accent()),
            Span::raw(format!("{} ({secs}s)", busy.label)),
        ])
    } else if let Some(status) = &app.status {
        let style = if status.error {
            ui.theme.error()
        } else {
            ui.theme.text()
        };
        // A message too long for the line is cut at a word, and says where the rest is.
        Line::from(Span::styled(
            cut_at_word(&status.text, usize::from(area.width), " … M: whole"),
            style,
        ))
    } else if app.view == View::Search && app.search.editing {
        Line::from(Span::styled(
            "type to search · ↑↓ choose · enter opens · tab: keys for the result · esc leaves",
            ui.theme.dim(),
        ))
    } else {
        Line::default()
    };
    // A window's own keys while it is open: the view's would do nothing.
    let hint_text: Vec<String> = match overlay_hints(app) {
        Some(keys) => keys.iter().map(|k| (*k).to_owned()).collect(),
        None => hints(app)
            .into_iter()
            .map(|(a, word)| format!("{} {word}", app.keymap.first_label(a)))
            .collect(),
    };
    let left_width = left.width();
    let room = usize::from(area.width).saturating_sub(left_width + 2);
    let mut shown = String::new();
    for part in &hint_text {
        let candidate = if shown.is_empty() {
            part.clone()
        } else {
            format!("{shown} · {part}")
        };
        if candidate.width() > room {
            break;
        }
        shown = candidate;
    }
    let shown_width = u16::try_from(shown.width()).unwrap_or(0);
    let [left_area, right_area] = Layout::horizontal([Constraint::Min(0), Constraint::Length(shown_width)]).areas(area);
    frame.render_widget(Paragraph::new(left), left_area);
    frame.render_widget(Paragraph::new(Span::styled(shown, ui.theme.dim())), right_area);
}

/// `text` in at most `width` columns: whole when it fits, else cut after a word and
/// ended with `more`.
pub fn cut_at_word(text: &str, width: usize, more: &str) -> String {
    let text = crate::output::printable(text).replace('\n', " ");
    if text.width() <= width {
        return text;
    }
    let room = width.saturating_sub(more.width());
    let mut out = String::new();
    for word in text.split(' ') {
        let next = if out.is_empty() {
            word.to_owned()
        } else {
            format!("{out} {word}")
        };
        if next.width() > room {
            break;
        }
        out = next;
    }
    if out.is_empty() {
        // One word longer than the line: cut it by characters.
        out = text
            .chars()
            .scan(0, |w, c| {
                *w += unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
                (*w <= room).then_some(c)
            })
            .collect();
    }
    format!("{}{more}", out.trim_end_matches([',', ';', ':']))
}

#[cfg(test)]
mod cut_tests {
    #[test]
    fn a_long_message_is_cut_at_a_word_and_says_where_the_rest_is() {
        let text = "the embedding model is not on this machine: the memory searches by words until `haema model fetch` gets it";
        let cut = super::cut_at_word(text, 60, " … M: whole");
        assert!(cut.ends_with("machine … M: whole") || cut.ends_with("the … M: whole") || cut.ends_with(" … M: whole"));
        assert!(unicode_width::UnicodeWidthStr::width(cut.as_str()) <= 60, "{cut}");
        let words: Vec<&str> = cut.trim_end_matches(" … M: whole").split(' ').collect();
        assert!(
            words.iter().all(|w| text
                .split(' ')
                .any(|t| t.trim_end_matches(':') == w.trim_end_matches(':'))),
            "{cut}"
        );
        assert_eq!(super::cut_at_word("short", 60, " …"), "short");
    }
}
