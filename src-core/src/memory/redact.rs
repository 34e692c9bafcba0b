//! Blanking forgotten text wherever a store recorded it: pure functions over strings,
//! changesets and LLM answers, so that what forgetting removes is decided in one place.

use serde_json::Value;

use crate::types::{Changeset, ChangesetKind, MemoryAttributes, MemoryId};

/// What forgotten text is replaced with.
pub(crate) const BLANK: &str = "[forgotten]";

/// The text to blank: the exact texts of the forgotten memories (and the way JSON writes
/// them, for raw LLM answers kept as text) and, when one was given, a phrase found with
/// letter case ignored.
#[derive(Debug, Default)]
pub(crate) struct Needles {
    exact: Vec<String>,
    phrase: Option<Vec<char>>,
}

impl Needles {
    /// Needles for `texts` (blank ones are skipped) and `phrase`.
    pub(crate) fn new<'a>(texts: impl IntoIterator<Item = &'a str>, phrase: Option<&str>) -> Self {
        let mut exact: Vec<String> = Vec::new();
        for text in texts.into_iter().map(str::trim).filter(|t| !t.is_empty()) {
            exact.push(text.to_owned());
            let escaped = serde_json::to_string(text).unwrap_or_default();
            let escaped = escaped.trim_matches('"');
            if escaped != text && !escaped.is_empty() {
                exact.push(escaped.to_owned());
            }
        }
        // Longest first, so that a text containing another is blanked whole.
        exact.sort_by_key(|t| std::cmp::Reverse(t.len()));
        exact.dedup();
        let phrase = phrase
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(|p| p.chars().flat_map(char::to_lowercase).collect());
        Self { exact, phrase }
    }

    /// `text` with every needle blanked; `None` when nothing was found.
    pub(crate) fn redact(&self, text: &str) -> Option<String> {
        let mut out = text.to_owned();
        let mut changed = false;
        for needle in &self.exact {
            if out.contains(needle.as_str()) {
                out = out.replace(needle.as_str(), BLANK);
                changed = true;
            }
        }
        if let Some(phrase) = &self.phrase
            && let Some(replaced) = replace_ignoring_case(&out, phrase)
        {
            out = replaced;
            changed = true;
        }
        changed.then_some(out)
    }

    /// Blanks needles in `text` in place; true when it changed.
    pub(crate) fn redact_in_place(&self, text: &mut String) -> bool {
        match self.redact(text) {
            Some(redacted) => {
                *text = redacted;
                true
            }
            None => false,
        }
    }

    /// Blanks needles in every string of a JSON value; true when one changed.
    fn redact_json(&self, value: &mut Value) -> bool {
        match value {
            Value::String(s) => self.redact_in_place(s),
            Value::Array(items) => items.iter_mut().fold(false, |changed, v| self.redact_json(v) | changed),
            Value::Object(map) => map.values_mut().fold(false, |changed, v| self.redact_json(v) | changed),
            _ => false,
        }
    }
}

/// `text` with each occurrence of `phrase` (already lower case) blanked, comparing letters
/// by their lower case; `None` when there is none.
fn replace_ignoring_case(text: &str, phrase: &[char]) -> Option<String> {
    let starts: Vec<(usize, char)> = text.char_indices().collect();
    let mut out = String::with_capacity(text.len());
    let mut found = false;
    let mut i = 0;
    while i < starts.len() {
        if let Some(end) = match_at(&starts, i, phrase) {
            out.push_str(BLANK);
            found = true;
            i = end;
        } else {
            out.push(starts[i].1);
            i += 1;
        }
    }
    found.then_some(out)
}

/// The char index after a match of `phrase` starting at char `start`, if there is one.
fn match_at(chars: &[(usize, char)], start: usize, phrase: &[char]) -> Option<usize> {
    let mut wanted = phrase.iter();
    let mut next = wanted.next();
    let mut i = start;
    while let Some(want) = next {
        let (_, c) = chars.get(i)?;
        let mut lower = c.to_lowercase();
        let mut want_now = Some(want);
        for l in lower.by_ref() {
            match want_now {
                Some(w) if *w == l => want_now = wanted.next(),
                _ => return None,
            }
        }
        next = want_now;
        i += 1;
    }
    Some(i)
}

/// Blanks forgotten text in a changeset; true when anything changed.
///
/// `made_forgotten` says the changeset made one of the forgotten memories: when an LLM
/// built it (an `add` that called the LLM), its raw input, inputs and LLM answers are
/// blanked whole, because the model may have written the fact in other words. An add
/// stored as given (no LLM, an import, a person's edit) keeps its other items. Items that
/// are a forgotten memory (`forgotten`) are blanked whole.
pub(crate) fn redact_changeset(
    changeset: &mut Changeset,
    needles: &Needles,
    forgotten: &[MemoryId],
    made_forgotten: bool,
) -> bool {
    let mut changed = false;
    let whole = made_forgotten && changeset.kind == ChangesetKind::Add && !changeset.llm_calls.is_empty();
    if whole {
        if let Some(raw) = changeset.raw_input.as_mut().filter(|r| r.as_str() != BLANK) {
            *raw = BLANK.to_owned();
            changed = true;
        }
        for input in changeset.inputs.iter_mut().filter(|i| i.as_str() != BLANK) {
            *input = BLANK.to_owned();
            changed = true;
        }
        for call in &mut changeset.llm_calls {
            if call.answer.as_ref().is_some_and(|a| a != &Value::String(BLANK.into())) {
                call.answer = Some(Value::String(BLANK.into()));
                changed = true;
            }
        }
    }
    if let Some(raw) = changeset.raw_input.as_mut() {
        changed |= needles.redact_in_place(raw);
    }
    for input in &mut changeset.inputs {
        changed |= needles.redact_in_place(input);
    }
    for call in &mut changeset.llm_calls {
        if let Some(answer) = call.answer.as_mut() {
            changed |= needles.redact_json(answer);
        }
        if let Some(error) = call.error.as_mut() {
            changed |= needles.redact_in_place(error);
        }
    }
    for text in [&mut changeset.core_before, &mut changeset.core_after]
        .into_iter()
        .flatten()
    {
        changed |= needles.redact_in_place(text);
    }
    for warning in &mut changeset.warnings {
        changed |= needles.redact_in_place(warning);
    }
    for item in &mut changeset.related {
        if forgotten.contains(&item.memory_id) && item.content != BLANK {
            item.content = BLANK.to_owned();
            changed = true;
        } else {
            changed |= needles.redact_in_place(&mut item.content);
        }
    }
    for item in &mut changeset.proposed {
        if item.memory_id.as_ref().is_some_and(|id| forgotten.contains(id)) && item.content != BLANK {
            item.content = BLANK.to_owned();
            changed = true;
        } else {
            changed |= needles.redact_in_place(&mut item.content);
        }
    }
    for item in &mut changeset.proposed {
        let forgotten_item = item.memory_id.as_ref().is_some_and(|id| forgotten.contains(id));
        changed |= redact_attributes(&mut item.attributes, needles, forgotten_item);
    }
    changed |= redact_attributes(&mut changeset.attributes, needles, whole);
    if let Some(record) = changeset.forget.as_mut()
        && let Some(phrase) = record.mentioning.as_mut()
    {
        changed |= needles.redact_in_place(phrase);
    }
    changed
}

/// Blanks the text in attributes: the whole source and metadata when `all` (they belonged to
/// a forgotten memory), else the needles in them. Types and ids are not the memory's text.
fn redact_attributes(attributes: &mut MemoryAttributes, needles: &Needles, all: bool) -> bool {
    if all {
        let had = attributes.source.is_some() || !attributes.metadata.is_empty();
        attributes.source = None;
        attributes.metadata.clear();
        return had;
    }
    let mut changed = false;
    if let Some(source) = attributes.source.as_mut() {
        changed |= needles.redact_in_place(source);
    }
    let mut metadata = Value::Object(std::mem::take(&mut attributes.metadata).into_iter().collect());
    changed |= needles.redact_json(&mut metadata);
    if let Value::Object(map) = metadata {
        for (key, value) in map {
            let mut key = key;
            changed |= needles.redact_in_place(&mut key);
            attributes.metadata.insert(key, value);
        }
    }
    changed
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
    fn a_phrase_is_found_whatever_its_letter_case() {
        let needles = Needles::new([], Some("  Main Street "));
        assert_eq!(
            needles.redact("Lives on MAIN STREET; main street is long").as_deref(),
            Some("Lives on [forgotten]; [forgotten] is long")
        );
        let needles = Needles::new([], Some("straße"));
        assert_eq!(
            needles.redact("Die STRASSE, die Straße").as_deref(),
            Some("Die STRASSE, die [forgotten]")
        );
        let needles = Needles::new([], Some("ÉCOLE"));
        assert_eq!(needles.redact("à l'école").as_deref(), Some("à l'[forgotten]"));
    }

    #[test]
    fn a_longer_text_is_blanked_before_one_it_contains() {
        let needles = Needles::new(["tea", "green tea every day"], None);
        assert_eq!(
            needles.redact("likes green tea every day and tea").as_deref(),
            Some("likes [forgotten] and [forgotten]")
        );
    }

    #[test]
    fn json_answers_are_blanked_string_by_string() {
        let needles = Needles::new(["secret"], None);
        let mut value = serde_json::json!({"memories": ["a secret here", "other"], "n": 1});
        assert!(needles.redact_json(&mut value));
        assert_eq!(
            value,
            serde_json::json!({"memories": ["a [forgotten] here", "other"], "n": 1})
        );
    }
}
