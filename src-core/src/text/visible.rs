//! Text as a reader gets it, letter case kept: each character in its compatibility form
//! (NFKC: full-width `ＡＫＩＡ` is `AKIA`) and invisible characters dropped (zero-width
//! spaces, soft hyphens, joiners, bidi controls, terminal controls:
//! [`crate::text::chars::is_invisible`]). A credential split by a zero-width character
//! is one credential again when the text is quoted, so the secret screen looks at this
//! form. [`Visible`] keeps the original bytes behind each character, so that what is found
//! here is replaced in the original.

use std::ops::Range;

use unicode_normalization::UnicodeNormalization;

use crate::text::chars::is_invisible;

/// A text in its visible form, with the original bytes behind each of its bytes.
#[derive(Debug, Clone)]
pub(crate) struct Visible {
    /// The visible form.
    pub(crate) text: String,
    /// For each character of `text`: where it starts in `text`, and the bytes of the
    /// original it came from (with the invisible characters just before it).
    origins: Vec<(usize, Range<usize>)>,
}

impl Visible {
    /// The visible form of `text`; `None` when it is the text itself (no invisible
    /// character, nothing NFKC changes), which is most texts.
    pub(crate) fn of(text: &str) -> Option<Self> {
        let plain = |c: char| !is_invisible(c) && (c.is_ascii() || std::iter::once(c).nfkc().eq(std::iter::once(c)));
        if text.chars().all(plain) {
            return None;
        }
        let mut visible = Self {
            text: String::with_capacity(text.len()),
            origins: Vec::new(),
        };
        let mut pending = None;
        for (at, c) in text.char_indices() {
            let from = pending.take().unwrap_or(at);
            if is_invisible(c) {
                pending = Some(from);
                continue;
            }
            let end = at + c.len_utf8();
            for folded in std::iter::once(c).nfkc() {
                visible.origins.push((visible.text.len(), from..end));
                visible.text.push(folded);
            }
        }
        Some(visible)
    }

    /// The bytes of the original behind `span`, a byte range of the visible form.
    pub(crate) fn original(&self, span: &Range<usize>) -> Range<usize> {
        let at = |byte: usize| {
            self.origins
                .partition_point(|(start, _)| *start <= byte)
                .saturating_sub(1)
        };
        let first = &self.origins[at(span.start)].1;
        let last = &self.origins[at(span.end.saturating_sub(1).max(span.start))].1;
        first.start..last.end
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invisible_characters_are_dropped_and_full_width_is_ascii() {
        assert!(Visible::of("plain ASCII and ünïcode 東京").is_none());
        let text = "key AKIA\u{2060}IOSF\u{AD}ODNN7EXAMPLE!";
        let visible = Visible::of(text).unwrap();
        assert_eq!(visible.text, "key AKIAIOSFODNN7EXAMPLE!");
        let at = visible.text.find("AKIA").unwrap();
        let span = visible.original(&(at..at + "AKIAIOSFODNN7EXAMPLE".len()));
        assert_eq!(&text[span], "AKIA\u{2060}IOSF\u{AD}ODNN7EXAMPLE");
        let wide = "ＡＫＩＡ1";
        let visible = Visible::of(wide).unwrap();
        assert_eq!(visible.text, "AKIA1");
        assert_eq!(&wide[visible.original(&(0..4))], "ＡＫＩＡ");
        assert_eq!(&wide[visible.original(&(4..5))], "1");
    }
}
