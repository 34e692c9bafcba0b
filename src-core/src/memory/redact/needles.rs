//! What a forget blanks in a text, and what it never touches.
//!
//! The needles are the forgotten memories' texts (and the way JSON writes them, for raw LLM
//! answers kept as text) and the phrase asked for, each found in any form and as whole words
//! ([`Phrase`]). Structure is never blanked: the `[forgotten]` marker itself, the markers of
//! redacted secrets (`[secret: …]`), core.md's section headings, and the keys of JSON
//! objects (an entry whose key holds the text is removed whole instead).

use std::ops::Range;

use aho_corasick::AhoCorasick;
use serde_json::Value;

use crate::store::mentions::{BLANK, markers};
use crate::text::Phrase;
use crate::text::fold::Folded;
use crate::text::phrase::MIN_PHRASE_WEIGHT;
use crate::types::Section;

/// The texts to blank, found in any form and as whole words.
#[derive(Debug, Default)]
pub(crate) struct Needles {
    phrases: Vec<Phrase>,
    /// Every phrase at once: a text is read once however many there are (a forget of
    /// thousands of memories reads every change of a large store).
    automaton: Option<AhoCorasick>,
    /// The phrase a person asked for, alone: what names (agent ids, state keys) are
    /// removed for. A memory's text found in a name leaves the name alone.
    asked: Option<Phrase>,
}

impl Needles {
    /// Needles for `texts` (blank ones are skipped) and `phrase`.
    pub(crate) fn new<'a>(texts: impl IntoIterator<Item = &'a str>, phrase: Option<&str>) -> Self {
        let mut phrases = Vec::new();
        // A forgotten memory's text too short to mean anything ("```", "user") is blanked in
        // its own rows and items by id, never searched for elsewhere: it would blank the
        // same characters in every other text, structure included.
        let meaningful = |t: &&str| Phrase::new(t).is_some_and(|p| p.weight() >= MIN_PHRASE_WEIGHT);
        for text in texts.into_iter().map(str::trim).filter(meaningful) {
            phrases.extend(Phrase::new(text));
            let escaped = serde_json::to_string(text).unwrap_or_default();
            let escaped = escaped.trim_matches('"');
            if escaped != text && !escaped.is_empty() {
                phrases.extend(Phrase::new(escaped));
            }
        }
        let asked = phrase.and_then(Phrase::new);
        phrases.extend(asked.clone());
        let automaton = AhoCorasick::new(phrases.iter().map(Phrase::folded_text)).ok();
        Self {
            phrases,
            automaton,
            asked,
        }
    }

    /// Where the phrases are in a folded text, as byte ranges of its original (unordered,
    /// they may overlap).
    fn find(&self, folded: &Folded) -> Vec<Range<usize>> {
        let Some(automaton) = &self.automaton else {
            return self.phrases.iter().flat_map(|p| p.find_in_folded(folded)).collect();
        };
        let hay: String = folded.chars.iter().collect();
        let starts: Vec<usize> = hay.char_indices().map(|(at, _)| at).collect();
        automaton
            .find_overlapping_iter(&hay)
            .filter_map(|found| {
                let start = starts.binary_search(&found.start()).ok()?;
                let end = self.phrases[found.pattern().as_usize()].whole_at(&folded.chars, start)?;
                Some(folded.spans[start].start..folded.spans[end - 1].end)
            })
            .collect()
    }

    /// Whether a name (an agent id, a state key) holds the phrase asked for: such an entry
    /// goes whole, since a name is never half blanked.
    pub(crate) fn names(&self, name: &str) -> bool {
        self.asked.as_ref().is_some_and(|p| p.is_in(name))
    }

    /// `text` with every needle blanked; `None` when nothing was found.
    pub(crate) fn redact(&self, text: &str) -> Option<String> {
        self.redact_outside(text, &markers(text))
    }

    /// core.md (or a version of it) with every needle blanked but in its section headings
    /// and code fence markers (blanking either would change the file's structure).
    pub(crate) fn redact_core(&self, text: &str) -> Option<String> {
        let mut kept = markers(text);
        kept.extend(core_structure(text));
        kept.sort_by_key(|r| r.start);
        self.redact_outside(text, &kept)
    }

    /// Whether `text` holds a needle (where a forget would blank it).
    pub(crate) fn found_in(&self, text: &str) -> bool {
        self.redact(text).is_some()
    }

    /// Blanks needles in `text` in place; true when it changed.
    pub(crate) fn redact_in_place(&self, text: &mut String) -> bool {
        self.replace(text, Self::redact)
    }

    /// Blanks needles in a core.md text in place, headings kept; true when it changed.
    pub(crate) fn redact_core_in_place(&self, text: &mut String) -> bool {
        self.replace(text, Self::redact_core)
    }

    fn replace(&self, text: &mut String, how: fn(&Self, &str) -> Option<String>) -> bool {
        match how(self, text) {
            Some(redacted) => {
                *text = redacted;
                true
            }
            None => false,
        }
    }

    /// Blanks needles in every string value of a JSON value (keys are the answer's shape,
    /// not its text); true when one changed.
    pub(crate) fn redact_json(&self, value: &mut Value) -> bool {
        match value {
            Value::String(s) => self.redact_in_place(s),
            Value::Array(items) => items.iter_mut().fold(false, |changed, v| self.redact_json(v) | changed),
            Value::Object(map) => map.values_mut().fold(false, |changed, v| self.redact_json(v) | changed),
            _ => false,
        }
    }

    /// Blanks needles in a JSON value written by people or agents (metadata, agent state):
    /// string values are blanked, and an object entry whose key holds a needle is removed
    /// whole (a key is never half blanked). True when it changed.
    pub(crate) fn redact_data(&self, value: &mut Value) -> bool {
        match value {
            Value::String(s) => self.redact_in_place(s),
            Value::Array(items) => items.iter_mut().fold(false, |changed, v| self.redact_data(v) | changed),
            Value::Object(map) => {
                let before = map.len();
                map.retain(|key, _| !self.found_in(key));
                let removed = map.len() != before;
                map.values_mut()
                    .fold(removed, |changed, v| self.redact_data(v) | changed)
            }
            _ => false,
        }
    }

    /// An agent state value (JSON text) with the needles blanked as [`Self::redact_data`]
    /// does; `None` when nothing changed.
    pub(crate) fn redact_state_value(&self, json: &str) -> Option<String> {
        match serde_json::from_str::<Value>(json) {
            Ok(mut value) => self
                .redact_data(&mut value)
                .then(|| serde_json::to_string(&value).unwrap_or_else(|_| format!("\"{BLANK}\""))),
            Err(_) => self.redact(json),
        }
    }

    /// `text` with every needle found outside the `kept` ranges (sorted, apart) blanked.
    fn redact_outside(&self, text: &str, kept: &[Range<usize>]) -> Option<String> {
        if self.phrases.is_empty() {
            return None;
        }
        let mut out = String::with_capacity(text.len());
        let mut changed = false;
        let mut at = 0;
        for range in kept.iter().chain(std::iter::once(&(text.len()..text.len()))) {
            if range.start < at {
                continue;
            }
            changed |= self.blank_into(&text[at..range.start], &mut out);
            out.push_str(&text[range.clone()]);
            at = range.end;
        }
        changed.then_some(out)
    }

    /// Appends `text` to `out` with every needle blanked; true when one was found.
    fn blank_into(&self, text: &str, out: &mut String) -> bool {
        let mut found = self.find(&Folded::new(text));
        if found.is_empty() {
            out.push_str(text);
            return false;
        }
        found.sort_by_key(|r| r.start);
        let mut at = 0;
        for range in found {
            if range.end <= at {
                continue;
            }
            if range.start >= at {
                out.push_str(&text[at..range.start]);
                out.push_str(BLANK);
            }
            at = range.end;
        }
        out.push_str(&text[at..]);
        true
    }
}

/// The byte ranges of core.md's structure: its section heading lines (`# SOUL` …) and the
/// markers of its code fences (the run of backticks or tildes that opens a line).
fn core_structure(text: &str) -> Vec<Range<usize>> {
    let mut ranges = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let title = line.strip_prefix("# ").map(str::trim);
        if title.is_some_and(|t| t.parse::<Section>().is_ok()) {
            ranges.push(at..at + line.len());
        } else {
            let indent = line.len() - line.trim_start().len();
            let rest = &line[indent..];
            for mark in ['`', '~'] {
                let run = rest.len() - rest.trim_start_matches(mark).len();
                if run >= 3 {
                    ranges.push(at + indent..at + indent + run);
                }
            }
        }
        at += line.len();
    }
    ranges
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_texts_and_their_json_form_are_blanked() {
        let needles = Needles::new(["He said \"hi\" at 5 Main St"], None);
        assert_eq!(
            needles.redact("note: He said \"hi\" at 5 Main St.").as_deref(),
            Some("note: [forgotten].")
        );
        let json = serde_json::to_string("He said \"hi\" at 5 Main St").unwrap();
        assert_eq!(needles.redact(&json).as_deref(), Some("\"[forgotten]\""));
        assert_eq!(needles.redact("nothing here"), None);
    }

    #[test]
    fn a_phrase_is_found_whatever_its_form() {
        let needles = Needles::new([], Some("  Main Street "));
        assert_eq!(
            needles.redact("Lives on MAIN STREET; main  street is long").as_deref(),
            Some("Lives on [forgotten]; [forgotten] is long")
        );
        let needles = Needles::new([], Some("straße"));
        assert_eq!(
            needles.redact("Die STRASSE, die Straße").as_deref(),
            Some("Die [forgotten], die [forgotten]")
        );
        let needles = Needles::new([], Some("ÉCOLE"));
        assert_eq!(needles.redact("à l'école").as_deref(), Some("à l'[forgotten]"));
    }

    #[test]
    fn a_longer_text_is_blanked_whole_with_one_it_contains() {
        let needles = Needles::new(["tea", "green tea every day"], None);
        assert_eq!(
            needles.redact("likes green tea every day and tea").as_deref(),
            Some("likes [forgotten] and [forgotten]")
        );
    }

    #[test]
    fn markers_and_core_headings_are_never_blanked() {
        let needles = Needles::new([], Some("forgotten"));
        assert_eq!(
            needles.redact("[forgotten] and forgotten").as_deref(),
            Some("[forgotten] and [forgotten]")
        );
        let needles = Needles::new([], Some("secret"));
        assert_eq!(
            needles.redact("[secret: aws access key] is a secret").as_deref(),
            Some("[secret: aws access key] is a [forgotten]")
        );
        // Text written to look like a marker is no marker: it can be forgotten.
        let needles = Needles::new([], Some("garage code"));
        assert_eq!(
            needles.redact("[secret: garage code is 4455]").as_deref(),
            Some("[secret: [forgotten] is 4455]")
        );
        // A code fence's marker stays when its info string or a short memory text goes.
        let core = "# SOUL\n\n# TOOLS\n\n```bash\n# install deps\n```\n\n# RULE\n\n# USER\n";
        let blanked = Needles::new([], Some("bash")).redact_core(core).unwrap();
        assert!(blanked.contains("```[forgotten]\n# install deps\n```"), "{blanked}");
        crate::types::core_md::CoreSections::parse(&blanked).unwrap();
        assert_eq!(Needles::new([], Some("```bash")).redact_core(core), None);
        assert_eq!(Needles::new(["```", "user", "e"], None).redact_core(core), None);
        let needles = Needles::new([], Some("rule"));
        let core = "# SOUL\n\n# TOOLS\n\n# RULE\n\nThe parking rule.\n\n# USER\n";
        assert_eq!(
            needles.redact_core(core).as_deref(),
            Some("# SOUL\n\n# TOOLS\n\n# RULE\n\nThe parking [forgotten].\n\n# USER\n")
        );
        assert_eq!(Needles::new([], Some("user")).redact_core(core), None);
    }

    #[test]
    fn json_answers_keep_their_keys_and_data_loses_entries_named_by_the_text() {
        let needles = Needles::new(["secret"], None);
        let mut value = serde_json::json!({"memories": ["a secret here", "other"], "n": 1, "secret": 2});
        assert!(needles.redact_json(&mut value));
        assert_eq!(
            value,
            serde_json::json!({"memories": ["a [forgotten] here", "other"], "n": 1, "secret": 2})
        );
        let mut data = serde_json::json!({"secret": "x", "note": "the secret"});
        assert!(needles.redact_data(&mut data));
        assert_eq!(data, serde_json::json!({"note": "the [forgotten]"}));
        assert_eq!(
            needles.redact_state_value("{\"plan\":\"keep the secret\"}").as_deref(),
            Some("{\"plan\":\"keep the [forgotten]\"}")
        );
        assert_eq!(needles.redact_state_value("12345678901234567890"), None);
    }
}
