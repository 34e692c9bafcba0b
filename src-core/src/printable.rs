//! Stored text as every surface shows it: a terminal, a TUI, the desktop, an MCP answer
//! that a client prints. A control character in a memory, an agent's state key or core.md
//! could retitle or clear a terminal (`ESC ] 0 ;`), move its cursor, or, as a carriage
//! return does, make a reviewer read other text than the one stored. The bidirectional
//! overrides and isolates do the same on screen without a terminal ("Trojan Source": text
//! shown in another order than it is stored). Each one is shown as U+FFFD `�` instead; the
//! stored text is never changed.

use std::borrow::Cow;

/// What stands for a control character.
pub const REPLACEMENT: char = '\u{FFFD}';

/// Whether `c` is shown as [`REPLACEMENT`]: C0 controls but line feed and tab, DEL, C1
/// controls, the carriage return (which moves the cursor back over the line), and the
/// bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), which
/// reorder the text after them. The marks of right-to-left writing (U+200E, U+200F,
/// U+061C) stay: they reorder nothing beyond their neighbours.
pub fn is_unprintable(c: char) -> bool {
    (c.is_control() && !matches!(c, '\n' | '\t')) || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
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
/// // "paid" shown reversed after a right-to-left override
/// assert_eq!(printable("un\u{202e}diap"), "un\u{FFFD}diap");
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
        for c in ('\u{202a}'..='\u{202e}').chain('\u{2066}'..='\u{2069}') {
            assert_eq!(printable(&format!("a{c}b")), "a\u{FFFD}b", "U+{:04X}", c as u32);
        }
        assert!(matches!(printable("plain text, ünïcode 東京 😀"), Cow::Borrowed(_)));
        assert!(matches!(printable("שלום\u{200f} عربي\u{61c}"), Cow::Borrowed(_)));
    }
}
