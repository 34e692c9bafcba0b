//! Small drawing helpers shared by the views.

use ratatui::Frame;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, List, ListItem, ListState, Paragraph, Wrap};

use super::Ui;
use crate::tui::action::Action;
use crate::tui::app::{App, Cursor};

/// Text on one line: runs of whitespace (newlines included) become one space, and each
/// control character (a carriage return too) shows as `�` ([`haema_core::printable`]).
pub fn one_line(text: &str) -> String {
    haema_core::printable(text)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// `lines` as the terminal may show them: each control character of their text as `�`
/// (ratatui would drop it silently, and a reviewer would read other text than is stored).
pub fn printable_lines(lines: Vec<Line<'_>>) -> Vec<Line<'_>> {
    lines
        .into_iter()
        .map(|mut line| {
            for span in &mut line.spans {
                if span.content.contains(haema_core::is_unprintable) {
                    span.content = haema_core::printable(&span.content).into_owned().into();
                }
            }
            line
        })
        .collect()
}

/// A bordered block with a title.
pub fn block<'a>(title: impl Into<Line<'a>>, ui: &Ui) -> Block<'a> {
    Block::default()
        .borders(Borders::ALL)
        .border_style(ui.theme.dim())
        .title(title.into().style(ui.theme.accent()))
}

/// A list with the cursor's selection, scrolled to keep it visible.
pub fn list(frame: &mut Frame<'_>, area: Rect, rows: Vec<Line<'_>>, cursor: &Cursor, block: Block<'_>, ui: &Ui) {
    let inner = block.inner(area);
    // A row too long for the list ends with `…`: it never stops mid-word unmarked.
    let items: Vec<ListItem<'_>> = rows
        .into_iter()
        .map(|row| ListItem::new(fit(row, usize::from(inner.width))))
        .collect();
    let inner_height = inner.height as usize;
    let offset = cursor.visible_offset(inner_height);
    let mut state = ListState::default()
        .with_offset(offset)
        .with_selected((!items.is_empty()).then_some(cursor.selected));
    let widget = List::new(items).block(block).highlight_style(ui.theme.selected());
    frame.render_stateful_widget(widget, area, &mut state);
}

/// `line` cut to `width` columns, ending with `…` when it was longer.
pub fn fit(line: Line<'_>, width: usize) -> Line<'_> {
    use unicode_width::UnicodeWidthChar;
    if line.width() <= width || width == 0 {
        return line;
    }
    let room = width - 1;
    let mut used = 0;
    let mut spans = Vec::new();
    for span in line.spans {
        let mut text = String::new();
        for c in span.content.chars() {
            let w = c.width().unwrap_or(0);
            if used + w > room {
                break;
            }
            used += w;
            text.push(c);
        }
        let full = text.len() == span.content.len();
        spans.push(ratatui::text::Span::styled(text, span.style));
        if !full {
            break;
        }
    }
    spans.push(ratatui::text::Span::raw("…"));
    Line::from(spans).style(line.style)
}

/// A paragraph that wraps, scrolled by `scroll` lines.
pub fn text(frame: &mut Frame<'_>, area: Rect, lines: Vec<Line<'_>>, block: Block<'_>, scroll: u16) {
    frame.render_widget(
        Paragraph::new(printable_lines(lines))
            .block(block)
            .wrap(Wrap { trim: false })
            .scroll((scroll, 0)),
        area,
    );
}

/// Text in a bordered window, scrolled to `scroll` but never past its end (the last line
/// stops at the bottom). When the text does not fit, the title says which line is at the
/// top and, with a `hint`, how to see the rest. Returns the furthest scroll the text has.
pub fn scrolled(
    frame: &mut Frame<'_>,
    area: Rect,
    lines: Vec<Line<'_>>,
    title: &str,
    scroll: u16,
    hint: &str,
    ui: &Ui,
) -> u16 {
    let inner = block(String::new(), ui).inner(area);
    let paragraph = Paragraph::new(printable_lines(lines)).wrap(Wrap { trim: false });
    let total = paragraph.line_count(inner.width.max(1));
    let max = u16::try_from(total.saturating_sub(usize::from(inner.height))).unwrap_or(u16::MAX);
    let at = scroll.min(max);
    let window = if max == 0 {
        block(title.to_owned(), ui)
    } else if hint.is_empty() {
        block(format!("{title}· line {} of {total} ", usize::from(at) + 1), ui)
    } else {
        // Where the text is, and how to see the rest, on the bottom border: the top one
        // keeps the keys that act on what it shows.
        let place = format!(" line {} of {total} · {hint} ", usize::from(at) + 1);
        block(title.to_owned(), ui).title_bottom(Line::from(place).style(ui.theme.dim()).right_aligned())
    };
    frame.render_widget(paragraph.block(window).scroll((at, 0)), area);
    max
}

/// The view's text beside its list (a preview, a change's details), scrolled as far as
/// the scroll keys took it; its title says how to see the rest when it does not fit.
pub fn pane_text(frame: &mut Frame<'_>, area: Rect, lines: Vec<Line<'_>>, title: &str, app: &App, ui: &Ui) {
    let hint = format!(
        "{}/{} scroll",
        app.keymap.first_label(Action::ScrollDown),
        app.keymap.first_label(Action::ScrollUp)
    );
    let max = scrolled(frame, area, lines, title, app.pane_scroll, &hint, ui);
    app.pane_max_scroll.set(app.pane_max_scroll.get().max(max));
}

/// ` Memory · enter: lineage · c: change ` — a title with the keys that act on what it
/// shows, as bound (a key rebound in config.toml shows as bound).
pub fn keyed_title(name: &str, keys: &[(Action, &str)], app: &App) -> String {
    let mut title = format!(" {name} ");
    for (action, word) in keys {
        title.push_str(&format!("· {}: {word} ", app.keymap.first_label(*action)));
    }
    title
}

/// A centred window of at most `width` x `height` inside `area`.
pub fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let [row] = Layout::vertical([Constraint::Length(height.min(area.height))])
        .flex(Flex::Center)
        .areas(area);
    let [cell] = Layout::horizontal([Constraint::Length(width.min(area.width))])
        .flex(Flex::Center)
        .areas(row);
    cell
}

/// A message in the middle of an empty area (empty lists, loading).
pub fn placeholder(frame: &mut Frame<'_>, area: Rect, lines: Vec<Line<'_>>, block: Block<'_>) {
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let height = u16::try_from(lines.len()).unwrap_or(u16::MAX);
    let [middle] = Layout::vertical([Constraint::Length(height)])
        .flex(Flex::Center)
        .areas(inner);
    frame.render_widget(
        Paragraph::new(lines)
            .alignment(ratatui::layout::Alignment::Center)
            .wrap(Wrap { trim: true }),
        middle,
    );
}

/// `label: value` with the label dimmed.
pub fn field<'a>(label: &'a str, value: impl Into<String>, ui: &Ui) -> Line<'a> {
    Line::from(vec![
        Span::styled(format!("{label}: "), ui.theme.dim()),
        Span::styled(value.into(), Style::default()),
    ])
}

/// `1,234`.
pub fn thousands(n: usize) -> String {
    haema_core::limits::grouped(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_and_one_line() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(1234), "1,234");
        assert_eq!(thousands(100_000), "100,000");
        assert_eq!(one_line(" a\n b\t c "), "a b c");
        assert_eq!(
            one_line("paid\runpaid \u{1b}]0;x\u{7}"),
            "paid\u{FFFD}unpaid \u{FFFD}]0;x\u{FFFD}"
        );
        let lines = printable_lines(vec![Line::from(vec![Span::raw("a\rb"), Span::raw("ok")])]);
        assert_eq!(lines[0].spans[0].content, "a\u{FFFD}b");
    }
}
