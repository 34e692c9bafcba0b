//! What forgetting a phrase finds, on every backend: a phrase in a memory's text, source or
//! metadata, outside the markers that stand for text already gone (`[forgotten]`,
//! `[secret: …]`).

use std::ops::Range;

use crate::secrets::SecretKind;
use crate::text::Phrase;
use crate::types::MemoryRecord;

/// What forgotten text is replaced with.
pub(crate) const BLANK: &str = "[forgotten]";

/// Whether memory `m`'s text, source or metadata holds `phrase` (in any form, as whole
/// words: [`crate::text::Phrase`], outside the markers of secrets and forgotten text).
pub(crate) fn record_mentions(m: &MemoryRecord, phrase: &Phrase) -> bool {
    let metadata = || serde_json::to_string(&m.attributes.metadata).unwrap_or_default();
    let mentions = |text: &str| mentions(phrase, text);
    mentions(&m.content)
        || m.attributes.source.as_deref().is_some_and(mentions)
        || (!m.attributes.metadata.is_empty() && mentions(&metadata()))
}

/// Whether `phrase` is in `text` outside its markers: `[secret: password]` mentions no
/// password, and `[forgotten]` nothing forgotten.
pub(crate) fn mentions(phrase: &Phrase, text: &str) -> bool {
    let mut at = 0;
    for range in markers(text).into_iter().chain(std::iter::once(text.len()..text.len())) {
        if phrase.is_in(&text[at..range.start]) {
            return true;
        }
        at = range.end;
    }
    false
}

/// The byte ranges of the markers in `text` (`[forgotten]`, `[secret: …]`), in order.
pub(crate) fn markers(text: &str) -> Vec<Range<usize>> {
    let mut ranges = Vec::new();
    let mut at = 0;
    while let Some(offset) = text[at..].find('[') {
        let start = at + offset;
        let rest = &text[start..];
        let len = if rest.starts_with(BLANK) {
            BLANK.len()
        } else {
            // Only a marker the secret screen writes: `[secret: <kind>]` of a known kind.
            SecretKind::ALL
                .iter()
                .map(|kind| kind.marker())
                .find(|marker| rest.starts_with(marker.as_str()))
                .map_or(0, |marker| marker.len())
        };
        if len > 0 {
            ranges.push(start..start + len);
            at = start + len;
        } else {
            at = start + 1;
        }
    }
    ranges
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_marker_mentions_nothing() {
        let password = Phrase::new("password").unwrap();
        assert!(!mentions(&password, "the office [secret: password] and more"));
        assert!(mentions(&password, "[secret: password] is the wifi password"));
        let split = Phrase::new("office and").unwrap();
        assert!(!mentions(&split, "office [forgotten] and"));
    }
}
