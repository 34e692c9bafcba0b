//! The changes of [`crate::store::backend::writes`], made on SQLite inside the transaction.

use crate::error::Result;
use crate::store::backend::{
    AgentStateEntry, AgentStateWrites, ChangesetWrites, CoreWrites, MemoryWrites, TextIndexWrites, VectorWrites,
};
use crate::store::sqlite::{
    access_stats, agent_state, changesets, core_versions, forget, fts, memories, purge, vectors,
};
use crate::types::{
    Changeset, ChangesetId, ChangesetStatus, CoreAuthor, CoreVersion, CoreVersionId, DecidedBy, MemoryAttributes,
    MemoryId, MemoryRecord, MemoryStatus, ProposedItem, RelatedItem, Section,
};

use super::Boundary;

impl MemoryWrites for Boundary<'_> {
    fn insert(
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

    fn set_status(&self, rowid: i64, status: MemoryStatus, superseded_by: Option<ChangesetId>, ts: i64) -> Result<()> {
        memories::set_status(self.conn, rowid, status, superseded_by, ts)
    }

    fn activate_pending(&self, rowid: i64, ts: i64) -> Result<()> {
        memories::activate_pending(self.conn, rowid, ts)
    }

    fn delete_pending(&self, rowid: i64) -> Result<()> {
        memories::delete_pending(self.conn, rowid)
    }

    fn restore(&self, memory: &MemoryRecord) -> Result<i64> {
        memories::restore(self.conn, memory)
    }

    fn set_pinned(&self, rowid: i64, pinned: bool, ts: i64) -> Result<()> {
        memories::set_pinned(self.conn, rowid, pinned, ts)
    }

    fn add_access(&self, entries: &[(MemoryId, u64, i64)]) -> Result<()> {
        access_stats::record(self.conn, entries)
    }

    fn blank(&self, rowid: i64, ts: i64) -> Result<()> {
        forget::blank(self.conn, rowid, ts)
    }

    fn delete_of_user(&self, user_id: &str) -> Result<usize> {
        purge::delete_memories_of(self.conn, user_id)
    }
}

impl TextIndexWrites for Boundary<'_> {
    fn insert(&self, rowid: i64, content: &str) -> Result<()> {
        fts::insert(self.conn, rowid, content)
    }

    fn remove(&self, rowid: i64, content: &str) -> Result<()> {
        fts::delete(self.conn, rowid, content)
    }
}

impl ChangesetWrites for Boundary<'_> {
    fn insert(&self, changeset: &Changeset) -> Result<ChangesetId> {
        changesets::insert(self.conn, changeset)
    }

    fn restore(&self, changeset: &Changeset) -> Result<()> {
        changesets::restore(self.conn, changeset)
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

    fn rewrite_text(&self, changeset: &Changeset) -> Result<()> {
        changesets::rewrite_text(self.conn, changeset)
    }

    fn blank_items_naming(&self, memories: &[MemoryId]) -> Result<()> {
        purge::blank_items_naming(self.conn, memories)
    }

    fn delete_of_user(&self, user_id: &str) -> Result<usize> {
        purge::delete_changesets_of(self.conn, user_id)
    }
}

impl CoreWrites for Boundary<'_> {
    fn insert(
        &self,
        content: &str,
        author: CoreAuthor,
        changeset: Option<ChangesetId>,
        ts: i64,
    ) -> Result<CoreVersionId> {
        core_versions::insert(self.conn, content, author, changeset, ts)
    }

    fn set_lock(&self, section: Section, locked: bool, ts: i64) -> Result<()> {
        core_versions::set_lock(self.conn, section, locked, ts)
    }

    fn delete_all(&self) -> Result<()> {
        core_versions::delete_all(self.conn)
    }

    fn restore(&self, version: &CoreVersion) -> Result<()> {
        core_versions::restore(self.conn, version)
    }

    fn rewrite(&self, id: CoreVersionId, content: &str) -> Result<()> {
        forget::rewrite_core_version(self.conn, id, content)
    }
}

impl VectorWrites for Boundary<'_> {
    /// SQLite keeps vectors of any length: `dims` is the store's to check.
    fn create(&self, _dims: usize) -> Result<()> {
        vectors::create(self.conn)
    }

    fn drop_all(&self) -> Result<()> {
        vectors::drop(self.conn)
    }

    fn insert(&self, rowid: i64, vector: &[f32]) -> Result<()> {
        vectors::insert(self.conn, rowid, vector)
    }

    fn insert_with_status(&self, rowid: i64, vector: &[f32], active: bool) -> Result<()> {
        vectors::insert_with_status(self.conn, rowid, vector, active)
    }

    fn set_active(&self, rowid: i64, active: bool) -> Result<bool> {
        vectors::set_active(self.conn, rowid, active)
    }

    fn start_staging(&self, _dims: usize) -> Result<()> {
        vectors::drop_table(self.conn, vectors::STAGING)?;
        vectors::create_table(self.conn, vectors::STAGING)
    }

    fn drop_staging(&self) -> Result<()> {
        vectors::drop_table(self.conn, vectors::STAGING)
    }

    fn stage(&self, rowid: i64, vector: &[f32], active: bool) -> Result<()> {
        vectors::insert_staged(self.conn, rowid, vector, active)
    }

    fn promote_staging(&self) -> Result<()> {
        vectors::promote_staging(self.conn)
    }

    fn remove(&self, rowid: i64) -> Result<()> {
        forget::remove_vectors(self.conn, rowid)
    }
}

impl AgentStateWrites for Boundary<'_> {
    fn put(&self, agent_id: &str, key: &str, value: &str, ts: i64) -> Result<()> {
        agent_state::put(self.conn, agent_id, key, value, ts)
    }

    fn delete(&self, agent_id: &str, key: &str, ts: i64) -> Result<bool> {
        agent_state::delete(self.conn, agent_id, key, ts)
    }

    fn remove_entry(&self, entry: &AgentStateEntry) -> Result<()> {
        agent_state::remove_entry(self.conn, entry)
    }

    fn set_entry_value(&self, entry: &AgentStateEntry, value: &str) -> Result<()> {
        agent_state::set_entry_value(self.conn, entry, value)
    }
}
