//! Text as a person means it, for finding a phrase whatever form it was written in:
//! compatibility-normalised (NFKC: `ＡＤＤＲＥＳＳ` is `ADDRESS`, a combining accent is the
//! precomposed letter), case-folded (`İstanbul` is `istanbul`, `STRASSE` is `straße`),
//! without invisible characters (zero-width spaces, soft hyphens, joiners, bidi controls:
//! [`crate::text::chars::is_invisible`]) and with every run of white space read as one space.
//!
//! [`Folded`] keeps, for each character of the folded text, the bytes of the original it came
//! from, so that what is found in the folded text can be replaced in the original.

use std::ops::Range;

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

use crate::text::chars::is_invisible;

/// A text folded for matching, with the original bytes behind each folded character.
#[derive(Debug, Clone, Default)]
pub(crate) struct Folded {
    /// The folded characters.
    pub(crate) chars: Vec<char>,
    /// For each folded character, the byte range of the original it came from (a whole
    /// base character with its marks and the invisible characters after it).
    pub(crate) spans: Vec<Range<usize>>,
}

/// Continues the cluster before it: a combining mark, an invisible character, or a Hangul
/// vowel or final consonant (composed with the syllable before it by NFKC).
fn continues_cluster(c: char) -> bool {
    is_combining_mark(c) || is_invisible(c) || matches!(c, '\u{1160}'..='\u{11FF}')
}

/// Case folding, one character: lower case, and the full folds lower case lacks.
fn push_case_folded(c: char, out: &mut Vec<char>) {
    match c {
        // Turkish capital I with a dot: the letter i (its lower case adds a combining dot).
        'İ' => out.push('i'),
        'ß' | 'ẞ' => out.extend(['s', 's']),
        'ς' => out.push('σ'),
        _ => out.extend(c.to_lowercase()),
    }
}

/// The folded form of one cluster of the original (a base character with its marks).
fn fold_cluster(cluster: &str, out: &mut Vec<char>) {
    let visible: String = cluster.chars().filter(|c| !is_invisible(*c)).collect();
    let mut cased = Vec::new();
    for c in visible.nfkc() {
        push_case_folded(c, &mut cased);
    }
    out.extend(cased.into_iter().collect::<String>().nfkc());
}

impl Folded {
    /// Folds `text`.
    pub(crate) fn new(text: &str) -> Self {
        if text.is_ascii() {
            return Self::ascii(text);
        }
        let mut folded = Self::default();
        let mut clusters: Vec<Range<usize>> = Vec::new();
        for (at, c) in text.char_indices() {
            let end = at + c.len_utf8();
            match clusters.last_mut() {
                Some(last) if continues_cluster(c) => last.end = end,
                _ => clusters.push(at..end),
            }
        }
        let mut out = Vec::new();
        for span in clusters {
            out.clear();
            fold_cluster(&text[span.clone()], &mut out);
            for c in out.drain(..) {
                if c.is_whitespace() {
                    // A run of white space is one space, whose span covers the whole run.
                    if folded.chars.last() == Some(&' ') {
                        if let Some(last) = folded.spans.last_mut() {
                            last.end = span.end;
                        }
                        continue;
                    }
                    folded.chars.push(' ');
                } else {
                    folded.chars.push(c);
                }
                folded.spans.push(span.clone());
            }
        }
        folded
    }

    /// [`Folded::new`] for ASCII text, where folding is lower case, dropping controls and
    /// collapsing white space: no normalisation or clusters to work out.
    fn ascii(text: &str) -> Self {
        let mut folded = Self {
            chars: Vec::with_capacity(text.len()),
            spans: Vec::with_capacity(text.len()),
        };
        for (at, b) in text.bytes().enumerate() {
            let c = char::from(b);
            let extend = if is_invisible(c) {
                true
            } else if c.is_whitespace() {
                folded.chars.last() == Some(&' ')
            } else {
                false
            };
            if extend {
                if let Some(last) = folded.spans.last_mut() {
                    last.end = at + 1;
                }
                continue;
            }
            folded
                .chars
                .push(if c.is_whitespace() { ' ' } else { c.to_ascii_lowercase() });
            folded.spans.push(at..at + 1);
        }
        folded
    }

    /// The folded text as a string.
    #[cfg(test)]
    pub(crate) fn text(&self) -> String {
        self.chars.iter().collect()
    }
}

/// `text` folded, as a string: what two texts are compared by.
#[cfg(test)]
pub(crate) fn fold(text: &str) -> String {
    Folded::new(text).text()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_text_in_other_forms_folds_alike() {
        for (stored, asked) in [
            ("cafe\u{301}", "café"),
            ("Jo\u{200B}hn Smith", "john smith"),
            ("pass\u{00AD}word", "password"),
            ("John  Smith", "john smith"),
            ("John\u{00A0}\n Smith", "john smith"),
            ("ＡＤＤＲＥＳＳ", "address"),
            ("İstanbul", "istanbul"),
            ("STRASSE", "straße"),
            ("ﬁle", "file"),
            ("ΟΔΟΣ", "οδος"),
        ] {
            assert_eq!(fold(stored), fold(asked), "{stored:?} / {asked:?}");
        }
        assert_ne!(fold("cafe"), fold("café"));
    }

    #[test]
    fn ascii_text_folds_as_the_general_path_does() {
        for text in [
            "Hello  World\t\n!",
            "a\u{7}b\u{1B}[0m c",
            " x ",
            "\u{1}lead",
            "A\u{0B}\u{0C}B",
        ] {
            let fast = Folded::new(text);
            let mut general = Folded::default();
            // The general path, forced: a non-ASCII character appended, then taken off.
            let longer = format!("{text}é");
            let slow = Folded::new(&longer);
            general.chars = slow.chars[..slow.chars.len() - 1].to_vec();
            general.spans = slow.spans[..slow.spans.len() - 1].to_vec();
            assert_eq!(fast.chars, general.chars, "{text:?}");
            assert_eq!(fast.spans, general.spans, "{text:?}");
        }
    }

    #[test]
    fn each_folded_character_points_at_its_original_bytes() {
        let text = "Jo\u{200B}hn  Cafe\u{301}";
        let folded = Folded::new(text);
        assert_eq!(folded.text(), "john café");
        // The zero-width space belongs to the `o` before it; the two spaces are one.
        assert_eq!(&text[folded.spans[1].clone()], "o\u{200B}");
        assert_eq!(&text[folded.spans[4].clone()], "  ");
        assert_eq!(&text[folded.spans[8].clone()], "e\u{301}");
        assert_eq!(folded.chars.len(), folded.spans.len());
    }

    #[test]
    fn invisible_characters_at_the_start_are_dropped() {
        assert_eq!(fold("\u{200B}\u{FEFF}ab"), "ab");
        assert_eq!(fold(""), "");
    }
}
