//! A phrase found in texts as a person means it: in any form ([`super::fold`]) and as whole
//! words, so that forgetting "Ann" finds "ANN" and "Ann's" but leaves "planning" alone.
//!
//! Whole words: where the phrase begins or ends with a letter or digit, the text next to it
//! must not be one, but for an English plural ending (`s`, `es`), which belongs to the match. Scripts written without spaces between words (Chinese, Japanese, Thai, …) and Korean
//! (whose particles join the word before them) match anywhere.

use std::ops::Range;

use super::fold::Folded;

/// Fewest letters or digits a phrase needs (a character of a script without spaces counts
/// two): shorter ones match inside too many words to mean anything.
pub(crate) const MIN_PHRASE_WEIGHT: usize = 3;

/// A phrase, folded, to find as whole words.
#[derive(Debug, Clone)]
pub(crate) struct Phrase {
    chars: Vec<char>,
}

/// Written without spaces between words, or with particles joined to words.
fn unspaced_script(c: char) -> bool {
    matches!(c,
        '\u{0E00}'..='\u{0EFF}'     // Thai, Lao
        | '\u{1000}'..='\u{109F}'   // Myanmar
        | '\u{1780}'..='\u{17FF}'   // Khmer
        | '\u{3040}'..='\u{30FF}'   // Hiragana, Katakana
        | '\u{3400}'..='\u{4DBF}'   // CJK extension A
        | '\u{4E00}'..='\u{9FFF}'   // CJK ideographs
        | '\u{AC00}'..='\u{D7AF}'   // Hangul syllables
        | '\u{F900}'..='\u{FAFF}'   // CJK compatibility ideographs
        | '\u{20000}'..='\u{2FA1F}' // CJK extensions B and after
    )
}

/// A letter or digit of a script that separates words with spaces.
fn word_char(c: char) -> bool {
    c.is_alphanumeric() && !unspaced_script(c)
}

impl Phrase {
    /// The phrase `text` folded and trimmed; `None` when nothing is left.
    pub(crate) fn new(text: &str) -> Option<Self> {
        let folded = Folded::new(text.trim()).chars;
        let start = folded.iter().position(|c| *c != ' ')?;
        let end = folded.iter().rposition(|c| *c != ' ').map_or(start, |e| e + 1);
        Some(Self {
            chars: folded[start..end].to_vec(),
        })
    }

    /// How much the phrase says: its letters and digits, a character of a script without
    /// spaces counting two.
    pub(crate) fn weight(&self) -> usize {
        self.chars
            .iter()
            .filter(|c| c.is_alphanumeric())
            .map(|c| if unspaced_script(*c) { 2 } else { 1 })
            .sum()
    }

    /// The folded characters, as text (to look for many phrases at once).
    pub(crate) fn folded_text(&self) -> String {
        self.chars.iter().collect()
    }

    /// The end of the phrase found at character `start` of a folded text (`hay`) when it
    /// is there as whole words (a plural ending taken in), else `None`.
    pub(crate) fn whole_at(&self, hay: &[char], start: usize) -> Option<usize> {
        let end = start + self.chars.len();
        (hay.get(start..end) == Some(&self.chars[..])).then_some(())?;
        self.whole_word(hay, start, end)
    }

    /// Whether `text` holds the phrase.
    pub(crate) fn is_in(&self, text: &str) -> bool {
        !self.find(&Folded::new(text)).is_empty()
    }

    /// Where the phrase is in `text`, as byte ranges of the original, in order and apart.
    #[cfg(test)]
    pub(crate) fn find_in(&self, text: &str) -> Vec<Range<usize>> {
        self.find_in_folded(&Folded::new(text))
    }

    /// Where the phrase is in a text folded once for several phrases ([`Folded::new`]), as
    /// byte ranges of the original, in order and apart.
    pub(crate) fn find_in_folded(&self, folded: &Folded) -> Vec<Range<usize>> {
        let mut ranges: Vec<Range<usize>> = Vec::new();
        for found in self.find(folded) {
            let bytes = folded.spans[found.start].start..folded.spans[found.end - 1].end;
            match ranges.last_mut() {
                Some(last) if bytes.start < last.end => last.end = last.end.max(bytes.end),
                _ => ranges.push(bytes),
            }
        }
        ranges
    }

    /// Where the phrase is in a folded text, as ranges of its characters.
    fn find(&self, text: &Folded) -> Vec<Range<usize>> {
        let (hay, needle) = (&text.chars, &self.chars);
        let mut found = Vec::new();
        if needle.is_empty() || hay.len() < needle.len() {
            return found;
        }
        let mut at = 0;
        while at + needle.len() <= hay.len() {
            if hay[at] == needle[0]
                && hay[at..at + needle.len()] == needle[..]
                && let Some(end) = self.whole_word(hay, at, at + needle.len())
            {
                found.push(at..end);
                at = end;
            } else {
                at += 1;
            }
        }
        found
    }

    /// The end of the match `start..end` when it is whole words (with a plural ending taken
    /// in), else `None`.
    fn whole_word(&self, hay: &[char], start: usize, end: usize) -> Option<usize> {
        let first = self.chars.first().copied().unwrap_or(' ');
        let last = self.chars.last().copied().unwrap_or(' ');
        if word_char(first) && start > 0 && word_char(hay[start - 1]) {
            return None;
        }
        if !word_char(last) {
            return Some(end);
        }
        let free = |at: usize| hay.get(at).is_none_or(|c| !word_char(*c));
        if free(end) {
            return Some(end);
        }
        let rest = &hay[end..];
        for ending in [&['s'][..], &['e', 's']] {
            if rest.starts_with(ending) && free(end + ending.len()) {
                return Some(end + ending.len());
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blanked(phrase: &str, text: &str) -> String {
        let mut out = text.to_owned();
        for range in Phrase::new(phrase).unwrap().find_in(text).into_iter().rev() {
            out.replace_range(range, "[x]");
        }
        out
    }

    #[test]
    fn whole_words_only_with_plurals() {
        assert_eq!(
            blanked("ann", "Ann's plan: planning with ANN"),
            "[x]'s plan: planning with [x]"
        );
        assert_eq!(
            blanked("rule", "the office rules; a ruler; overrule"),
            "the office [x]; a ruler; overrule"
        );
        assert_eq!(blanked("555-0100", "call 555-0100."), "call [x].");
        assert_eq!(blanked("box", "two boxes"), "two [x]");
    }

    #[test]
    fn the_same_text_in_another_form_is_found_and_blanked_in_the_original() {
        assert_eq!(blanked("john smith", "Met Jo\u{200B}hn  Smith today"), "Met [x] today");
        assert_eq!(blanked("café", "le cafe\u{301} noir"), "le [x] noir");
        assert_eq!(blanked("password", "my pass\u{00AD}word is"), "my [x] is");
        assert_eq!(blanked("address", "ＡＤＤＲＥＳＳ: 5 Main St"), "[x]: 5 Main St");
        assert_eq!(blanked("istanbul", "İstanbul trip"), "[x] trip");
    }

    #[test]
    fn unspaced_scripts_match_inside_words_and_weigh_more() {
        assert_eq!(blanked("東京", "彼は東京に住む"), "彼は[x]に住む");
        assert_eq!(blanked("서울", "서울에서 살아요"), "[x]에서 살아요");
        assert_eq!(Phrase::new("王伟").unwrap().weight(), 4);
        assert_eq!(Phrase::new(" e ").unwrap().weight(), 1);
        assert_eq!(Phrase::new("a-b").unwrap().weight(), 2);
        assert!(Phrase::new(" \u{200B} ").is_none());
    }
}
