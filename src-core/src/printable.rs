//! Stored text as every surface shows it: a terminal, a TUI, the desktop, an MCP answer
//! that a client prints. A control character in a memory, an agent's state key or core.md
//! could retitle or clear a terminal (`ESC ] 0 ;`), move its cursor, or, as a carriage
//! return does, make a reviewer read other text than the one stored. Each one is shown as
//! U+FFFD `�` instead; the stored text is never changed.

use std::borrow::Cow;

/// What stands for a control character.
pub const REPLACEMENT: char = '\u{FFFD}';

/// Whether `c` is shown as [`REPLACEMENT`]: C0 controls but line feed and tab, DEL, C1
/// controls, and the carriage return (which moves the cursor back over the line).
pub fn is_unprintable(c: char) -> bool {
    c.is_control() && !matches!(c, '\n' | '\t')
}

/// `text` with each control character (see [`is_unprintable`]) shown as `�`; line feeds
/// and tabs stay. Borrowed when there is nothing to replace.
///
/// ```
/// use haema_core::printable;
/// assert_eq!(printable("k\u{1b}]0;PWNED\u{7}"), "k\u{FFFD}]0;PWNED\u{FFFD}");
/// assert_eq!(printable("paid\runpaid"), "paid\u{FFFD}unpaid");
/// assert_eq!(printable("two\nlines\tand a tab"), "two\nlines\tand a tab");
/// assert_eq!(printable("\u{9b}31m \u{7f}"), "\u{FFFD}31m \u{FFFD}");
/// ```
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.contains(is_unprintable) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| if is_unprintable(c) { REPLACEMENT } else { c })
            .collect(),
    )
}

/// [`printable`] on one line: each line feed and tab is a space too (lists, one-line
/// fields, the title of a window).
///
/// ```
/// assert_eq!(haema_core::printable_line("a\nb\r\tc"), "a b\u{FFFD} c");
/// ```
pub fn printable_line(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\n' | '\t' => ' ',
            c if is_unprintable(c) => REPLACEMENT,
            c => c,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_control_character_is_replaced_but_line_feed_and_tab() {
        for c in (0u32..0x20).chain([0x7f]).chain(0x80..0xa0).filter_map(char::from_u32) {
            let shown = printable(&format!("a{c}b")).into_owned();
            if matches!(c, '\n' | '\t') {
                assert_eq!(shown, format!("a{c}b"));
            } else {
                assert_eq!(shown, "a\u{FFFD}b", "U+{:04X}", c as u32);
            }
        }
        assert!(matches!(printable("plain text, ünïcode 東京 😀"), Cow::Borrowed(_)));
    }
}
