//! What forgetting finds and removes, once for every backend: the memories and agent state
//! a phrase is in, a memory forgotten, a user purged, agent state redacted. Each is written
//! over the boundary's primitives ([`Reader`], [`Writer`]), so a backend only answers
//! those, and a user's view narrows them as it narrows every other question.

use super::backend::{Reader, Writer};
use crate::error::Result;
use crate::types::{MemoryId, MemoryRecord, MemoryStatus, PurgeReceipt};

/// The memories (any status but forgotten) whose text, source or metadata holds `phrase`
/// in any form, as whole words (see [`crate::text::Phrase`]), oldest first.
pub(crate) fn memories_mentioning(r: &dyn Reader, phrase: &str) -> Result<Vec<(i64, MemoryRecord)>> {
    let Some(needle) = crate::text::Phrase::new(phrase) else {
        return Ok(Vec::new());
    };
    // Every text is read once: forgetting is rare, and the text is compared folded
    // (normalised, case-folded, invisible characters dropped), which SQL cannot do.
    Ok(r.memories()
        .remembered()?
        .into_iter()
        .filter(|(_, m)| super::mentions::record_mentions(m, &needle))
        .collect())
}

/// How many entries of agents' state (now and in history) `matches` holds for, in their
/// agent id, key or value.
pub(crate) fn agent_state_mentioning(r: &dyn Reader, matches: &dyn Fn(&str) -> bool) -> Result<usize> {
    Ok(r.agents()
        .entries()?
        .iter()
        .filter(|e| matches(&e.agent_id) || matches(&e.key) || e.value.as_deref().is_some_and(matches))
        .count())
}

/// Forgets memory `rowid`: out of the full-text index (where an active memory is) and the
/// vectors (live and staged), its text, source and metadata blanked, its status
/// `forgotten`. The row stays, so ids and history still point at something.
///
/// # Errors
/// A row the writer cannot see goes to [`MemoryWrites::blank`](super::backend::MemoryWrites::blank)
/// alone: a user's view refuses another user's row there, and a row that does not exist
/// changes nothing.
pub(crate) fn forget_memory(w: &dyn Writer, rowid: i64, ts: i64) -> Result<()> {
    let Some(memory) = w.memories().by_rowids(&[rowid])?.remove(&rowid) else {
        return w.memories_mut().blank(rowid, ts);
    };
    if memory.status == MemoryStatus::Active {
        w.text_index_mut().remove(rowid, &memory.content)?;
    }
    w.vectors_mut().remove(rowid)?;
    w.memories_mut().blank(rowid, ts)
}

/// Removes every memory of user `user_id` (in any status), the changesets made for that
/// user, and each copy of their text elsewhere (the items of other changesets that name
/// them: a store without scopes may have merged users' memories), for good; the caller
/// scrubs afterwards.
pub(crate) fn purge_user(w: &dyn Writer, user_id: &str) -> Result<PurgeReceipt> {
    let theirs = w.memories().of_user(user_id)?;
    for (rowid, _) in &theirs {
        forget_memory(w, *rowid, 0)?;
    }
    let ids: Vec<MemoryId> = theirs.into_iter().map(|(_, m)| m.id).collect();
    w.changesets_mut().blank_items_naming(&ids)?;
    let changesets = w.changesets_mut().delete_of_user(user_id)?;
    let memories = w.memories_mut().delete_of_user(user_id)?;
    Ok(PurgeReceipt { memories, changesets })
}

/// Removes every entry of agents' state (now and in history) whose agent id or key `named`
/// holds (a name cannot be half blanked) and rewrites every value that `redact` changes (it
/// gets the JSON text and answers the new text, or `None` to leave it); returns how many
/// entries changed.
pub(crate) fn redact_agent_state(
    w: &dyn Writer,
    named: &dyn Fn(&str) -> bool,
    redact: &dyn Fn(&str) -> Option<String>,
) -> Result<usize> {
    let mut changed = 0;
    for entry in w.agents().entries()? {
        if named(&entry.agent_id) || named(&entry.key) {
            w.agents_mut().remove_entry(&entry)?;
            changed += 1;
        } else if let Some(redacted) = entry.value.as_deref().and_then(redact) {
            w.agents_mut().set_entry_value(&entry, &redacted)?;
            changed += 1;
        }
    }
    Ok(changed)
}
