//! The questions of [`crate::store::backend::reads`], answered on PostgreSQL.

use std::collections::{BTreeSet, HashMap};

use crate::error::Result;
use crate::store::backend::{
    AgentStateEntry, AgentStateReads, ChangesetReads, CoreReads, MemoryReads, Pool, Ranked, SearchReads, Unembedded,
    VectorReads, WholeStoreReads,
};
use crate::store::postgres::vectors::{STAGING, TABLE};
use crate::store::postgres::{agent_state, changesets, core_versions, forget, memories, terms, vectors};
use crate::types::{
    AccessStats, AgentState, AgentStateChange, Changeset, ChangesetFilter, ChangesetId, ChangesetSummary, CoreVersion,
    CoreVersionId, MemoryFilter, MemoryId, MemoryRecord, MemoryStatus, Section,
};

use super::Boundary;

impl MemoryReads for Boundary<'_> {
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

    fn by_rowids(&self, rowids: &[i64]) -> Result<HashMap<i64, MemoryRecord>> {
        let mut found = memories::by_rowids(self.conn, rowids)?;
        memories::mark_embedded(self.conn, found.values_mut())?;
        Ok(found)
    }

    fn by_id(&self, id: &MemoryId) -> Result<Option<(i64, MemoryRecord)>> {
        let mut found = memories::by_id(self.conn, id)?;
        memories::mark_embedded(self.conn, found.iter_mut().map(|(_, m)| m))?;
        Ok(found)
    }

    fn count(&self, status: MemoryStatus, filter: &MemoryFilter) -> Result<usize> {
        memories::count(self.conn, status, filter)
    }

    fn any(&self) -> Result<bool> {
        memories::any(self.conn, None)
    }

    fn any_with(&self, statuses: &[MemoryStatus]) -> Result<bool> {
        memories::any(self.conn, Some(statuses))
    }

    fn all(&self) -> Result<Vec<MemoryRecord>> {
        let mut all = memories::all(self.conn)?;
        memories::mark_embedded(self.conn, all.iter_mut())?;
        Ok(all)
    }

    fn replaced_by(&self, changeset: ChangesetId) -> Result<Vec<(i64, MemoryRecord)>> {
        forget::superseded_by(self.conn, changeset)
    }

    fn remembered(&self) -> Result<Vec<(i64, MemoryRecord)>> {
        memories::select(self.conn, "m.status <> 'forgotten'", &[])
    }

    fn of_user(&self, user_id: &str) -> Result<Vec<(i64, MemoryRecord)>> {
        memories::select(self.conn, "m.user_id = $1", &[&user_id])
    }

    fn access_stats(&self, rowids: &[i64]) -> Result<HashMap<i64, AccessStats>> {
        forget::access_stats(self.conn, rowids)
    }
}

impl SearchReads for Boundary<'_> {
    fn nearest(&self, query: &[f32], k: usize, pool: Pool, filter: &MemoryFilter) -> Result<Ranked> {
        vectors::nearest(self.conn, query, k, pool, filter)
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

impl ChangesetReads for Boundary<'_> {
    fn get(&self, id: ChangesetId) -> Result<Option<Changeset>> {
        changesets::get(self.conn, id)
    }

    fn list(&self, filter: ChangesetFilter, owner: Option<&str>) -> Result<Vec<Changeset>> {
        changesets::page(self.conn, filter, owner, None, usize::MAX)
    }

    fn page(
        &self,
        filter: ChangesetFilter,
        owner: Option<&str>,
        before: Option<ChangesetId>,
        limit: usize,
    ) -> Result<Vec<Changeset>> {
        changesets::page(self.conn, filter, owner, before, limit)
    }

    fn summaries(
        &self,
        owner: Option<&str>,
        made_by: Option<&str>,
        before: Option<ChangesetId>,
        limit: usize,
    ) -> Result<Vec<ChangesetSummary>> {
        changesets::summaries(self.conn, owner, made_by, before, limit)
    }

    fn any(&self) -> Result<bool> {
        changesets::any(self.conn)
    }

    fn count_pending(&self, owner: Option<&str>) -> Result<usize> {
        changesets::count_pending(self.conn, owner)
    }
}

impl CoreReads for Boundary<'_> {
    fn latest(&self) -> Result<Option<CoreVersion>> {
        core_versions::latest(self.conn)
    }

    fn version(&self, id: CoreVersionId) -> Result<Option<CoreVersion>> {
        core_versions::get(self.conn, id)
    }

    fn versions(&self) -> Result<Vec<CoreVersion>> {
        core_versions::list(self.conn)
    }

    fn locks(&self) -> Result<BTreeSet<Section>> {
        core_versions::locks(self.conn)
    }
}

impl VectorReads for Boundary<'_> {
    fn exist(&self) -> Result<bool> {
        vectors::table_exists(self.conn, TABLE)
    }

    fn staged_exist(&self) -> Result<bool> {
        vectors::table_exists(self.conn, STAGING)
    }

    fn unstaged(&self, limit: usize) -> Result<Vec<Unembedded>> {
        vectors::without_vector(self.conn, STAGING, limit)
    }

    fn staging_progress(&self) -> Result<(usize, usize)> {
        vectors::staging_progress(self.conn)
    }

    fn missing(&self, limit: usize) -> Result<Vec<Unembedded>> {
        vectors::without_vector(self.conn, TABLE, limit)
    }

    fn missing_count(&self) -> Result<usize> {
        vectors::missing_count(self.conn)
    }

    fn still_missing(&self, rowid: i64) -> Result<Option<bool>> {
        vectors::still_missing(self.conn, rowid)
    }
}

impl AgentStateReads for Boundary<'_> {
    fn get(&self, agent_id: &str, key: &str) -> Result<Option<AgentState>> {
        agent_state::get(self.conn, agent_id, key)
    }

    fn all_of(&self, agent_id: &str) -> Result<Vec<AgentState>> {
        agent_state::list(self.conn, agent_id)
    }

    fn entries(&self) -> Result<Vec<AgentStateEntry>> {
        agent_state::entries(self.conn)
    }

    fn history(&self, agent_id: &str, key: &str) -> Result<Vec<AgentStateChange>> {
        agent_state::history(self.conn, agent_id, key)
    }

    fn log(&self) -> Result<Vec<crate::store::backend::AgentStateLogEntry>> {
        agent_state::log(self.conn)
    }
}

impl WholeStoreReads for Boundary<'_> {
    fn nearest_exact(&self, query: &[f32], k: usize) -> Result<Ranked> {
        vectors::nearest_exact(self.conn, query, k)
    }

    fn vectors(&self) -> Result<Vec<(i64, Vec<f32>)>> {
        vectors::all(self.conn)
    }

    fn access_stats(&self) -> Result<Vec<(MemoryId, u64, i64)>> {
        forget::all_access_stats(self.conn)
    }
}
