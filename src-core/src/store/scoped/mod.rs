//! One user's view of a store: a [`Reader`] and [`Writer`] that see and write only that
//! user's memories and changesets.
//!
//! Every read that can return a memory or a changeset goes through here with the user
//! applied inside the query (a filter on `user_id`) or, for lookups by id, checked on the
//! row found; every memory or changeset written is stamped with the user, and writing
//! another user's is refused. Store-wide records that hold no user's text (vectors
//! bookkeeping, core.md, agent state) pass through. A method added to the boundary must be
//! added here, so nothing reaches the backend around the scope.

use std::collections::{BTreeSet, HashMap};

use super::MetaKey;
use super::backend::{Pool, Ranked, Reader, Signals, Unembedded};
use crate::error::{Error, Result};
use crate::types::{
    AccessStats, AgentState, AgentStateChange, Changeset, ChangesetFilter, ChangesetId, ChangesetSummary, CoreVersion,
    CoreVersionId, MemoryAttributes, MemoryFilter, MemoryId, MemoryRecord, MemoryStatus, Section,
};

mod writer;

/// `inner` seen by user `user` only.
pub(crate) struct Scoped<'a, T: ?Sized> {
    pub(crate) inner: &'a T,
    pub(crate) user: &'a str,
}

impl<T: ?Sized> Scoped<'_, T> {
    /// `filter` narrowed to the user; `None` when it asks for another user (nothing passes).
    fn narrow(&self, filter: &MemoryFilter) -> Option<MemoryFilter> {
        match &filter.user_id {
            Some(other) if other != self.user => None,
            _ => Some(MemoryFilter {
                user_id: Some(self.user.to_owned()),
                ..filter.clone()
            }),
        }
    }

    fn mine(&self, memory: &MemoryRecord) -> bool {
        memory.attributes.user_id.as_deref() == Some(self.user)
    }

    fn owns(&self, changeset: &Changeset) -> bool {
        changeset.attributes.user_id.as_deref() == Some(self.user)
    }

    /// The attributes as written for the user: theirs when none is given, an error for
    /// another user's.
    fn stamped(&self, attributes: &MemoryAttributes) -> Result<MemoryAttributes> {
        match attributes.user_id.as_deref() {
            Some(other) if other != self.user => Err(Error::InvalidArgument(format!(
                "a memory for user `{other}` cannot be written while working as user `{}`",
                self.user
            ))),
            _ => Ok(MemoryAttributes {
                user_id: Some(self.user.to_owned()),
                ..attributes.clone()
            }),
        }
    }

    fn stamped_changeset(&self, changeset: &Changeset) -> Result<Changeset> {
        Ok(Changeset {
            attributes: self.stamped(&changeset.attributes)?,
            ..changeset.clone()
        })
    }
}

impl<T: Reader + ?Sized> Scoped<'_, T> {
    /// Refuses work on a changeset the user cannot see.
    fn check_changeset(&self, id: ChangesetId) -> Result<()> {
        match self.changeset(id)? {
            Some(_) => Ok(()),
            None => Err(Error::NotFound(crate::error::Missing::Changeset(id))),
        }
    }
}

impl<T: Reader + ?Sized> Reader for Scoped<'_, T> {
    fn meta(&self, key: MetaKey) -> Result<Option<String>> {
        self.inner.meta(key)
    }

    fn latest(&self, offset: usize, count: usize, filter: &MemoryFilter) -> Result<Vec<MemoryRecord>> {
        match self.narrow(filter) {
            Some(f) => self.inner.latest(offset, count, &f),
            None => Ok(Vec::new()),
        }
    }

    fn latest_before(
        &self,
        before_ms: i64,
        before_id: &MemoryId,
        count: usize,
        filter: &MemoryFilter,
    ) -> Result<Vec<MemoryRecord>> {
        match self.narrow(filter) {
            Some(f) => self.inner.latest_before(before_ms, before_id, count, &f),
            None => Ok(Vec::new()),
        }
    }

    fn memories_by_rowids(&self, rowids: &[i64]) -> Result<HashMap<i64, MemoryRecord>> {
        let mut found = self.inner.memories_by_rowids(rowids)?;
        found.retain(|_, m| self.mine(m));
        Ok(found)
    }

    fn memory_by_id(&self, id: &MemoryId) -> Result<Option<(i64, MemoryRecord)>> {
        Ok(self.inner.memory_by_id(id)?.filter(|(_, m)| self.mine(m)))
    }

    fn count_memories(&self, status: MemoryStatus, filter: &MemoryFilter) -> Result<usize> {
        match self.narrow(filter) {
            Some(f) => self.inner.count_memories(status, &f),
            None => Ok(0),
        }
    }

    fn any_memory(&self) -> Result<bool> {
        self.inner.any_memory()
    }

    fn any_memory_with(&self, statuses: &[MemoryStatus]) -> Result<bool> {
        self.inner.any_memory_with(statuses)
    }

    fn all_memories(&self) -> Result<Vec<MemoryRecord>> {
        let mut all = self.inner.all_memories()?;
        all.retain(|m| self.mine(m));
        Ok(all)
    }

    fn memories_replaced_by(&self, changeset: ChangesetId) -> Result<Vec<(i64, MemoryRecord)>> {
        let mut replaced = self.inner.memories_replaced_by(changeset)?;
        replaced.retain(|(_, m)| self.mine(m));
        Ok(replaced)
    }

    fn memories_containing(&self, phrase: &str) -> Result<Vec<(i64, MemoryRecord)>> {
        let mut found = self.inner.memories_containing(phrase)?;
        found.retain(|(_, m)| self.mine(m));
        Ok(found)
    }

    fn changeset(&self, id: ChangesetId) -> Result<Option<Changeset>> {
        Ok(self.inner.changeset(id)?.filter(|c| self.owns(c)))
    }

    fn changesets(&self, filter: ChangesetFilter, owner: Option<&str>) -> Result<Vec<Changeset>> {
        match owner {
            Some(other) if other != self.user => Ok(Vec::new()),
            _ => self.inner.changesets(filter, Some(self.user)),
        }
    }

    fn changeset_page(
        &self,
        filter: ChangesetFilter,
        owner: Option<&str>,
        before: Option<ChangesetId>,
        limit: usize,
    ) -> Result<Vec<Changeset>> {
        match owner {
            Some(other) if other != self.user => Ok(Vec::new()),
            _ => self.inner.changeset_page(filter, Some(self.user), before, limit),
        }
    }

    fn changeset_summaries(
        &self,
        owner: Option<&str>,
        before: Option<ChangesetId>,
        limit: usize,
    ) -> Result<Vec<ChangesetSummary>> {
        match owner {
            Some(other) if other != self.user => Ok(Vec::new()),
            _ => self.inner.changeset_summaries(Some(self.user), before, limit),
        }
    }

    fn any_changeset(&self) -> Result<bool> {
        self.inner.any_changeset()
    }

    fn count_pending_changesets(&self, owner: Option<&str>) -> Result<usize> {
        match owner {
            Some(other) if other != self.user => Ok(0),
            _ => self.inner.count_pending_changesets(Some(self.user)),
        }
    }

    fn latest_core_version(&self) -> Result<Option<CoreVersion>> {
        self.inner.latest_core_version()
    }

    fn core_version(&self, id: CoreVersionId) -> Result<Option<CoreVersion>> {
        self.inner.core_version(id)
    }

    fn core_versions(&self) -> Result<Vec<CoreVersion>> {
        self.inner.core_versions()
    }

    fn core_locks(&self) -> Result<BTreeSet<Section>> {
        self.inner.core_locks()
    }

    fn has_vectors(&self) -> Result<bool> {
        self.inner.has_vectors()
    }

    fn has_staged_vectors(&self) -> Result<bool> {
        self.inner.has_staged_vectors()
    }

    fn unstaged_vectors(&self, limit: usize) -> Result<Vec<Unembedded>> {
        self.inner.unstaged_vectors(limit)
    }

    fn staging_progress(&self) -> Result<(usize, usize)> {
        self.inner.staging_progress()
    }

    fn missing_vectors(&self, limit: usize) -> Result<Vec<Unembedded>> {
        self.inner.missing_vectors(limit)
    }

    fn missing_vector_count(&self) -> Result<usize> {
        self.inner.missing_vector_count()
    }

    fn still_missing_vector(&self, rowid: i64) -> Result<Option<bool>> {
        self.inner.still_missing_vector(rowid)
    }

    fn nearest(&self, query: &[f32], k: usize, pool: Pool, filter: &MemoryFilter) -> Result<Ranked> {
        match self.narrow(filter) {
            Some(f) => self.inner.nearest(query, k, pool, &f),
            None => Ok(Vec::new()),
        }
    }

    /// The exact yardstick ranks every memory of the store: not for one user's view.
    fn nearest_exact(&self, _query: &[f32], _k: usize) -> Result<Ranked> {
        Err(Error::InvalidState(
            "the exact nearest-memory check covers the whole store, so it is not run for one user".into(),
        ))
    }

    fn agent_state(&self, agent_id: &str, key: &str) -> Result<Option<AgentState>> {
        self.inner.agent_state(agent_id, key)
    }

    fn agent_states(&self, agent_id: &str) -> Result<Vec<AgentState>> {
        self.inner.agent_states(agent_id)
    }

    fn count_agent_state(&self, matches: &dyn Fn(&str) -> bool) -> Result<usize> {
        self.inner.count_agent_state(matches)
    }

    fn agent_state_history(&self, agent_id: &str, key: &str) -> Result<Vec<AgentStateChange>> {
        self.inner.agent_state_history(agent_id, key)
    }

    /// Agent state is no user's: it is shared, as [`Reader::agent_states`] is.
    fn agent_state_log(&self) -> Result<Vec<crate::store::backend::AgentStateLogEntry>> {
        self.inner.agent_state_log()
    }

    /// A copy of a store is of the whole store, never one user's view.
    fn all_vectors(&self) -> Result<Vec<(i64, Vec<f32>)>> {
        Err(Error::InvalidState(
            "copying every vector covers the whole store, so it is not done for one user".into(),
        ))
    }

    /// A copy of a store is of the whole store, never one user's view.
    fn all_access_stats(&self) -> Result<Vec<(MemoryId, u64, i64)>> {
        Err(Error::InvalidState(
            "copying every memory's statistics covers the whole store, so it is not done for one user".into(),
        ))
    }

    fn access_stats(&self, rowids: &[i64]) -> Result<HashMap<i64, AccessStats>> {
        let mine = self.memories_by_rowids(rowids)?;
        let rowids: Vec<i64> = rowids.iter().copied().filter(|r| mine.contains_key(r)).collect();
        self.inner.access_stats(&rowids)
    }

    fn distances(&self, query: &[f32], rowids: &[i64]) -> Result<HashMap<i64, f64>> {
        let mine = self.memories_by_rowids(rowids)?;
        let rowids: Vec<i64> = rowids.iter().copied().filter(|r| mine.contains_key(r)).collect();
        self.inner.distances(query, &rowids)
    }

    fn full_text(&self, words: &[String], k: usize, filter: &MemoryFilter) -> Result<Ranked> {
        match self.narrow(filter) {
            Some(f) => self.inner.full_text(words, k, &f),
            None => Ok(Vec::new()),
        }
    }

    fn full_text_any(&self, text: &str, k: usize, filter: &MemoryFilter) -> Result<Ranked> {
        match self.narrow(filter) {
            Some(f) => self.inner.full_text_any(text, k, &f),
            None => Ok(Vec::new()),
        }
    }

    fn signals(
        &self,
        vector: &[f32],
        words: &[String],
        k: usize,
        pool: Pool,
        filter: &MemoryFilter,
    ) -> Result<Signals> {
        match self.narrow(filter) {
            Some(f) => self.inner.signals(vector, words, k, pool, &f),
            None => Ok(Signals::default()),
        }
    }
}
