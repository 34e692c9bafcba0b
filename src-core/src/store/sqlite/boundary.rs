//! The engine's [`Reader`] and [`Writer`] over one SQLite connection (inside a transaction
//! for a writer), with the vector codes, the term statistics and the second connection of
//! a hybrid search.

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use rusqlite::Connection;

use super::fts_terms::TermStats;
use super::side::SideReader;
use super::vector_index::VectorIndex;
use super::{access_stats, agent_state, changesets, core_versions, embedded, forget, fts, memories, purge, vectors};
use crate::error::Result;
use crate::store::MetaKey;
use crate::store::backend::{Pool, Ranked, Reader, Signals, Unembedded, Writer};
use crate::types::{
    AccessStats, AgentState, AgentStateChange, Changeset, ChangesetFilter, ChangesetId, ChangesetStatus,
    ChangesetSummary, CoreAuthor, CoreVersion, CoreVersionId, DecidedBy, MemoryAttributes, MemoryFilter, MemoryId,
    MemoryRecord, MemoryStatus, ProposedItem, PurgeReceipt, RelatedItem, Section,
};

/// A locked connection and what searches on it share. The connection's lock is held for
/// the access's life; the vector codes are locked only inside a vector lookup (always after
/// the connection, so the order never inverts).
pub(super) struct Boundary<'a> {
    pub(super) conn: &'a Connection,
    pub(super) index: &'a Mutex<VectorIndex>,
    pub(super) term_stats: &'a Arc<Mutex<TermStats>>,
    pub(super) side: &'a OnceLock<Option<SideReader>>,
    pub(super) db_path: PathBuf,
}

impl Boundary<'_> {
    /// The second connection, opened by the first hybrid search; `None` when it cannot be
    /// (only speed depends on it: the search then runs on this connection).
    fn side(&self) -> Option<&SideReader> {
        self.side.get_or_init(|| SideReader::open(&self.db_path).ok()).as_ref()
    }
}

impl Reader for Boundary<'_> {
    fn meta(&self, key: MetaKey) -> Result<Option<String>> {
        super::meta(self.conn, key)
    }

    fn latest(&self, offset: usize, count: usize, filter: &MemoryFilter) -> Result<Vec<MemoryRecord>> {
        let mut found = if filter.is_empty() {
            memories::latest(self.conn, offset, count)?
        } else {
            memories::latest_filtered(self.conn, None, offset, count, filter)?
        };
        embedded::mark(self.conn, found.iter_mut())?;
        Ok(found)
    }

    fn latest_before(
        &self,
        before_ms: i64,
        before_id: &MemoryId,
        count: usize,
        filter: &MemoryFilter,
    ) -> Result<Vec<MemoryRecord>> {
        let mut found = if filter.is_empty() {
            memories::latest_before(self.conn, before_ms, before_id, count)?
        } else {
            memories::latest_filtered(self.conn, Some((before_ms, before_id)), 0, count, filter)?
        };
        embedded::mark(self.conn, found.iter_mut())?;
        Ok(found)
    }

    fn memories_by_rowids(&self, rowids: &[i64]) -> Result<HashMap<i64, MemoryRecord>> {
        let mut found = memories::by_rowids(self.conn, rowids)?;
        embedded::mark(self.conn, found.values_mut())?;
        Ok(found)
    }

    fn memory_by_id(&self, id: &MemoryId) -> Result<Option<(i64, MemoryRecord)>> {
        let mut found = memories::by_id(self.conn, id)?;
        embedded::mark(self.conn, found.iter_mut().map(|(_, m)| m))?;
        Ok(found)
    }

    fn count_memories(&self, status: MemoryStatus, filter: &MemoryFilter) -> Result<usize> {
        memories::count(self.conn, status, filter)
    }

    fn any_memory(&self) -> Result<bool> {
        memories::any(self.conn)
    }

    fn any_memory_with(&self, statuses: &[MemoryStatus]) -> Result<bool> {
        memories::any_with(self.conn, statuses)
    }

    fn all_memories(&self) -> Result<Vec<MemoryRecord>> {
        let mut all = memories::all(self.conn)?;
        embedded::mark(self.conn, all.iter_mut())?;
        Ok(all)
    }

    fn memories_replaced_by(&self, changeset: ChangesetId) -> Result<Vec<(i64, MemoryRecord)>> {
        forget::superseded_by(self.conn, changeset)
    }

    fn memories_containing(&self, phrase: &str) -> Result<Vec<(i64, MemoryRecord)>> {
        forget::containing(self.conn, phrase)
    }

    fn changeset(&self, id: ChangesetId) -> Result<Option<Changeset>> {
        changesets::get(self.conn, id)
    }

    fn changesets(&self, filter: ChangesetFilter, owner: Option<&str>) -> Result<Vec<Changeset>> {
        changesets::page(self.conn, filter, owner, None, usize::MAX)
    }

    fn changeset_page(
        &self,
        filter: ChangesetFilter,
        owner: Option<&str>,
        before: Option<ChangesetId>,
        limit: usize,
    ) -> Result<Vec<Changeset>> {
        changesets::page(self.conn, filter, owner, before, limit)
    }

    fn changeset_summaries(
        &self,
        owner: Option<&str>,
        before: Option<ChangesetId>,
        limit: usize,
    ) -> Result<Vec<ChangesetSummary>> {
        changesets::summaries(self.conn, owner, before, limit)
    }

    fn any_changeset(&self) -> Result<bool> {
        changesets::any(self.conn)
    }

    fn count_pending_changesets(&self, owner: Option<&str>) -> Result<usize> {
        changesets::count_pending(self.conn, owner)
    }

    fn latest_core_version(&self) -> Result<Option<CoreVersion>> {
        core_versions::latest(self.conn)
    }

    fn core_version(&self, id: CoreVersionId) -> Result<Option<CoreVersion>> {
        core_versions::get(self.conn, id)
    }

    fn core_versions(&self) -> Result<Vec<CoreVersion>> {
        core_versions::list(self.conn)
    }

    fn core_locks(&self) -> Result<BTreeSet<Section>> {
        core_versions::locks(self.conn)
    }

    fn has_vectors(&self) -> Result<bool> {
        vectors::exists(self.conn)
    }

    fn has_staged_vectors(&self) -> Result<bool> {
        vectors::table_exists(self.conn, vectors::STAGING)
    }

    fn unstaged_vectors(&self, limit: usize) -> Result<Vec<Unembedded>> {
        vectors::unstaged(self.conn, limit)
    }

    fn staging_progress(&self) -> Result<(usize, usize)> {
        vectors::staging_progress(self.conn)
    }

    fn missing_vectors(&self, limit: usize) -> Result<Vec<Unembedded>> {
        vectors::missing(self.conn, limit)
    }

    fn missing_vector_count(&self) -> Result<usize> {
        vectors::missing_count(self.conn)
    }

    fn still_missing_vector(&self, rowid: i64) -> Result<Option<bool>> {
        vectors::still_missing(self.conn, rowid)
    }

    fn nearest(&self, query: &[f32], k: usize, pool: Pool, filter: &MemoryFilter) -> Result<Ranked> {
        let mut index = self.index.lock().unwrap_or_else(PoisonError::into_inner);
        vectors::nearest(self.conn, &mut index, query, k, pool, filter)
    }

    fn nearest_exact(&self, query: &[f32], k: usize) -> Result<Ranked> {
        vectors::nearest_exact(self.conn, query, k)
    }

    fn agent_state_log(&self) -> Result<Vec<crate::store::backend::AgentStateLogEntry>> {
        agent_state::log(self.conn)
    }

    fn all_vectors(&self) -> Result<Vec<(i64, Vec<f32>)>> {
        vectors::all(self.conn)
    }

    fn access_stats(&self, rowids: &[i64]) -> Result<HashMap<i64, AccessStats>> {
        access_stats::of_rows(self.conn, rowids)
    }

    fn all_access_stats(&self) -> Result<Vec<(MemoryId, u64, i64)>> {
        access_stats::all(self.conn)
    }

    fn distances(&self, query: &[f32], rowids: &[i64]) -> Result<HashMap<i64, f64>> {
        vectors::distances(self.conn, query, rowids)
    }

    fn agent_state(&self, agent_id: &str, key: &str) -> Result<Option<AgentState>> {
        agent_state::get(self.conn, agent_id, key)
    }

    fn count_agent_state(&self, matches: &dyn Fn(&str) -> bool) -> Result<usize> {
        agent_state::count(self.conn, matches)
    }

    fn agent_states(&self, agent_id: &str) -> Result<Vec<AgentState>> {
        agent_state::list(self.conn, agent_id)
    }

    fn agent_state_history(&self, agent_id: &str, key: &str) -> Result<Vec<AgentStateChange>> {
        agent_state::history(self.conn, agent_id, key)
    }

    fn full_text(&self, words: &[String], k: usize, filter: &MemoryFilter) -> Result<Ranked> {
        let mut stats = self.term_stats.lock().unwrap_or_else(PoisonError::into_inner);
        fts::search_terms(self.conn, &mut stats, words, k, filter)
    }

    fn full_text_any(&self, text: &str, k: usize, filter: &MemoryFilter) -> Result<Ranked> {
        fts::search(self.conn, text, k, filter)
    }

    /// The full-text half runs on the second connection, on its own thread, while this one
    /// runs the vector half.
    fn signals(
        &self,
        vector: &[f32],
        words: &[String],
        k: usize,
        pool: Pool,
        filter: &MemoryFilter,
    ) -> Result<Signals> {
        let Some(side) = self.side() else {
            return Ok(Signals {
                vector: self.nearest(vector, k, pool, filter)?,
                lexical: self.full_text(words, k, filter)?,
            });
        };
        let stats = Arc::clone(self.term_stats);
        let words = words.to_vec();
        let side_filter = filter.clone();
        let lexical = side.start(move |side_conn| {
            let mut stats = stats.lock().unwrap_or_else(PoisonError::into_inner);
            fts::search_terms(side_conn, &mut stats, &words, k, &side_filter)
        });
        let vector = self.nearest(vector, k, pool, filter);
        let lexical = lexical.wait();
        Ok(Signals {
            vector: vector?,
            lexical: lexical?,
        })
    }
}

impl Writer for Boundary<'_> {
    fn set_meta(&self, key: MetaKey, value: &str) -> Result<()> {
        super::set_meta(self.conn, key, value)
    }

    fn delete_meta(&self, key: MetaKey) -> Result<()> {
        super::delete_meta(self.conn, key)
    }

    fn insert_memory(
        &self,
        id: &MemoryId,
        content: &str,
        status: MemoryStatus,
        ts: i64,
        changeset: ChangesetId,
        attributes: &MemoryAttributes,
    ) -> Result<i64> {
        memories::insert(self.conn, id, content, status, ts, changeset, attributes)
    }

    fn set_memory_status(
        &self,
        rowid: i64,
        status: MemoryStatus,
        superseded_by: Option<ChangesetId>,
        ts: i64,
    ) -> Result<()> {
        memories::set_status(self.conn, rowid, status, superseded_by, ts)
    }

    fn activate_pending(&self, rowid: i64, ts: i64) -> Result<()> {
        memories::activate_pending(self.conn, rowid, ts)
    }

    fn delete_pending(&self, rowid: i64) -> Result<()> {
        memories::delete_pending(self.conn, rowid)
    }

    fn restore_memory(&self, memory: &MemoryRecord) -> Result<i64> {
        memories::restore(self.conn, memory)
    }

    fn set_pinned(&self, rowid: i64, pinned: bool, ts: i64) -> Result<()> {
        memories::set_pinned(self.conn, rowid, pinned, ts)
    }

    fn put_agent_state(&self, agent_id: &str, key: &str, value: &str, ts: i64) -> Result<()> {
        agent_state::put(self.conn, agent_id, key, value, ts)
    }

    fn delete_agent_state(&self, agent_id: &str, key: &str, ts: i64) -> Result<bool> {
        agent_state::delete(self.conn, agent_id, key, ts)
    }

    fn redact_agent_state(
        &self,
        named: &dyn Fn(&str) -> bool,
        redact: &dyn Fn(&str) -> Option<String>,
    ) -> Result<usize> {
        agent_state::redact(self.conn, named, redact)
    }

    fn insert_changeset(&self, changeset: &Changeset) -> Result<ChangesetId> {
        changesets::insert(self.conn, changeset)
    }

    fn restore_changeset(&self, changeset: &Changeset) -> Result<()> {
        changesets::restore(self.conn, changeset)
    }

    fn add_access(&self, entries: &[(MemoryId, u64, i64)]) -> Result<()> {
        access_stats::record(self.conn, entries)
    }

    fn restore_reverted_by(&self, id: ChangesetId, by: ChangesetId) -> Result<()> {
        changesets::restore_reverted_by(self.conn, id, by)
    }

    fn write_proposed(&self, id: ChangesetId, proposed: &[ProposedItem]) -> Result<()> {
        changesets::write_proposed(self.conn, id, proposed)
    }

    fn set_warnings(&self, id: ChangesetId, warnings: &[String]) -> Result<()> {
        changesets::set_warnings(self.conn, id, warnings)
    }

    fn write_related_kept(&self, id: ChangesetId, related: &[RelatedItem]) -> Result<()> {
        changesets::write_related_kept(self.conn, id, related)
    }

    fn decide(&self, id: ChangesetId, status: ChangesetStatus, by: DecidedBy, ts: i64) -> Result<()> {
        changesets::decide(self.conn, id, status, by, ts)
    }

    fn reopen(&self, id: ChangesetId) -> Result<()> {
        changesets::reopen(self.conn, id)
    }

    fn set_reverted_by(&self, id: ChangesetId, by: ChangesetId) -> Result<()> {
        changesets::set_reverted_by(self.conn, id, by)
    }

    fn insert_core_version(
        &self,
        content: &str,
        author: CoreAuthor,
        changeset: Option<ChangesetId>,
        ts: i64,
    ) -> Result<CoreVersionId> {
        core_versions::insert(self.conn, content, author, changeset, ts)
    }

    fn set_core_lock(&self, section: Section, locked: bool, ts: i64) -> Result<()> {
        core_versions::set_lock(self.conn, section, locked, ts)
    }

    fn delete_core_versions(&self) -> Result<()> {
        core_versions::delete_all(self.conn)
    }

    fn restore_core_version(&self, version: &CoreVersion) -> Result<()> {
        core_versions::restore(self.conn, version)
    }

    fn rewrite_core_version(&self, id: CoreVersionId, content: &str) -> Result<()> {
        forget::rewrite_core_version(self.conn, id, content)
    }

    fn purge_user(&self, user_id: &str) -> Result<PurgeReceipt> {
        purge::purge_user(self.conn, user_id)
    }

    fn forget_memory(&self, rowid: i64, ts: i64) -> Result<()> {
        forget::forget_memory(self.conn, rowid, ts)
    }

    fn rewrite_changeset_text(&self, changeset: &Changeset) -> Result<()> {
        changesets::rewrite_text(self.conn, changeset)
    }

    fn index_text(&self, rowid: i64, content: &str) -> Result<()> {
        fts::insert(self.conn, rowid, content)
    }

    fn unindex_text(&self, rowid: i64, content: &str) -> Result<()> {
        fts::delete(self.conn, rowid, content)
    }

    /// SQLite keeps vectors of any length: `dims` is the store's to check.
    fn create_vectors(&self, _dims: usize) -> Result<()> {
        vectors::create(self.conn)
    }

    fn drop_vectors(&self) -> Result<()> {
        vectors::drop(self.conn)
    }

    fn insert_vector(&self, rowid: i64, vector: &[f32]) -> Result<()> {
        vectors::insert(self.conn, rowid, vector)
    }

    fn insert_vector_with_status(&self, rowid: i64, vector: &[f32], active: bool) -> Result<()> {
        vectors::insert_with_status(self.conn, rowid, vector, active)
    }

    fn set_vector_active(&self, rowid: i64, active: bool) -> Result<bool> {
        vectors::set_active(self.conn, rowid, active)
    }

    fn start_staging(&self, _dims: usize) -> Result<()> {
        vectors::drop_table(self.conn, vectors::STAGING)?;
        vectors::create_table(self.conn, vectors::STAGING)
    }

    fn drop_staging(&self) -> Result<()> {
        vectors::drop_table(self.conn, vectors::STAGING)
    }

    fn stage_vector(&self, rowid: i64, vector: &[f32], active: bool) -> Result<()> {
        vectors::insert_staged(self.conn, rowid, vector, active)
    }

    fn promote_staging(&self) -> Result<()> {
        vectors::promote_staging(self.conn)
    }
}
