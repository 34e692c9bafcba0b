//! The store's boundary: what the engine asks of a backend, in the engine's own terms.
//!
//! A backend opens a store and hands the engine a [`Reader`] for read-only work or a
//! [`Writer`] inside one all-or-nothing transaction. Every row the engine reads or writes
//! goes through these two traits, so a second backend (PostgreSQL) implements them and
//! nothing above `store/` changes. The embedded one is [`super::sqlite`].
//!
//! Memories are addressed by their store-wide row number (`rowid`, an `i64` the backend
//! hands out on insert) inside the engine and by their [`MemoryId`] outside it.

mod reads;
mod writes;

use std::path::{Path, PathBuf};

pub(crate) use reads::{
    AgentKeyReads, AgentStateReads, ChangesetReads, CoreReads, MemoryReads, SearchReads, VectorReads, WholeStoreReads,
};
pub(crate) use writes::{
    AgentKeyWrites, AgentStateWrites, ChangesetWrites, CoreWrites, MemoryWrites, TextIndexWrites, VectorWrites,
};

use super::{MetaKey, WorkLock};
use crate::error::Result;
use crate::types::MemoryId;

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

/// Where an entry of agents' state is: the current value of its key, or one change in its
/// history (by the change's row).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AgentStatePlace {
    Current,
    History(i64),
}

/// One entry of agents' state, now or in history (a delete in history has no value).
#[derive(Debug, Clone)]
pub(crate) struct AgentStateEntry {
    pub place: AgentStatePlace,
    pub agent_id: String,
    pub key: String,
    /// JSON text.
    pub value: Option<String>,
}

/// A memory whose vector is still to be made: `(rowid, text, active)`.
pub(crate) type Unembedded = (i64, String, bool);

/// Read-only work on a store, a group of questions per table ([`reads`]). Every answer sees
/// one consistent state of the store (the transaction of the [`Writer`] it belongs to, when
/// it does).
pub(crate) trait Reader {
    /// A value the store records about itself.
    fn meta(&self, key: MetaKey) -> Result<Option<String>>;
    /// The memories table.
    fn memories(&self) -> &dyn MemoryReads;
    /// The vector and full-text indexes a search asks.
    fn search(&self) -> &dyn SearchReads;
    /// The changesets table.
    fn changesets(&self) -> &dyn ChangesetReads;
    /// The core versions and section locks.
    fn core(&self) -> &dyn CoreReads;
    /// The vectors' bookkeeping.
    fn vectors(&self) -> &dyn VectorReads;
    /// Agents' state.
    fn agents(&self) -> &dyn AgentStateReads;
    /// Agent keys.
    fn agent_keys(&self) -> &dyn AgentKeyReads;
    /// Questions about the whole store at once; an error for a view that sees part of it.
    fn whole(&self) -> Result<&dyn WholeStoreReads>;
}

/// Work inside one write transaction, a group of changes per table ([`writes`]):
/// everything it does lands together or not at all.
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

    /// The memories table.
    fn memories_mut(&self) -> &dyn MemoryWrites;
    /// The full-text index.
    fn text_index_mut(&self) -> &dyn TextIndexWrites;
    /// The changesets table.
    fn changesets_mut(&self) -> &dyn ChangesetWrites;
    /// The core versions and section locks.
    fn core_mut(&self) -> &dyn CoreWrites;
    /// The vectors.
    fn vectors_mut(&self) -> &dyn VectorWrites;
    /// Agents' state.
    fn agents_mut(&self) -> &dyn AgentStateWrites;
    /// Agent keys.
    fn agent_keys_mut(&self) -> &dyn AgentKeyWrites;
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
