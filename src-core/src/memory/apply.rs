//! Applying a changeset to the store: one transaction, then core.md.

use crate::store::MetaKey;
use crate::store::Writer;
use std::collections::HashMap;

use crate::error::Missing;
use crate::error::{Error, Result};
use crate::store::Store;
use crate::store::core_write::{record_version, sync_external};
use crate::types::{Changeset, ChangesetId, ChangesetStatus, CoreAuthor, DecidedBy, MemoryId, MemoryStatus};

/// Why a changeset cannot be applied as it is.
pub(crate) fn staleness(tx: &dyn Writer, store: &Store, changeset: &Changeset) -> Result<Option<String>> {
    for related in &changeset.related {
        match tx.memories().by_id(&related.memory_id)? {
            Some((_, m)) if m.status == MemoryStatus::Active => {}
            _ => {
                return Ok(Some(format!(
                    "related memory {} is no longer active",
                    related.memory_id
                )));
            }
        }
    }
    if let Some(before) = &changeset.core_before {
        let current = sync_external(tx, store)?;
        if &current != before {
            return Ok(Some("core.md changed since the changeset was made".into()));
        }
    }
    Ok(None)
}

/// Makes a memory visible: status active, vector active (or inserted), full text indexed.
fn activate(tx: &dyn Writer, rowid: i64, content: &str, vector: Option<&Vec<f32>>, has_vectors: bool) -> Result<()> {
    if has_vectors {
        let known = tx.vectors_mut().set_active(rowid, true)?;
        match (known, vector) {
            (true, _) => {}
            (false, Some(v)) => tx.vectors_mut().insert(rowid, v)?,
            // Written while the embedder was missing: the next open with it catches up.
            (false, None) => tx.set_meta(MetaKey::VectorsBehind, "1")?,
        }
    }
    tx.text_index_mut().insert(rowid, content)
}

/// Hides a memory: status superseded by `by`, vector inactive, removed from full text.
fn supersede(tx: &dyn Writer, rowid: i64, content: &str, by: ChangesetId, ts: i64, has_vectors: bool) -> Result<()> {
    tx.memories_mut()
        .set_status(rowid, MemoryStatus::Superseded, Some(by), ts)?;
    if has_vectors {
        tx.vectors_mut().set_active(rowid, false)?;
    }
    tx.text_index_mut().remove(rowid, content)
}

/// Commits a stored pending (or just stored) add changeset: its pending memories become
/// active, the related memories it does not keep are superseded, core is recorded.
/// Returns the new core.md to write, if any. `vectors_by_text` holds the document vectors of
/// the new memories (empty for a lexical-only store).
pub(crate) fn commit(
    tx: &dyn Writer,
    changeset_id: ChangesetId,
    decided_by: DecidedBy,
    vectors_by_text: &HashMap<String, Vec<f32>>,
) -> Result<Option<String>> {
    let changeset = tx
        .changesets()
        .get(changeset_id)?
        .ok_or(Error::NotFound(Missing::Changeset(changeset_id)))?;
    let has_vectors = tx.vectors().exist()?;
    for item in changeset.added() {
        let id = item
            .memory_id
            .as_ref()
            .ok_or_else(|| Error::Internal(format!("proposed memory of changeset {changeset_id} has no id")))?;
        let (rowid, memory) = tx
            .memories()
            .by_id(id)?
            .ok_or_else(|| Error::Internal(format!("pending memory {id} is missing")))?;
        if memory.status != MemoryStatus::Pending {
            return Err(Error::Internal(format!(
                "memory {id} of changeset {changeset_id} is {:?}, not pending",
                memory.status
            )));
        }
        let ts = tx.next_timestamp()?;
        tx.memories_mut().activate_pending(rowid, ts)?;
        activate(
            tx,
            rowid,
            &memory.content,
            vectors_by_text.get(&memory.content),
            has_vectors,
        )?;
    }
    let ts = crate::types::now_ms();
    let mut replaced_a_pin = false;
    for related in changeset.removed() {
        if let Some((rowid, memory)) = tx.memories().by_id(&related.memory_id)? {
            replaced_a_pin |= memory.pinned;
            supersede(tx, rowid, &memory.content, changeset_id, ts, has_vectors)?;
        }
    }
    // What a person let replace a pinned memory stays pinned.
    if replaced_a_pin {
        for id in changeset.added().filter_map(|item| item.memory_id.as_ref()) {
            if let Some((rowid, _)) = tx.memories().by_id(id)? {
                tx.memories_mut().set_pinned(rowid, true, ts)?;
            }
        }
    }
    let core = match &changeset.core_after {
        Some(after) => {
            record_version(tx, after, CoreAuthor::Llm, Some(changeset_id))?;
            Some(after.clone())
        }
        None => None,
    };
    tx.changesets_mut()
        .decide(changeset_id, ChangesetStatus::Committed, decided_by, ts)?;
    Ok(core)
}

/// What reverting a changeset does.
pub(crate) struct RevertPlan {
    /// Memories to hide: what the reverted changeset made active.
    pub hide: Vec<(i64, MemoryId, String)>,
    /// Memories to bring back: what it superseded.
    pub restore: Vec<(i64, MemoryId, String)>,
}

/// Checks that a committed changeset can be reverted and lists what changes.
pub(crate) fn revert_plan(tx: &dyn Writer, changeset: &Changeset) -> Result<RevertPlan> {
    if changeset.status != ChangesetStatus::Committed {
        return Err(Error::WrongStatus {
            changeset: changeset.id,
            status: changeset.status,
            action: crate::error::ReviewAction::Revert,
        });
    }
    let mut plan = RevertPlan {
        hide: Vec::new(),
        restore: Vec::new(),
    };
    for item in changeset.added() {
        let Some(id) = item.memory_id.as_ref() else {
            continue;
        };
        let Some((rowid, memory)) = tx.memories().by_id(id)? else {
            continue;
        };
        // A forgotten memory is gone already: undoing the change leaves it gone.
        if memory.status == MemoryStatus::Forgotten {
            continue;
        }
        if memory.status != MemoryStatus::Active {
            return Err(Error::ReplacedSince {
                changeset: changeset.id,
                memory: id.clone(),
                by: memory.superseded_by,
            });
        }
        plan.hide.push((rowid, memory.id, memory.content));
    }
    for related in changeset.removed() {
        let Some((rowid, memory)) = tx.memories().by_id(&related.memory_id)? else {
            continue;
        };
        if memory.status == MemoryStatus::Superseded && memory.superseded_by == Some(changeset.id) {
            plan.restore.push((rowid, memory.id, memory.content));
        }
    }
    Ok(plan)
}

/// Applies a revert plan on behalf of revert changeset `revert_id`.
pub(crate) fn apply_revert(tx: &dyn Writer, plan: &RevertPlan, revert_id: ChangesetId) -> Result<()> {
    let has_vectors = tx.vectors().exist()?;
    let ts = crate::types::now_ms();
    for (rowid, _, content) in &plan.hide {
        supersede(tx, *rowid, content, revert_id, ts, has_vectors)?;
    }
    for (rowid, _, content) in &plan.restore {
        tx.memories_mut().set_status(*rowid, MemoryStatus::Active, None, ts)?;
        activate(tx, *rowid, content, None, has_vectors)?;
    }
    Ok(())
}
