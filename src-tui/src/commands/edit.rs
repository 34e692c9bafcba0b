//! delete, update, pin and unpin: a person's direct edits of one memory.

use anyhow::Result;
use haema_core::{AddOutcome, AddStatus, Memory, MemoryAttributes};
use serde_json::json;

use super::read_source;
use crate::cli::{MemoryTarget, UpdateArgs};
use crate::output::{self, one_line, print};

pub async fn delete(memory: &Memory, target: MemoryTarget) -> Result<()> {
    let before = memory.memory(&target.id).await?;
    let outcome = memory.delete_memory(&target.id).await?;
    report(&outcome, target.json, || {
        format!(
            "Deleted “{}”; `haema revert {}` brings it back, `haema forget {}` removes its text for good.\n",
            one_line(&before.content),
            changeset(&outcome),
            target.id
        )
    })
}

pub async fn update(memory: &Memory, args: UpdateArgs) -> Result<()> {
    let given = super::memories::attributes(args.attributes)?;
    let mut outcome = match args.text.as_deref() {
        Some("-") => memory.update_memory(&args.id, &read_source("-".as_ref())?).await?,
        Some(text) => memory.update_memory(&args.id, text).await?,
        None => AddOutcome {
            changeset: None,
            status: AddStatus::Noop,
            warnings: Vec::new(),
            memory_ids: Vec::new(),
        },
    };
    if !given.is_empty() {
        let id = outcome.memory_ids.first().cloned().unwrap_or_else(|| args.id.clone());
        let current = memory.memory(&id).await?.attributes;
        let changed = memory.update_attributes(&id, over(current, given)).await?;
        if changed.changeset.is_some() {
            outcome = changed;
        }
    }
    report(&outcome, args.json, || match outcome.memory_ids.first() {
        Some(new) => format!(
            "Updated: memory {new} replaces {} (changeset {}; `haema revert {}` undoes it).\n",
            args.id,
            changeset(&outcome),
            changeset(&outcome)
        ),
        None => "Nothing changed: the memory already says that.\n".to_owned(),
    })
}

pub async fn pin(memory: &Memory, target: MemoryTarget, pinned: bool) -> Result<()> {
    let record = memory.set_pinned(&target.id, pinned).await?;
    if target.json {
        return output::json(&record);
    }
    let text = if pinned {
        format!(
            "Pinned “{}”: no change replaces or rewrites it without your review.\n",
            one_line(&record.content)
        )
    } else {
        format!("Unpinned “{}”.\n", one_line(&record.content))
    };
    print(&text)
}

/// `current` with each attribute `given` sets replaced (metadata merged key by key).
fn over(current: MemoryAttributes, given: MemoryAttributes) -> MemoryAttributes {
    let mut metadata = current.metadata;
    metadata.extend(given.metadata);
    MemoryAttributes {
        memory_type: given.memory_type.or(current.memory_type),
        importance: given.importance.or(current.importance),
        source: given.source.or(current.source),
        agent_id: given.agent_id.or(current.agent_id),
        session_id: given.session_id.or(current.session_id),
        user_id: given.user_id.or(current.user_id),
        metadata,
    }
}

fn changeset(outcome: &AddOutcome) -> String {
    outcome.changeset.map(|id| id.to_string()).unwrap_or_default()
}

/// Prints what an edit did: its JSON, or `words` (the change may also have gone stale).
fn report(outcome: &AddOutcome, as_json: bool, words: impl FnOnce() -> String) -> Result<()> {
    for warning in &outcome.warnings {
        eprintln!("haema: warning: {warning}");
    }
    if as_json {
        return output::json(&json!({
            "changeset": outcome.changeset,
            "status": outcome.status,
            "memory_ids": outcome.memory_ids,
            "warnings": outcome.warnings,
        }));
    }
    match outcome.status {
        AddStatus::Stale => print(&format!(
            "Changeset {} is stale: another change replaced the memory meanwhile; look at it with `haema latest`.\n",
            changeset(outcome)
        )),
        _ => print(&words()),
    }
}
