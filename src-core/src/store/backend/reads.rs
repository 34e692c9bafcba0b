//! The questions a backend answers, a group per table: [`super::Reader`] hands out each
//! group, so that a scoped view ([`crate::store::scoped`]) takes a whole group through (or
//! refuses it) in one line. A new question is one declaration here and one body per backend;
//! in a group a user owns, the scoped view must also say how it narrows the answer.

use std::collections::{BTreeSet, HashMap};

use super::{AgentStateEntry, AgentStateLogEntry, Pool, Ranked, Signals, Unembedded};
use crate::error::Result;
use crate::types::{
    AccessStats, AgentKey, AgentState, AgentStateChange, Changeset, ChangesetFilter, ChangesetId, ChangesetSummary,
    CoreVersion, CoreVersionId, MemoryFilter, MemoryId, MemoryRecord, MemoryStatus, Section,
};

/// The memories table: a user's memories, read. A scoped view answers each of these for its
/// user only.
pub(crate) trait MemoryReads {
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
    fn by_rowids(&self, rowids: &[i64]) -> Result<HashMap<i64, MemoryRecord>>;
    /// One memory by id, in any status, with its row.
    fn by_id(&self, id: &MemoryId) -> Result<Option<(i64, MemoryRecord)>>;
    /// How many memories have `status` and pass `filter`.
    fn count(&self, status: MemoryStatus, filter: &MemoryFilter) -> Result<usize>;
    /// Whether any memory exists, in any status.
    fn any(&self) -> Result<bool>;
    /// Whether any memory has one of `statuses`.
    fn any_with(&self, statuses: &[MemoryStatus]) -> Result<bool>;
    /// Every memory in every status, oldest row first (export).
    fn all(&self) -> Result<Vec<MemoryRecord>>;
    /// The memories (any status but forgotten) that changeset `changeset` replaced.
    fn replaced_by(&self, changeset: ChangesetId) -> Result<Vec<(i64, MemoryRecord)>>;
    /// Every memory but the forgotten ones, in any other status, oldest row first (what a
    /// forget looks through).
    fn remembered(&self) -> Result<Vec<(i64, MemoryRecord)>>;
    /// Every memory of user `user_id`, in any status, oldest row first.
    fn of_user(&self, user_id: &str) -> Result<Vec<(i64, MemoryRecord)>>;
    /// How often each of these memories was returned, as recorded so far (rows never
    /// returned are left out).
    fn access_stats(&self, rowids: &[i64]) -> Result<HashMap<i64, AccessStats>>;
}

/// The indexes a search asks: nearest vectors and full-text matches, among active memories
/// that pass a filter. A scoped view narrows each filter to its user.
pub(crate) trait SearchReads {
    /// The `k` active memories nearest to `query` by cosine distance, nearest first; the
    /// backend may answer approximately, widening its candidates by `pool`.
    /// Only memories that pass `filter` are considered (inside the search, not afterwards).
    fn nearest(&self, query: &[f32], k: usize, pool: Pool, filter: &MemoryFilter) -> Result<Ranked>;
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

/// The changesets table, read. A scoped view answers each of these for its user only.
pub(crate) trait ChangesetReads {
    /// One changeset, whole.
    fn get(&self, id: ChangesetId) -> Result<Option<Changeset>>;
    /// Changesets (only those made for user `owner`, when given), newest first.
    fn list(&self, filter: ChangesetFilter, owner: Option<&str>) -> Result<Vec<Changeset>>;
    /// A page of changesets (only `owner`'s, when given) older than `before`, newest first.
    fn page(
        &self,
        filter: ChangesetFilter,
        owner: Option<&str>,
        before: Option<ChangesetId>,
        limit: usize,
    ) -> Result<Vec<Changeset>>;
    /// A page of changeset summaries (only `owner`'s, and only those made through agent key
    /// `made_by`, when given) older than `before`, newest first, without the items.
    fn summaries(
        &self,
        owner: Option<&str>,
        made_by: Option<&str>,
        before: Option<ChangesetId>,
        limit: usize,
    ) -> Result<Vec<ChangesetSummary>>;
    /// Whether any changeset exists.
    fn any(&self) -> Result<bool>;
    /// How many changesets (only `owner`'s, when given) wait for review.
    fn count_pending(&self, owner: Option<&str>) -> Result<usize>;
}

/// The core versions and section locks. Shared by every user: a scoped view passes the whole
/// group through.
pub(crate) trait CoreReads {
    /// The newest core version.
    fn latest(&self) -> Result<Option<CoreVersion>>;
    /// One core version.
    fn version(&self, id: CoreVersionId) -> Result<Option<CoreVersion>>;
    /// Every core version, oldest first.
    fn versions(&self) -> Result<Vec<CoreVersion>>;
    /// The locked core sections.
    fn locks(&self) -> Result<BTreeSet<Section>>;
}

/// The vectors' bookkeeping: which memories still need one and a re-embedding's progress.
/// The engine's own upkeep, not a user's view: a scoped view passes the whole group through.
pub(crate) trait VectorReads {
    /// Whether the store keeps vectors (it is searched by meaning, not only by words).
    fn exist(&self) -> Result<bool>;
    /// Whether a re-embedding's staged vectors exist.
    fn staged_exist(&self) -> Result<bool>;
    /// Memories (active or superseded) without a staged vector yet, up to `limit`.
    fn unstaged(&self, limit: usize) -> Result<Vec<Unembedded>>;
    /// `(total, staged)` memories of a re-embedding.
    fn staging_progress(&self) -> Result<(usize, usize)>;
    /// Memories (active or superseded) without a vector, up to `limit`.
    fn missing(&self, limit: usize) -> Result<Vec<Unembedded>>;
    /// How many memories lack a vector.
    fn missing_count(&self) -> Result<usize>;
    /// `Some(active)` when memory `rowid` still lacks a vector; `None` when it has one or is
    /// gone.
    fn still_missing(&self, rowid: i64) -> Result<Option<bool>>;
}

/// Agents' state and its history. No user owns it: a scoped view passes the whole group
/// through.
pub(crate) trait AgentStateReads {
    /// One key of an agent's state.
    fn get(&self, agent_id: &str, key: &str) -> Result<Option<AgentState>>;
    /// Every key of an agent's state, by key.
    fn all_of(&self, agent_id: &str) -> Result<Vec<AgentState>>;
    /// Every entry of every agent's state, now and in history (what a forget looks through).
    fn entries(&self) -> Result<Vec<AgentStateEntry>>;
    /// Every change of one key of an agent's state, oldest first.
    fn history(&self, agent_id: &str, key: &str) -> Result<Vec<AgentStateChange>>;
    /// Every change of every agent's state, oldest first: replaying them (a put for a
    /// value, a delete for none) makes the same state and history (a copy to another store).
    fn log(&self) -> Result<Vec<AgentStateLogEntry>>;
}

/// Agent keys. No user owns them: a scoped view passes the whole group through.
pub(crate) trait AgentKeyReads {
    /// The key named `name`.
    fn by_name(&self, name: &str) -> Result<Option<AgentKey>>;
    /// The key whose SHA-256 (hex) is `sha256`.
    fn by_sha256(&self, sha256: &str) -> Result<Option<AgentKey>>;
    /// Every key, revoked ones too, by name.
    fn all(&self) -> Result<Vec<AgentKey>>;
}

/// Questions about the whole store at once (a copy to another store, the exact yardstick of
/// vector search): a scoped view refuses the whole group.
pub(crate) trait WholeStoreReads {
    /// The exact `k` nearest active memories (the yardstick of [`SearchReads::nearest`]).
    fn nearest_exact(&self, query: &[f32], k: usize) -> Result<Ranked>;
    /// Every vector the store keeps for its memories, `(rowid, vector)` (a copy to another
    /// store).
    fn vectors(&self) -> Result<Vec<(i64, Vec<f32>)>>;
    /// Every memory's recorded returns, `(memory, hits, last_ms)` (a copy to another store).
    fn access_stats(&self) -> Result<Vec<(MemoryId, u64, i64)>>;
}
