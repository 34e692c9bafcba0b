//! The store's boundary: what the engine asks of a backend, in the engine's own terms.
//!
//! A backend opens a store and hands the engine a [`Reader`] for read-only work or a
//! [`Writer`] inside one all-or-nothing transaction. Every row the engine reads or writes
//! goes through these two traits, so a second backend (PostgreSQL) implements them and
//! nothing above `store/` changes. The embedded one is [`super::sqlite`].
//!
//! Memories are addressed by their store-wide row number (`rowid`, an `i64` the backend
//! hands out on insert) inside the engine and by their [`MemoryId`] outside it.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use super::{MetaKey, WorkLock};
use crate::error::Result;
use crate::types::{
    AccessStats, AgentState, AgentStateChange, Changeset, ChangesetFilter, ChangesetId, ChangesetStatus,
    ChangesetSummary, CoreAuthor, CoreVersion, CoreVersionId, DecidedBy, MemoryAttributes, MemoryFilter, MemoryId,
    MemoryRecord, MemoryStatus, ProposedItem, PurgeReceipt, RelatedItem, Section,
};

/// How many candidates a nearest-vector lookup should consider: the backend's approximate
/// pass widens its pool by what the caller is after.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pool {
    /// For a search's top `n`: the pool grows with the store.
    Search(usize),
    /// For neighbours within a merge's distance cutoff: close ones, which an approximate
    /// pass ranks well, so the pool of a top `k` is enough at any size.
    Close(usize),
}

/// `(rowid, score)` pairs, best first: a cosine distance (lower is nearer) for vectors, a
/// BM25 score (lower is better) for full text.
pub(crate) type Ranked = Vec<(i64, f64)>;

/// The two signals a search fuses.
#[derive(Debug, Default)]
pub(crate) struct Signals {
    /// The nearest active memories by vector.
    pub vector: Ranked,
    /// The best full-text matches.
    pub lexical: Ranked,
}

/// One change of an agent's state: `(agent id, key, value as JSON text or None for a
/// delete, when in Unix ms)`.
pub(crate) type AgentStateLogEntry = (String, String, Option<String>, i64);

/// A memory whose vector is still to be made: `(rowid, text, active)`.
pub(crate) type Unembedded = (i64, String, bool);

/// Read-only work on a store. Every method sees one consistent state of the store (the
/// transaction of the [`Writer`] it belongs to, when it does).
pub(crate) trait Reader {
    /// A value the store records about itself.
    fn meta(&self, key: MetaKey) -> Result<Option<String>>;

    /// Active memories that pass `filter`, newest first: `count` of them after skipping
    /// `offset`.
    fn latest(&self, offset: usize, count: usize, filter: &MemoryFilter) -> Result<Vec<MemoryRecord>>;
    /// Active memories that pass `filter` and are older than `(before_ms, before_id)` in
    /// latest order, newest first.
    fn latest_before(
        &self,
        before_ms: i64,
        before_id: &MemoryId,
        count: usize,
        filter: &MemoryFilter,
    ) -> Result<Vec<MemoryRecord>>;
    /// Memories by row, in any status; rows that do not exist are left out.
    fn memories_by_rowids(&self, rowids: &[i64]) -> Result<HashMap<i64, MemoryRecord>>;
    /// One memory by id, in any status, with its row.
    fn memory_by_id(&self, id: &MemoryId) -> Result<Option<(i64, MemoryRecord)>>;
    /// How many memories have `status` and pass `filter`.
    fn count_memories(&self, status: MemoryStatus, filter: &MemoryFilter) -> Result<usize>;
    /// Whether any memory exists, in any status.
    fn any_memory(&self) -> Result<bool>;
    /// Whether any memory has one of `statuses`.
    fn any_memory_with(&self, statuses: &[MemoryStatus]) -> Result<bool>;
    /// Every memory in every status, oldest row first (export).
    fn all_memories(&self) -> Result<Vec<MemoryRecord>>;
    /// The memories (any status but forgotten) that changeset `changeset` replaced.
    fn memories_replaced_by(&self, changeset: ChangesetId) -> Result<Vec<(i64, MemoryRecord)>>;
    /// The memories (any status but forgotten) whose text contains `phrase`, letter case
    /// ignored, oldest first.
    fn memories_containing(&self, phrase: &str) -> Result<Vec<(i64, MemoryRecord)>>;

    /// One changeset, whole.
    fn changeset(&self, id: ChangesetId) -> Result<Option<Changeset>>;
    /// Changesets (only those made for user `owner`, when given), newest first.
    fn changesets(&self, filter: ChangesetFilter, owner: Option<&str>) -> Result<Vec<Changeset>>;
    /// A page of changesets (only `owner`'s, when given) older than `before`, newest first.
    fn changeset_page(
        &self,
        filter: ChangesetFilter,
        owner: Option<&str>,
        before: Option<ChangesetId>,
        limit: usize,
    ) -> Result<Vec<Changeset>>;
    /// A page of changeset summaries (only `owner`'s, when given) older than `before`,
    /// newest first, without the items.
    fn changeset_summaries(
        &self,
        owner: Option<&str>,
        before: Option<ChangesetId>,
        limit: usize,
    ) -> Result<Vec<ChangesetSummary>>;
    /// Whether any changeset exists.
    fn any_changeset(&self) -> Result<bool>;
    /// How many changesets (only `owner`'s, when given) wait for review.
    fn count_pending_changesets(&self, owner: Option<&str>) -> Result<usize>;

    /// The newest core version.
    fn latest_core_version(&self) -> Result<Option<CoreVersion>>;
    /// One core version.
    fn core_version(&self, id: CoreVersionId) -> Result<Option<CoreVersion>>;
    /// Every core version, oldest first.
    fn core_versions(&self) -> Result<Vec<CoreVersion>>;
    /// The locked core sections.
    fn core_locks(&self) -> Result<BTreeSet<Section>>;

    /// Whether the store keeps vectors (it is searched by meaning, not only by words).
    fn has_vectors(&self) -> Result<bool>;
    /// Whether a re-embedding's staged vectors exist.
    fn has_staged_vectors(&self) -> Result<bool>;
    /// Memories (active or superseded) without a staged vector yet, up to `limit`.
    fn unstaged_vectors(&self, limit: usize) -> Result<Vec<Unembedded>>;
    /// `(total, staged)` memories of a re-embedding.
    fn staging_progress(&self) -> Result<(usize, usize)>;
    /// Memories (active or superseded) without a vector, up to `limit`.
    fn missing_vectors(&self, limit: usize) -> Result<Vec<Unembedded>>;
    /// How many memories lack a vector.
    fn missing_vector_count(&self) -> Result<usize>;
    /// `Some(active)` when memory `rowid` still lacks a vector; `None` when it has one or is
    /// gone.
    fn still_missing_vector(&self, rowid: i64) -> Result<Option<bool>>;

    /// The `k` active memories nearest to `query` by cosine distance, nearest first; the
    /// backend may answer approximately, widening its candidates by `pool`.
    /// Only memories that pass `filter` are considered (inside the search, not afterwards).
    fn nearest(&self, query: &[f32], k: usize, pool: Pool, filter: &MemoryFilter) -> Result<Ranked>;
    /// The exact `k` nearest active memories (the yardstick of [`Reader::nearest`]).
    fn nearest_exact(&self, query: &[f32], k: usize) -> Result<Ranked>;
    /// One key of an agent's state.
    fn agent_state(&self, agent_id: &str, key: &str) -> Result<Option<AgentState>>;
    /// Every key of an agent's state, by key.
    fn agent_states(&self, agent_id: &str) -> Result<Vec<AgentState>>;
    /// Agent state entries (now and in history) of which `matches` holds for the agent id,
    /// the key or the value.
    fn count_agent_state(&self, matches: &dyn Fn(&str) -> bool) -> Result<usize>;
    /// Every change of one key of an agent's state, oldest first.
    fn agent_state_history(&self, agent_id: &str, key: &str) -> Result<Vec<AgentStateChange>>;
    /// Every change of every agent's state, oldest first: replaying them (a put for a
    /// value, a delete for none) makes the same state and history (a copy to another store).
    fn agent_state_log(&self) -> Result<Vec<AgentStateLogEntry>>;
    /// Every vector the store keeps for its memories, `(rowid, vector)` (a copy to another
    /// store).
    fn all_vectors(&self) -> Result<Vec<(i64, Vec<f32>)>>;
    /// How often each of these memories was returned, as recorded so far (rows never
    /// returned are left out).
    fn access_stats(&self, rowids: &[i64]) -> Result<HashMap<i64, AccessStats>>;
    /// Every memory's recorded returns, `(memory, hits, last_ms)` (a copy to another store).
    fn all_access_stats(&self) -> Result<Vec<(MemoryId, u64, i64)>>;
    /// The cosine distance of `query` to each of these memories that has a vector.
    fn distances(&self, query: &[f32], rowids: &[i64]) -> Result<HashMap<i64, f64>>;
    /// The `k` best full-text matches of any of `words` (as [`crate::text::terms::words`]
    /// makes them) among active memories, best first.
    fn full_text(&self, words: &[String], k: usize, filter: &MemoryFilter) -> Result<Ranked>;
    /// The `k` best full-text matches of any word of `text` among active memories, every
    /// word counted however common (few memories are looked up this way: a merge's
    /// neighbours when the store has no vectors).
    fn full_text_any(&self, text: &str, k: usize, filter: &MemoryFilter) -> Result<Ranked>;
    /// Both signals of a hybrid search: the `k` nearest to `vector` (for a top `pool`) and
    /// the `k` best matches of `words`. A backend may run them at once.
    fn signals(
        &self,
        vector: &[f32],
        words: &[String],
        k: usize,
        pool: Pool,
        filter: &MemoryFilter,
    ) -> Result<Signals> {
        Ok(Signals {
            vector: self.nearest(vector, k, pool, filter)?,
            lexical: self.full_text(words, k, filter)?,
        })
    }
}

/// Work inside one write transaction: everything it does lands together or not at all.
pub(crate) trait Writer: Reader {
    /// Records a value about the store.
    fn set_meta(&self, key: MetaKey, value: &str) -> Result<()>;
    /// Removes a value about the store.
    fn delete_meta(&self, key: MetaKey) -> Result<()>;

    /// The next memory timestamp: now, or one more than the last one handed out by any
    /// process, whichever is later (timestamps strictly increase).
    fn next_timestamp(&self) -> Result<i64> {
        let last: i64 = self
            .meta(MetaKey::LastTimestamp)?
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        let ts = crate::types::now_ms().max(last + 1);
        self.set_meta(MetaKey::LastTimestamp, &ts.to_string())?;
        Ok(ts)
    }

    /// Adds a memory row; returns its rowid.
    fn insert_memory(
        &self,
        id: &MemoryId,
        content: &str,
        status: MemoryStatus,
        ts: i64,
        changeset: ChangesetId,
        attributes: &MemoryAttributes,
    ) -> Result<i64>;
    /// Sets a memory's status (and the changeset that superseded it).
    fn set_memory_status(
        &self,
        rowid: i64,
        status: MemoryStatus,
        superseded_by: Option<ChangesetId>,
        ts: i64,
    ) -> Result<()>;
    /// Makes a pending memory active with timestamp `ts`.
    fn activate_pending(&self, rowid: i64, ts: i64) -> Result<()>;
    /// Deletes a pending memory (a rejected or rebuilt proposal).
    fn delete_pending(&self, rowid: i64) -> Result<()>;
    /// Writes an exported memory back as it was; returns its rowid.
    fn restore_memory(&self, memory: &MemoryRecord) -> Result<i64>;
    /// Sets one key of an agent's state (`value` is JSON text) and records the change.
    fn put_agent_state(&self, agent_id: &str, key: &str, value: &str, ts: i64) -> Result<()>;
    /// Deletes one key of an agent's state and records it; false when there was none.
    fn delete_agent_state(&self, agent_id: &str, key: &str, ts: i64) -> Result<bool>;
    /// Removes the entries (now and in history) whose agent id or key `named` holds, and
    /// rewrites each other value that `redact` changes (forgetting); returns how many.
    fn redact_agent_state(
        &self,
        named: &dyn Fn(&str) -> bool,
        redact: &dyn Fn(&str) -> Option<String>,
    ) -> Result<usize>;
    /// Pins or unpins a memory (any status), as of `ts`.
    fn set_pinned(&self, rowid: i64, pinned: bool, ts: i64) -> Result<()>;

    /// Adds a changeset; returns its id.
    fn insert_changeset(&self, changeset: &Changeset) -> Result<ChangesetId>;
    /// Writes an exported changeset back with its own id.
    fn restore_changeset(&self, changeset: &Changeset) -> Result<()>;
    /// Adds `(memory, hits, last_ms)` returns to the access statistics inside this
    /// transaction (a copy from another store); see [`Backend::record_access`].
    fn add_access(&self, entries: &[(MemoryId, u64, i64)]) -> Result<()>;
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

    /// Adds a core version; returns its id.
    fn insert_core_version(
        &self,
        content: &str,
        author: CoreAuthor,
        changeset: Option<ChangesetId>,
        ts: i64,
    ) -> Result<CoreVersionId>;
    /// Locks or unlocks a core section.
    fn set_core_lock(&self, section: Section, locked: bool, ts: i64) -> Result<()>;
    /// Removes every core version (an import into a fresh store replaces the template's).
    fn delete_core_versions(&self) -> Result<()>;
    /// Writes an exported core version back with its own id.
    fn restore_core_version(&self, version: &CoreVersion) -> Result<()>;
    /// Replaces the text of a core version in place (forgetting blanks text in history).
    fn rewrite_core_version(&self, id: CoreVersionId, content: &str) -> Result<()>;

    /// Removes every memory of user `user_id` (in any status), the changesets made for that
    /// user, and each copy of their text elsewhere (items of other changesets that name
    /// them), for good; the caller scrubs afterwards.
    fn purge_user(&self, user_id: &str) -> Result<PurgeReceipt>;
    /// Forgets memory `rowid`: out of full-text search and the vectors, its text blanked,
    /// its status `forgotten` (the row stays, so history still points at it).
    fn forget_memory(&self, rowid: i64, ts: i64) -> Result<()>;
    /// Rewrites every text a changeset records (inputs, raw input, core before and after,
    /// LLM exchanges, warnings, the items' text, its forget record) from `changeset`.
    fn rewrite_changeset_text(&self, changeset: &Changeset) -> Result<()>;

    /// Indexes a memory's text for full-text search.
    fn index_text(&self, rowid: i64, content: &str) -> Result<()>;
    /// Removes a memory's text from the full-text index; `content` is the text it was
    /// indexed with.
    fn unindex_text(&self, rowid: i64, content: &str) -> Result<()>;

    /// Starts keeping vectors of `dims` dimensions (an empty set).
    fn create_vectors(&self, dims: usize) -> Result<()>;
    /// Stops keeping vectors: every vector is dropped (a re-embedding's staged ones stay;
    /// see [`Writer::drop_staging`]).
    fn drop_vectors(&self) -> Result<()>;
    /// Stores memory `rowid`'s vector, active.
    fn insert_vector(&self, rowid: i64, vector: &[f32]) -> Result<()>;
    /// Stores memory `rowid`'s vector, active or not (a superseded memory's).
    fn insert_vector_with_status(&self, rowid: i64, vector: &[f32], active: bool) -> Result<()>;
    /// Marks a vector active or not (searches see active ones only); `false` when memory
    /// `rowid` has none.
    fn set_vector_active(&self, rowid: i64, active: bool) -> Result<bool>;
    /// Starts (or restarts) a re-embedding's staged vectors of `dims` dimensions, empty.
    fn start_staging(&self, dims: usize) -> Result<()>;
    /// Drops a re-embedding's staged vectors.
    fn drop_staging(&self) -> Result<()>;
    /// Stages memory `rowid`'s new vector.
    fn stage_vector(&self, rowid: i64, vector: &[f32], active: bool) -> Result<()>;
    /// Makes the staged vectors the store's vectors.
    fn promote_staging(&self) -> Result<()>;
}

/// A way to keep stores: it runs read and write work and says when another process wrote.
///
/// The closures are `FnMut` so that the trait stays object-safe; [`super::Store`] calls
/// each exactly once and gives the engine `FnOnce` methods.
pub(crate) trait Backend: Send + Sync + std::fmt::Debug {
    /// Runs read-only work.
    fn read_with(&self, work: &mut dyn FnMut(&dyn Reader) -> Result<()>) -> Result<()>;
    /// Runs work in one transaction that holds the store's write lock from the start and
    /// commits only if the work succeeds.
    fn write_with(&self, work: &mut dyn FnMut(&dyn Writer) -> Result<()>) -> Result<()>;
    /// Adds `(memory, hits, last_ms)` returns to the access statistics, in one transaction
    /// of its own that no [`Backend::change_counter`] reports (a front end that refreshed on
    /// it would search again and count again, for ever). Memories no longer in the store are
    /// skipped.
    fn record_access(&self, entries: &[(MemoryId, u64, i64)]) -> Result<()>;
    /// A number that changes when another connection commits a change (access statistics
    /// aside).
    fn change_counter(&self) -> Result<i64>;
    /// The text of core.md; `None` when there is none yet.
    fn read_core(&self) -> Result<Option<String>>;
    /// Replaces core.md, atomically.
    fn write_core(&self, text: &str) -> Result<()>;
    /// Where the store is when it is not its folder (a PostgreSQL URL, without a password).
    fn address(&self) -> Option<String> {
        None
    }
    /// Where core.md is a file people may edit (and a watch should follow), if it is one.
    fn core_file(&self) -> Option<PathBuf>;
    /// Keeps every other process that opens the store, on this machine or another, from
    /// re-embedding or catching up vectors while the returned guard lives, so that two never
    /// fill the same table at once. `None` at once when another holds it and `wait` is
    /// false. A folder's store locks `<dir>/.vectors.lock`.
    fn lock_vector_work(&self, dir: &Path, wait: bool) -> Result<Option<WorkLock>> {
        super::work_lock::lock_file(dir, wait)
    }
    /// Leaves no copy of text removed by earlier commits anywhere the backend keeps data
    /// (free pages, old index segments, logs). Returns false when it could not finish
    /// because another connection was using the data; calling it again later finishes it.
    fn scrub(&self) -> Result<bool>;
}
