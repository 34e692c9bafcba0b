//! One user's view of a store: a [`Reader`] and [`Writer`] that see and write only that
//! user's memories and changesets.
//!
//! Every read that can return a memory or a changeset goes through here with the user
//! applied inside the query (a filter on `user_id`) or, for lookups by id, checked on the
//! row found; every memory or changeset written is stamped with the user, and writing
//! another user's is refused.
//!
//! The boundary is split by table, so this view decides per group:
//! - the groups of a user's rows (memories, search, changesets) are answered here, one
//!   method at a time: a question added to one of them does not compile until this view
//!   says how it narrows it, so nothing reaches the backend around the scope;
//! - the groups no user owns pass through whole, in one line each: core.md and agent state
//!   (shared by every user), the vectors' bookkeeping and the full-text index's writes (the
//!   engine's own upkeep of every memory: the text `vectors().missing()` reads goes to the
//!   embedder, never back to the caller);
//! - the whole-store group (copies, the exact yardstick) is refused whole.

use std::collections::HashMap;

use super::MetaKey;
use super::backend::{
    AgentKeyReads, AgentStateReads, ChangesetReads, CoreReads, MemoryReads, Pool, Ranked, Reader, SearchReads, Signals,
    VectorReads, WholeStoreReads,
};
use crate::error::{Error, Result};
use crate::types::{
    AccessStats, Changeset, ChangesetFilter, ChangesetId, ChangesetSummary, MemoryAttributes, MemoryFilter, MemoryId,
    MemoryRecord, MemoryStatus,
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
        match self.changesets().get(id)? {
            Some(_) => Ok(()),
            None => Err(Error::NotFound(crate::error::Missing::Changeset(id))),
        }
    }
}

impl<T: Reader + ?Sized> Reader for Scoped<'_, T> {
    fn meta(&self, key: MetaKey) -> Result<Option<String>> {
        self.inner.meta(key)
    }

    fn memories(&self) -> &dyn MemoryReads {
        self
    }

    fn search(&self) -> &dyn SearchReads {
        self
    }

    fn changesets(&self) -> &dyn ChangesetReads {
        self
    }

    /// Core.md is the store's, shared by every user.
    fn core(&self) -> &dyn CoreReads {
        self.inner.core()
    }

    /// The vectors' bookkeeping is the engine's upkeep of every memory.
    fn vectors(&self) -> &dyn VectorReads {
        self.inner.vectors()
    }

    /// Agent state is no user's: it is shared.
    fn agents(&self) -> &dyn AgentStateReads {
        self.inner.agents()
    }

    /// Agent keys are the store's: a key is found before a user's view is made from it.
    fn agent_keys(&self) -> &dyn AgentKeyReads {
        self.inner.agent_keys()
    }

    /// A copy of a store, and the exact yardstick of vector search, cover the whole store:
    /// never one user's view.
    fn whole(&self) -> Result<&dyn WholeStoreReads> {
        Err(Error::InvalidState(
            "this covers the whole store (a copy, or the exact check of vector search), so it is not done for one user"
                .into(),
        ))
    }
}

impl<T: Reader + ?Sized> MemoryReads for Scoped<'_, T> {
    fn latest(&self, offset: usize, count: usize, filter: &MemoryFilter) -> Result<Vec<MemoryRecord>> {
        match self.narrow(filter) {
            Some(f) => self.inner.memories().latest(offset, count, &f),
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
            Some(f) => self.inner.memories().latest_before(before_ms, before_id, count, &f),
            None => Ok(Vec::new()),
        }
    }

    fn by_rowids(&self, rowids: &[i64]) -> Result<HashMap<i64, MemoryRecord>> {
        let mut found = self.inner.memories().by_rowids(rowids)?;
        found.retain(|_, m| self.mine(m));
        Ok(found)
    }

    fn by_id(&self, id: &MemoryId) -> Result<Option<(i64, MemoryRecord)>> {
        Ok(self.inner.memories().by_id(id)?.filter(|(_, m)| self.mine(m)))
    }

    fn count(&self, status: MemoryStatus, filter: &MemoryFilter) -> Result<usize> {
        match self.narrow(filter) {
            Some(f) => self.inner.memories().count(status, &f),
            None => Ok(0),
        }
    }

    fn any(&self) -> Result<bool> {
        self.inner.memories().any()
    }

    fn any_with(&self, statuses: &[MemoryStatus]) -> Result<bool> {
        self.inner.memories().any_with(statuses)
    }

    fn all(&self) -> Result<Vec<MemoryRecord>> {
        let mut all = self.inner.memories().all()?;
        all.retain(|m| self.mine(m));
        Ok(all)
    }

    fn replaced_by(&self, changeset: ChangesetId) -> Result<Vec<(i64, MemoryRecord)>> {
        let mut replaced = self.inner.memories().replaced_by(changeset)?;
        replaced.retain(|(_, m)| self.mine(m));
        Ok(replaced)
    }

    fn remembered(&self) -> Result<Vec<(i64, MemoryRecord)>> {
        let mut found = self.inner.memories().remembered()?;
        found.retain(|(_, m)| self.mine(m));
        Ok(found)
    }

    fn of_user(&self, user_id: &str) -> Result<Vec<(i64, MemoryRecord)>> {
        if user_id != self.user {
            return Ok(Vec::new());
        }
        let mut found = self.inner.memories().of_user(user_id)?;
        found.retain(|(_, m)| self.mine(m));
        Ok(found)
    }

    fn access_stats(&self, rowids: &[i64]) -> Result<HashMap<i64, AccessStats>> {
        let mine = self.memories().by_rowids(rowids)?;
        let rowids: Vec<i64> = rowids.iter().copied().filter(|r| mine.contains_key(r)).collect();
        self.inner.memories().access_stats(&rowids)
    }
}

impl<T: Reader + ?Sized> SearchReads for Scoped<'_, T> {
    fn nearest(&self, query: &[f32], k: usize, pool: Pool, filter: &MemoryFilter) -> Result<Ranked> {
        match self.narrow(filter) {
            Some(f) => self.inner.search().nearest(query, k, pool, &f),
            None => Ok(Vec::new()),
        }
    }

    fn distances(&self, query: &[f32], rowids: &[i64]) -> Result<HashMap<i64, f64>> {
        let mine = self.memories().by_rowids(rowids)?;
        let rowids: Vec<i64> = rowids.iter().copied().filter(|r| mine.contains_key(r)).collect();
        self.inner.search().distances(query, &rowids)
    }

    fn full_text(&self, words: &[String], k: usize, filter: &MemoryFilter) -> Result<Ranked> {
        match self.narrow(filter) {
            Some(f) => self.inner.search().full_text(words, k, &f),
            None => Ok(Vec::new()),
        }
    }

    fn full_text_any(&self, text: &str, k: usize, filter: &MemoryFilter) -> Result<Ranked> {
        match self.narrow(filter) {
            Some(f) => self.inner.search().full_text_any(text, k, &f),
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
            Some(f) => self.inner.search().signals(vector, words, k, pool, &f),
            None => Ok(Signals::default()),
        }
    }
}

impl<T: Reader + ?Sized> ChangesetReads for Scoped<'_, T> {
    fn get(&self, id: ChangesetId) -> Result<Option<Changeset>> {
        Ok(self.inner.changesets().get(id)?.filter(|c| self.owns(c)))
    }

    fn list(&self, filter: ChangesetFilter, owner: Option<&str>) -> Result<Vec<Changeset>> {
        match owner {
            Some(other) if other != self.user => Ok(Vec::new()),
            _ => self.inner.changesets().list(filter, Some(self.user)),
        }
    }

    fn page(
        &self,
        filter: ChangesetFilter,
        owner: Option<&str>,
        before: Option<ChangesetId>,
        limit: usize,
    ) -> Result<Vec<Changeset>> {
        match owner {
            Some(other) if other != self.user => Ok(Vec::new()),
            _ => self.inner.changesets().page(filter, Some(self.user), before, limit),
        }
    }

    fn summaries(
        &self,
        owner: Option<&str>,
        made_by: Option<&str>,
        before: Option<ChangesetId>,
        limit: usize,
    ) -> Result<Vec<ChangesetSummary>> {
        match owner {
            Some(other) if other != self.user => Ok(Vec::new()),
            _ => self
                .inner
                .changesets()
                .summaries(Some(self.user), made_by, before, limit),
        }
    }

    fn any(&self) -> Result<bool> {
        self.inner.changesets().any()
    }

    fn count_pending(&self, owner: Option<&str>) -> Result<usize> {
        match owner {
            Some(other) if other != self.user => Ok(0),
            _ => self.inner.changesets().count_pending(Some(self.user)),
        }
    }
}
