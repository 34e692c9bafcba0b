//! The changes a backend makes inside a write transaction, a group per table, handed out by
//! [`super::Writer`] as the reads are by [`super::Reader`].

use super::AgentStateEntry;
use crate::error::Result;
use crate::types::{
    AgentKey, Changeset, ChangesetId, ChangesetStatus, CoreAuthor, CoreVersion, CoreVersionId, DecidedBy,
    MemoryAttributes, MemoryId, MemoryRecord, MemoryStatus, ProposedItem, RelatedItem, Section,
};

/// The memories table, written. A scoped view stamps what it writes with its user and refuses
/// another user's rows.
pub(crate) trait MemoryWrites {
    /// Adds a memory row; returns its rowid.
    fn insert(
        &self,
        id: &MemoryId,
        content: &str,
        status: MemoryStatus,
        ts: i64,
        changeset: ChangesetId,
        attributes: &MemoryAttributes,
    ) -> Result<i64>;
    /// Sets a memory's status (and the changeset that superseded it).
    fn set_status(&self, rowid: i64, status: MemoryStatus, superseded_by: Option<ChangesetId>, ts: i64) -> Result<()>;
    /// Makes a pending memory active with timestamp `ts`.
    fn activate_pending(&self, rowid: i64, ts: i64) -> Result<()>;
    /// Deletes a pending memory (a rejected or rebuilt proposal).
    fn delete_pending(&self, rowid: i64) -> Result<()>;
    /// Writes an exported memory back as it was; returns its rowid.
    fn restore(&self, memory: &MemoryRecord) -> Result<i64>;
    /// Pins or unpins a memory (any status), as of `ts`.
    fn set_pinned(&self, rowid: i64, pinned: bool, ts: i64) -> Result<()>;
    /// Adds `(memory, hits, last_ms)` returns to the access statistics inside this
    /// transaction (a copy from another store); see [`super::Backend::record_access`].
    fn add_access(&self, entries: &[(MemoryId, u64, i64)]) -> Result<()>;
    /// Blanks memory `rowid`'s text, source and metadata and makes its status `forgotten`,
    /// as of `ts` (its type, importance and the ids of who wrote it and for whom hold no
    /// text of it and stay; so does the row, so that history still points at it). What
    /// else a forget removes is [`crate::store::forgetting`]'s.
    fn blank(&self, rowid: i64, ts: i64) -> Result<()>;
    /// Deletes every memory of user `user_id`, in any status; returns how many.
    fn delete_of_user(&self, user_id: &str) -> Result<usize>;
}

/// The full-text index, written (the engine indexes a memory's text as it becomes active).
/// A scoped view passes the whole group through.
pub(crate) trait TextIndexWrites {
    /// Indexes a memory's text for full-text search.
    fn insert(&self, rowid: i64, content: &str) -> Result<()>;
    /// Removes a memory's text from the full-text index; `content` is the text it was
    /// indexed with.
    fn remove(&self, rowid: i64, content: &str) -> Result<()>;
}

/// The changesets table, written. A scoped view stamps and checks its user.
pub(crate) trait ChangesetWrites {
    /// Adds a changeset; returns its id.
    fn insert(&self, changeset: &Changeset) -> Result<ChangesetId>;
    /// Writes an exported changeset back with its own id.
    fn restore(&self, changeset: &Changeset) -> Result<()>;
    /// Records, on import, which changeset reverted `id`.
    fn restore_reverted_by(&self, id: ChangesetId, by: ChangesetId) -> Result<()>;
    /// Replaces a changeset's proposed items.
    fn write_proposed(&self, id: ChangesetId, proposed: &[ProposedItem]) -> Result<()>;
    /// Replaces a changeset's warnings.
    fn set_warnings(&self, id: ChangesetId, warnings: &[String]) -> Result<()>;
    /// Records which related memories a changeset keeps.
    fn write_related_kept(&self, id: ChangesetId, related: &[RelatedItem]) -> Result<()>;
    /// Records a decision on a changeset.
    fn decide(&self, id: ChangesetId, status: ChangesetStatus, by: DecidedBy, ts: i64) -> Result<()>;
    /// Makes a decided changeset pending again (it is being rebuilt).
    fn reopen(&self, id: ChangesetId) -> Result<()>;
    /// Records that `by` reverted changeset `id`.
    fn set_reverted_by(&self, id: ChangesetId, by: ChangesetId) -> Result<()>;
    /// Rewrites every text a changeset records (inputs, raw input, core before and after,
    /// LLM exchanges, warnings, the items' text, its forget record) from `changeset`.
    fn rewrite_text(&self, changeset: &Changeset) -> Result<()>;
    /// Blanks the text of every item, of any changeset, that names one of these memories.
    fn blank_items_naming(&self, memories: &[MemoryId]) -> Result<()>;
    /// Deletes every changeset made for user `user_id`, with its items, after clearing what
    /// points at them from what stays (reverts, core versions, memories); returns how many.
    fn delete_of_user(&self, user_id: &str) -> Result<usize>;
}

/// The core versions and section locks, written. A scoped view passes the whole group through.
pub(crate) trait CoreWrites {
    /// Adds a core version; returns its id.
    fn insert(
        &self,
        content: &str,
        author: CoreAuthor,
        changeset: Option<ChangesetId>,
        ts: i64,
    ) -> Result<CoreVersionId>;
    /// Locks or unlocks a core section.
    fn set_lock(&self, section: Section, locked: bool, ts: i64) -> Result<()>;
    /// Removes every core version (an import into a fresh store replaces the template's).
    fn delete_all(&self) -> Result<()>;
    /// Writes an exported core version back with its own id.
    fn restore(&self, version: &CoreVersion) -> Result<()>;
    /// Replaces the text of a core version in place (forgetting blanks text in history).
    fn rewrite(&self, id: CoreVersionId, content: &str) -> Result<()>;
}

/// The vectors, written. A scoped view passes the whole group through.
pub(crate) trait VectorWrites {
    /// Starts keeping vectors of `dims` dimensions (an empty set).
    fn create(&self, dims: usize) -> Result<()>;
    /// Stops keeping vectors: every vector is dropped (a re-embedding's staged ones stay;
    /// see [`VectorWrites::drop_staging`]).
    fn drop_all(&self) -> Result<()>;
    /// Stores memory `rowid`'s vector, active.
    fn insert(&self, rowid: i64, vector: &[f32]) -> Result<()>;
    /// Stores memory `rowid`'s vector, active or not (a superseded memory's).
    fn insert_with_status(&self, rowid: i64, vector: &[f32], active: bool) -> Result<()>;
    /// Marks a vector active or not (searches see active ones only); `false` when memory
    /// `rowid` has none.
    fn set_active(&self, rowid: i64, active: bool) -> Result<bool>;
    /// Starts (or restarts) a re-embedding's staged vectors of `dims` dimensions, empty.
    fn start_staging(&self, dims: usize) -> Result<()>;
    /// Drops a re-embedding's staged vectors.
    fn drop_staging(&self) -> Result<()>;
    /// Stages memory `rowid`'s new vector.
    fn stage(&self, rowid: i64, vector: &[f32], active: bool) -> Result<()>;
    /// Makes the staged vectors the store's vectors.
    fn promote_staging(&self) -> Result<()>;
    /// Removes memory `rowid`'s vector, live and staged, wherever the store keeps one.
    fn remove(&self, rowid: i64) -> Result<()>;
}

/// Agents' state, written. A scoped view passes the whole group through.
pub(crate) trait AgentStateWrites {
    /// Sets one key of an agent's state (`value` is JSON text) and records the change.
    fn put(&self, agent_id: &str, key: &str, value: &str, ts: i64) -> Result<()>;
    /// Deletes one key of an agent's state and records it; false when there was none.
    fn delete(&self, agent_id: &str, key: &str, ts: i64) -> Result<bool>;
    /// Removes one entry, now or in history.
    fn remove_entry(&self, entry: &AgentStateEntry) -> Result<()>;
    /// Replaces the value (JSON text) of one entry, now or in history, in place.
    fn set_entry_value(&self, entry: &AgentStateEntry, value: &str) -> Result<()>;
}

/// Agent keys, written. A scoped view passes the whole group through.
pub(crate) trait AgentKeyWrites {
    /// Adds a key with the SHA-256 (hex) of its secret; an error if the name is taken.
    fn insert(&self, key: &AgentKey, sha256: &str) -> Result<()>;
    /// Gives key `name` a new secret (its SHA-256); false when there is no such key.
    fn set_sha256(&self, name: &str, sha256: &str) -> Result<bool>;
    /// Marks key `name` revoked at `ts`; false when there is no such key or it was revoked.
    fn revoke(&self, name: &str, ts: i64) -> Result<bool>;
    /// Records that key `name` was used at `ts`.
    fn touch(&self, name: &str, ts: i64) -> Result<()>;
}
