//! Blanking forgotten text wherever a store recorded it: pure functions over strings,
//! changesets and LLM answers, so that what forgetting removes is decided in one place.

mod needles;

use serde_json::Value;

pub(crate) use crate::store::mentions::BLANK;
pub(crate) use needles::Needles;

use crate::types::{Changeset, ChangesetKind, MemoryAttributes, MemoryId};

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
        changed |= needles.redact_core_in_place(text);
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
    changed |= needles.redact_data(&mut metadata);
    if let Value::Object(map) = metadata {
        attributes.metadata.extend(map);
    }
    changed
}
