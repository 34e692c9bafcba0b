//! The `add()` pipeline: normalise → related lookup → reconstruction (one refine,
//! fallback that keeps related memories) → core update. It only *proposes*; the memory
//! module decides by review policy and commits.

mod input;
pub(crate) mod prompts;
mod redaction;
pub(crate) mod related;
pub(crate) mod short_fact;
pub(crate) mod stages;

use std::collections::HashMap;

use serde_json::Value;

use crate::provider::{Llm, ProviderErrorKind, StructuredRequest};
use crate::types::core_md::CoreSections;
use crate::types::{
    HostileFinding, LlmCall, LlmStage, MemoryAttributes, MemoryId, Outcome, ProposedItem, RelatedItem, Section,
};
pub use input::AddInput;
use prompts::{MAX_CORE_CHARS, MAX_RECONSTRUCT_CHARS, MAX_SPLIT_CHARS};
use stages::normalize;

/// A changeset before it is stored.
#[derive(Debug, Clone, Default)]
pub(crate) struct Proposal {
    pub raw_input: Option<String>,
    pub inputs: Vec<String>,
    pub query_vectors: Option<Vec<Vec<f32>>>,
    pub related: Vec<RelatedItem>,
    pub proposed: Vec<ProposedItem>,
    pub outcome: Option<Outcome>,
    pub llm_calls: Vec<LlmCall>,
    pub warnings: Vec<String>,
    pub core_before: Option<String>,
    pub core_after: Option<String>,
    /// Every reconstruction answer said `core_relevant: false`: the core step is skipped.
    pub core_not_needed: bool,
    /// Why the text added or the memories proposed read like a prompt injection.
    pub hostile: Vec<HostileFinding>,
    /// The attributes the add was given.
    pub attributes: MemoryAttributes,
    /// The related memories a person pinned.
    pub pinned: Vec<MemoryId>,
    /// The secrets replaced by markers in what the add was given and what the LLM answered.
    pub secrets: crate::secrets::SecretTally,
    /// The LLM could not split the text, which was kept as one item.
    pub split_failed: bool,
}

impl Proposal {
    /// Whether the LLM failed somewhere and a fallback kept text as it was given: the
    /// split or the reconstruction.
    pub(crate) fn llm_failed(&self) -> bool {
        self.split_failed || self.outcome == Some(Outcome::Fallback)
    }

    /// True when committing it changes nothing.
    pub(crate) fn is_noop(&self) -> bool {
        self.related.iter().all(|r| r.kept) && self.proposed.iter().all(|p| p.kept) && self.core_after.is_none()
    }

    /// The pinned memories it would set aside (replace or rewrite).
    pub(crate) fn replaces_pinned(&self) -> Vec<MemoryId> {
        self.related
            .iter()
            .filter(|r| !r.kept && self.pinned.contains(&r.memory_id))
            .map(|r| r.memory_id.clone())
            .collect()
    }

    /// True when it removes no memory, leaves core alone and nothing in it reads like a
    /// prompt injection (the `guarded` policy's test).
    pub(crate) fn is_safe(&self) -> bool {
        self.related.iter().all(|r| r.kept) && self.core_after.is_none() && self.hostile.is_empty()
    }

    /// Gives each new memory its attributes: those the add was given, merged with those
    /// of the related memories it replaces (oldest first; see [`MemoryAttributes::merged`]).
    /// A memory carried over keeps its own.
    pub(crate) fn assign_attributes(&mut self, found: &[related::Found]) {
        let mut replaced: Vec<&related::Found> = found
            .iter()
            .filter(|f| self.related.iter().any(|r| r.memory_id == f.item.memory_id && !r.kept))
            .collect();
        replaced.sort_by_key(|f| f.timestamp_ms);
        let merged = MemoryAttributes::merged(replaced.iter().map(|f| &f.attributes), &self.attributes);
        for item in &mut self.proposed {
            item.attributes = if item.kept {
                found
                    .iter()
                    .find(|f| Some(&f.item.memory_id) == item.memory_id.as_ref())
                    .map(|f| f.attributes.clone())
                    .unwrap_or_default()
            } else {
                merged.clone()
            };
        }
    }

    /// Looks for hostile text in what was added (the raw text, its items and its
    /// attributes) and in the new memories the LLM proposed; the findings are kept in
    /// [`Proposal::hostile`].
    ///
    /// The core.md the LLM proposes is screened the same way, line by line where it differs
    /// from core.md before (what a person wrote there earlier is not the LLM's doing).
    pub(crate) fn screen(&mut self) {
        let added = self.raw_input.iter().chain(&self.inputs).map(String::as_str);
        let proposed = self.proposed.iter().filter(|p| !p.kept).map(|p| p.content.as_str());
        let before: std::collections::HashSet<&str> = self
            .core_before
            .as_deref()
            .map(|c| c.lines().collect())
            .unwrap_or_default();
        let core_lines = self
            .core_after
            .as_deref()
            .map(|after| after.lines().filter(|l| !before.contains(l)).collect::<Vec<_>>())
            .unwrap_or_default();
        let core_new = core_lines.join("\n");
        // The attributes go with every new memory, and an agent reads them beside its text.
        let attributes = self.attributes.screened_text();
        self.hostile = crate::safety::screen(added.chain(proposed).chain([core_new.as_str(), attributes.as_str()]));
    }
}

/// Why a stage produced nothing usable.
struct StageFailure {
    message: String,
    /// The provider itself failed (after its own retries); calling again is pointless.
    provider_down: bool,
}

/// One LLM stage: its name, instructions and answer schema.
#[derive(Clone, Copy)]
struct Stage<'a> {
    name: LlmStage,
    system: &'a str,
    schema: &'a Value,
    /// Ask once more, with the reason, when an answer fails validation.
    retry_bad_answer: bool,
}

/// Calls one stage and validates the answer with `accept`.
async fn call_stage<T>(
    llm: &dyn Llm,
    stage: &Stage<'_>,
    user: &str,
    calls: &mut Vec<LlmCall>,
    accept: impl Fn(&Value) -> std::result::Result<T, String>,
) -> std::result::Result<T, StageFailure> {
    let Stage {
        name: stage,
        system,
        schema,
        retry_bad_answer,
    } = *stage;
    let mut prompt = user.to_owned();
    let attempts = if retry_bad_answer { 2 } else { 1 };
    let mut last = String::new();
    for _ in 0..attempts {
        let request = StructuredRequest {
            name: stage.as_str(),
            system,
            user: &prompt,
            schema,
        };
        match llm.generate_structured(request).await {
            Ok(answer) => match accept(&answer) {
                Ok(value) => {
                    calls.push(LlmCall {
                        stage,
                        answer: Some(answer),
                        error: None,
                    });
                    return Ok(value);
                }
                Err(reason) => {
                    calls.push(LlmCall {
                        stage,
                        answer: Some(answer),
                        error: Some(reason.clone()),
                    });
                    let quoted = crate::safety::fence::inline(&reason, prompts::MAX_REASON_CHARS);
                    prompt = format!(
                        "{user}\nYour previous answer was rejected: {quoted}. Answer again with JSON that follows the schema exactly.\n"
                    );
                    last = reason;
                }
            },
            Err(err) => {
                calls.push(LlmCall {
                    stage,
                    answer: None,
                    error: Some(err.to_string()),
                });
                let provider_down = err.kind != ProviderErrorKind::BadAnswer;
                if provider_down {
                    return Err(StageFailure {
                        message: err.to_string(),
                        provider_down,
                    });
                }
                last = err.to_string();
            }
        }
    }
    Err(StageFailure {
        message: last,
        provider_down: false,
    })
}

/// Normalises the input. `None` means there is nothing to add. `split_short` asks the LLM
/// to split a text that already is one short fact too (HAEMA's behaviour).
pub(crate) async fn normalise(
    llm: Option<&dyn Llm>,
    input: AddInput,
    split_short: bool,
    proposal: &mut Proposal,
) -> Option<()> {
    match input {
        AddInput::Items(items) => {
            proposal.inputs = normalize(items);
        }
        AddInput::Text(text) => {
            let stripped = text.trim().to_owned();
            if stripped.is_empty() {
                return None;
            }
            proposal.raw_input = Some(stripped.clone());
            let mut items = Vec::new();
            // A text that already is one short fact has nothing to split: no call.
            if let Some(llm) = llm.filter(|_| split_short || !short_fact::is_one_short_fact(&stripped)) {
                let schema = stages::pre_split_schema();
                let stage = Stage {
                    name: LlmStage::PreSplit,
                    system: prompts::SPLIT_SYSTEM,
                    schema: &schema,
                    retry_bad_answer: true,
                };
                for chunk in prompts::chunk_text(&stripped, MAX_SPLIT_CHARS) {
                    let user = prompts::split_user(&chunk);
                    let split = call_stage(llm, &stage, &user, &mut proposal.llm_calls, |a| {
                        stages::parse::<stages::PreSplit>(a)
                            .map(|p| normalize(p.contents))
                            .and_then(|items| crate::limits::oversized_proposal(&items).map_or(Ok(items), Err))
                    })
                    .await;
                    match split {
                        Ok(parts) if !parts.is_empty() => items.extend(parts),
                        Ok(_) => items.push(chunk),
                        Err(failure) => {
                            proposal.split_failed = true;
                            proposal.warnings.push(format!(
                                "splitting the text failed, so it was kept as one item: {}",
                                failure.message
                            ));
                            items.push(chunk);
                        }
                    }
                }
            }
            proposal.inputs = if items.is_empty() {
                vec![stripped]
            } else {
                normalize(items)
            };
        }
    }
    (!proposal.inputs.is_empty()).then_some(())
}

/// Splits inputs (with the related memories each found first) into groups that fit one
/// reconstruction prompt.
fn group_inputs<'a>(inputs: &'a [String], found: &'a [related::Found]) -> Vec<(Vec<&'a String>, Vec<&'a RelatedItem>)> {
    let mut groups: Vec<(Vec<&String>, Vec<&RelatedItem>)> = Vec::new();
    let mut size = 0;
    for (index, input) in inputs.iter().enumerate() {
        let mine: Vec<&RelatedItem> = found
            .iter()
            .filter(|f| f.first_input == index)
            .map(|f| &f.item)
            .collect();
        let added = input.len() + mine.iter().map(|r| r.content.len()).sum::<usize>();
        if groups.is_empty() || size + added > MAX_RECONSTRUCT_CHARS {
            groups.push((Vec::new(), Vec::new()));
            size = 0;
        }
        size += added;
        if let Some(group) = groups.last_mut() {
            group.0.push(input);
            group.1.extend(mine);
        }
    }
    groups
}

/// Reconstruction with one refine and a fallback that keeps related memories. `core` is
/// shown to the model only so that it can say whether the core step is needed.
pub(crate) async fn reconstruct(llm: Option<&dyn Llm>, found: &[related::Found], core: &str, proposal: &mut Proposal) {
    let Some(llm) = llm else {
        let mut texts: Vec<String> = found.iter().map(|f| f.item.content.clone()).collect();
        texts.extend(proposal.inputs.iter().cloned());
        proposal.outcome = Some(Outcome::NoLlm);
        set_proposed(proposal, normalize(texts));
        return;
    };
    let schema = stages::reconstruct_schema();
    let first_stage = Stage {
        name: LlmStage::Reconstruct,
        system: prompts::RECONSTRUCT_SYSTEM,
        schema: &schema,
        retry_bad_answer: false,
    };
    let refine_stage = Stage {
        name: LlmStage::Refine,
        ..first_stage
    };
    let inputs = proposal.inputs.clone();
    let mut outcome = Outcome::Reconstructed;
    let mut texts = Vec::new();
    // A core.md too large for the core step is not shown here either.
    let core = if core.len() > MAX_CORE_CHARS { "" } else { core };
    let mut core_needed = false;
    for (group_inputs, group_related) in group_inputs(&inputs, found) {
        let related_texts: Vec<String> = group_related.iter().map(|r| r.content.clone()).collect();
        let new_texts: Vec<String> = group_inputs.iter().map(|s| (*s).clone()).collect();
        let user = prompts::reconstruct_user(&related_texts, &new_texts, core);
        let first = call_stage(
            llm,
            &first_stage,
            &user,
            &mut proposal.llm_calls,
            stages::accept_reconstruction,
        )
        .await;
        let result = match first {
            Ok(memories) => Ok(memories),
            Err(failure) if failure.provider_down => Err(failure),
            Err(first_failure) => {
                let refine = prompts::refine_user(&user, &first_failure.message);
                let second = call_stage(
                    llm,
                    &refine_stage,
                    &refine,
                    &mut proposal.llm_calls,
                    stages::accept_reconstruction,
                )
                .await;
                if second.is_ok() && outcome == Outcome::Reconstructed {
                    outcome = Outcome::Refined;
                }
                second
            }
        };
        match result {
            Ok(accepted) => {
                // Only a clear `false` skips the core step; `true` and missing run it.
                core_needed |= accepted.core_relevant != Some(false);
                texts.extend(accepted.memories);
            }
            Err(failure) => {
                core_needed = true;
                outcome = Outcome::Fallback;
                proposal.warnings.push(format!(
                    "the LLM could not rebuild the memories, so the related memories were kept and the new contents added as given: {}",
                    failure.message
                ));
                texts.extend(related_texts);
                texts.extend(new_texts);
            }
        }
    }
    proposal.outcome = Some(outcome);
    proposal.core_not_needed = !core_needed;
    set_proposed(proposal, normalize(texts));
}

/// Sets the proposed memories and marks which are existing related memories unchanged.
fn set_proposed(proposal: &mut Proposal, texts: Vec<String>) {
    let mut by_text: HashMap<&str, usize> = HashMap::new();
    for (index, related) in proposal.related.iter().enumerate() {
        by_text.entry(related.content.as_str()).or_insert(index);
    }
    let mut kept = vec![false; proposal.related.len()];
    let proposed: Vec<ProposedItem> = texts
        .into_iter()
        .map(|content| match by_text.get(content.as_str()) {
            Some(&index) => {
                kept[index] = true;
                ProposedItem {
                    memory_id: Some(proposal.related[index].memory_id.clone()),
                    content,
                    kept: true,
                    attributes: MemoryAttributes::default(),
                }
            }
            None => ProposedItem {
                memory_id: None,
                content,
                kept: false,
                attributes: MemoryAttributes::default(),
            },
        })
        .collect();
    for (related, kept) in proposal.related.iter_mut().zip(kept) {
        related.kept = kept;
    }
    proposal.proposed = proposed;
}

/// Marks proposed items against related ones again (after a person edited the proposal).
pub(crate) fn remark(proposal: &mut Proposal, texts: Vec<String>) {
    set_proposed(proposal, texts);
}

/// The core update: once per add unless every reconstruction answer said the core is not
/// concerned (`core_relevant: false`), never touching a locked section.
pub(crate) async fn update_core(llm: Option<&dyn Llm>, core_text: &str, locked: &[Section], proposal: &mut Proposal) {
    let Some(llm) = llm else { return };
    if proposal.core_not_needed {
        return;
    }
    let current = match CoreSections::parse(core_text) {
        Ok(current) => current,
        Err(e) => {
            proposal.warnings.push(format!(
                "core was not updated because core.md is not in the expected form: {e}"
            ));
            return;
        }
    };
    if core_text.len() > MAX_CORE_CHARS {
        proposal.warnings.push(format!(
            "core was not updated because core.md is larger than {MAX_CORE_CHARS} characters; shorten it"
        ));
        return;
    }
    let candidates: Vec<String> = proposal.proposed.iter().map(|p| p.content.clone()).collect();
    let (shown, dropped) = prompts::cap_candidates(&candidates);
    if dropped > 0 {
        proposal.warnings.push(format!(
            "{dropped} memories were not shown to the core update because the prompt would be too large"
        ));
    }
    let user = prompts::core_user(core_text, &shown, locked);
    let schema = stages::core_schema();
    let answer = call_stage(
        llm,
        &Stage {
            name: LlmStage::CoreUpdate,
            system: prompts::CORE_SYSTEM,
            schema: &schema,
            retry_bad_answer: true,
        },
        &user,
        &mut proposal.llm_calls,
        |a| {
            let update: stages::CoreUpdate = stages::parse(a)?;
            if !update.should_update {
                return Ok(None);
            }
            let markdown = update
                .core_markdown
                .filter(|m| !m.trim().is_empty())
                .ok_or("should_update is true but core_markdown is empty")?;
            CoreSections::parse(&markdown).map(Some).map_err(|e| e.to_string())
        },
    )
    .await;
    match answer {
        Ok(Some(mut sections)) => {
            let restored = prompts::restore_locked(&current, &mut sections, locked);
            if !restored.is_empty() {
                let names: Vec<&str> = restored.iter().map(|s| s.name()).collect();
                proposal.warnings.push(format!(
                    "the LLM tried to change locked section(s) {}; they were left as they are",
                    names.join(", ")
                ));
            }
            let rendered = sections.render();
            if sections != current {
                proposal.core_before = Some(core_text.to_owned());
                proposal.core_after = Some(rendered);
            }
        }
        Ok(None) => {}
        Err(failure) => proposal
            .warnings
            .push(format!("core was not updated: {}", failure.message)),
    }
}
