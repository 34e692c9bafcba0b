//! delete, update, pin and unpin: a person's direct edits of one memory.

use anyhow::Result;
use haema_core::{AddOutcome, AddStatus, Memory};
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
    let text = if args.text == "-" {
        read_source("-".as_ref())?
    } else {
        args.text
    };
    let outcome = memory.update_memory(&args.id, &text).await?;
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
