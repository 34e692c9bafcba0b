//! The engine's [`Reader`] and [`Writer`] over one PostgreSQL connection, inside the
//! transaction [`super::PgStore`] began.

use std::collections::{BTreeSet, HashMap};

use super::client::Conn;
use super::vectors::{STAGING, TABLE};
use super::{agent_state, changesets, core_versions, forget, memories, terms, vectors};
use crate::error::Result;
use crate::store::MetaKey;
use crate::store::backend::{Pool, Ranked, Reader, Unembedded, Writer};
use crate::types::{
    AccessStats, AgentState, AgentStateChange, Changeset, ChangesetFilter, ChangesetId, ChangesetStatus,
    ChangesetSummary, CoreAuthor, CoreVersion, CoreVersionId, DecidedBy, MemoryAttributes, MemoryFilter, MemoryId,
    MemoryRecord, MemoryStatus, ProposedItem, PurgeReceipt, RelatedItem, Section,
};

/// A connection inside a transaction.
pub(super) struct Boundary<'a> {
    conn: &'a Conn,
}

impl<'a> Boundary<'a> {
    pub(super) fn new(conn: &'a Conn) -> Self {
        Self { conn }
    }
}

impl Reader for Boundary<'_> {
    fn meta(&self, key: MetaKey) -> Result<Option<String>> {
        super::meta(self.conn, key)
    }

    fn latest(&self, offset: usize, count: usize, filter: &MemoryFilter) -> Result<Vec<MemoryRecord>> {
        let mut found = memories::latest(self.conn, None, offset, count, filter)?;
        memories::mark_embedded(self.conn, found.iter_mut())?;
        Ok(found)
    }

    fn latest_before(
        &self,
        before_ms: i64,
        before_id: &MemoryId,
        count: usize,
        filter: &MemoryFilter,
    ) -> Result<Vec<MemoryRecord>> {
        let mut found = memories::latest(self.conn, Some((before_ms, before_id)), 0, count, filter)?;
        memories::mark_embedded(self.conn, found.iter_mut())?;
        Ok(found)
    }

    fn memories_by_rowids(&self, rowids: &[i64]) -> Result<HashMap<i64, MemoryRecord>> {
        let mut found = memories::by_rowids(self.conn, rowids)?;
        memories::mark_embedded(self.conn, found.values_mut())?;
        Ok(found)
    }

    fn memory_by_id(&self, id: &MemoryId) -> Result<Option<(i64, MemoryRecord)>> {
        let mut found = memories::by_id(self.conn, id)?;
        memories::mark_embedded(self.conn, found.iter_mut().map(|(_, m)| m))?;
        Ok(found)
    }

    fn count_memories(&self, status: MemoryStatus, filter: &MemoryFilter) -> Result<usize> {
        memories::count(self.conn, status, filter)
    }

    fn any_memory(&self) -> Result<bool> {
        memories::any(self.conn, None)
    }

    fn any_memory_with(&self, statuses: &[MemoryStatus]) -> Result<bool> {
        memories::any(self.conn, Some(statuses))
    }

    fn all_memories(&self) -> Result<Vec<MemoryRecord>> {
        let mut all = memories::all(self.conn)?;
        memories::mark_embedded(self.conn, all.iter_mut())?;
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
        vectors::table_exists(self.conn, TABLE)
    }

    fn has_staged_vectors(&self) -> Result<bool> {
        vectors::table_exists(self.conn, STAGING)
    }

    fn unstaged_vectors(&self, limit: usize) -> Result<Vec<Unembedded>> {
        vectors::without_vector(self.conn, STAGING, limit)
    }

    fn staging_progress(&self) -> Result<(usize, usize)> {
        vectors::staging_progress(self.conn)
    }

    fn missing_vectors(&self, limit: usize) -> Result<Vec<Unembedded>> {
        vectors::without_vector(self.conn, TABLE, limit)
    }

    fn missing_vector_count(&self) -> Result<usize> {
        vectors::missing_count(self.conn)
    }

    fn still_missing_vector(&self, rowid: i64) -> Result<Option<bool>> {
        vectors::still_missing(self.conn, rowid)
    }

    fn nearest(&self, query: &[f32], k: usize, pool: Pool, filter: &MemoryFilter) -> Result<Ranked> {
        vectors::nearest(self.conn, query, k, pool, filter)
    }

    fn nearest_exact(&self, query: &[f32], k: usize) -> Result<Ranked> {
        vectors::nearest_exact(self.conn, query, k)
    }

    fn agent_state(&self, agent_id: &str, key: &str) -> Result<Option<AgentState>> {
        agent_state::get(self.conn, agent_id, key)
    }

    fn agent_states(&self, agent_id: &str) -> Result<Vec<AgentState>> {
        agent_state::list(self.conn, agent_id)
    }

    fn count_agent_state(&self, matches: &dyn Fn(&str) -> bool) -> Result<usize> {
        agent_state::count(self.conn, matches)
    }

    fn agent_state_history(&self, agent_id: &str, key: &str) -> Result<Vec<AgentStateChange>> {
        agent_state::history(self.conn, agent_id, key)
    }

    fn agent_state_log(&self) -> Result<Vec<crate::store::backend::AgentStateLogEntry>> {
        agent_state::log(self.conn)
    }

    fn all_vectors(&self) -> Result<Vec<(i64, Vec<f32>)>> {
        vectors::all(self.conn)
    }

    fn access_stats(&self, rowids: &[i64]) -> Result<HashMap<i64, AccessStats>> {
        forget::access_stats(self.conn, rowids)
    }

    fn all_access_stats(&self) -> Result<Vec<(MemoryId, u64, i64)>> {
        forget::all_access_stats(self.conn)
    }

    fn distances(&self, query: &[f32], rowids: &[i64]) -> Result<HashMap<i64, f64>> {
        vectors::distances(self.conn, query, rowids)
    }

    fn full_text(&self, words: &[String], k: usize, filter: &MemoryFilter) -> Result<Ranked> {
        terms::search(self.conn, words, k, filter, false)
    }

    fn full_text_any(&self, text: &str, k: usize, filter: &MemoryFilter) -> Result<Ranked> {
        terms::search_text(self.conn, text, k, filter)
    }
}

impl Writer for Boundary<'_> {
    fn set_meta(&self, key: MetaKey, value: &str) -> Result<()> {
        self.conn.execute(
            "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            &[&key.as_str(), &value],
        )?;
        Ok(())
    }

    fn delete_meta(&self, key: MetaKey) -> Result<()> {
        self.conn.execute("DELETE FROM meta WHERE key = $1", &[&key.as_str()])?;
        Ok(())
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

    fn set_pinned(&self, rowid: i64, pinned: bool, ts: i64) -> Result<()> {
        memories::set_pinned(self.conn, rowid, pinned, ts)
    }

    fn insert_changeset(&self, changeset: &Changeset) -> Result<ChangesetId> {
        changesets::insert(self.conn, changeset, None)
    }

    fn restore_changeset(&self, changeset: &Changeset) -> Result<()> {
        changesets::insert(self.conn, changeset, Some(changeset.id)).map(drop)
    }

    fn add_access(&self, entries: &[(MemoryId, u64, i64)]) -> Result<()> {
        forget::record_access(self.conn, entries)
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
        core_versions::rewrite(self.conn, id, content)
    }

    fn purge_user(&self, user_id: &str) -> Result<PurgeReceipt> {
        forget::purge_user(self.conn, user_id)
    }

    fn forget_memory(&self, rowid: i64, ts: i64) -> Result<()> {
        forget::forget_memory(self.conn, rowid, ts)
    }

    fn rewrite_changeset_text(&self, changeset: &Changeset) -> Result<()> {
        changesets::rewrite_text(self.conn, changeset)
    }

    fn index_text(&self, rowid: i64, content: &str) -> Result<()> {
        terms::index(self.conn, rowid, content)
    }

    /// The index keeps each memory's terms, so the text is not needed to remove them.
    fn unindex_text(&self, rowid: i64, _content: &str) -> Result<()> {
        terms::unindex(self.conn, rowid)
    }

    fn create_vectors(&self, dims: usize) -> Result<()> {
        vectors::create(self.conn, dims)
    }

    fn drop_vectors(&self) -> Result<()> {
        vectors::drop_table(self.conn, TABLE)
    }

    fn insert_vector(&self, rowid: i64, vector: &[f32]) -> Result<()> {
        vectors::insert(self.conn, TABLE, rowid, vector, true)
    }

    fn insert_vector_with_status(&self, rowid: i64, vector: &[f32], active: bool) -> Result<()> {
        vectors::insert(self.conn, TABLE, rowid, vector, active)
    }

    fn set_vector_active(&self, rowid: i64, active: bool) -> Result<bool> {
        vectors::set_active(self.conn, rowid, active)
    }

    fn start_staging(&self, dims: usize) -> Result<()> {
        vectors::drop_table(self.conn, STAGING)?;
        vectors::create_table(self.conn, STAGING, dims)
    }

    fn drop_staging(&self) -> Result<()> {
        vectors::drop_table(self.conn, STAGING)
    }

    fn stage_vector(&self, rowid: i64, vector: &[f32], active: bool) -> Result<()> {
        vectors::insert(self.conn, STAGING, rowid, vector, active)
    }

    fn promote_staging(&self) -> Result<()> {
        vectors::promote_staging(self.conn)
    }
}
