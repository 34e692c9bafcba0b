//! The writing half of one user's view: every memory and changeset written is the user's,
//! and work on a row or changeset of another user is refused.

use super::Scoped;
use crate::error::Missing;
use crate::error::{Error, Result};
use crate::store::MetaKey;
use crate::store::backend::{Reader, Writer};
use crate::types::{
    Changeset, ChangesetId, ChangesetStatus, CoreAuthor, CoreVersion, CoreVersionId, DecidedBy, MemoryAttributes,
    MemoryId, MemoryRecord, MemoryStatus, ProposedItem, PurgeReceipt, RelatedItem, Section,
};

impl<T: Writer + ?Sized> Scoped<'_, T> {
    /// Refuses work on memory `rowid` unless it is the user's.
    fn check_row(&self, rowid: i64) -> Result<()> {
        if self.memories_by_rowids(&[rowid])?.contains_key(&rowid) {
            Ok(())
        } else {
            Err(Error::InvalidState(format!(
                "memory row {rowid} is not a memory of user `{}`",
                self.user
            )))
        }
    }
}

impl<T: Writer + ?Sized> Writer for Scoped<'_, T> {
    fn set_meta(&self, key: MetaKey, value: &str) -> Result<()> {
        self.inner.set_meta(key, value)
    }

    fn delete_meta(&self, key: MetaKey) -> Result<()> {
        self.inner.delete_meta(key)
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
        let attributes = self.stamped(attributes)?;
        self.inner
            .insert_memory(id, content, status, ts, changeset, &attributes)
    }

    fn set_memory_status(
        &self,
        rowid: i64,
        status: MemoryStatus,
        superseded_by: Option<ChangesetId>,
        ts: i64,
    ) -> Result<()> {
        self.check_row(rowid)?;
        self.inner.set_memory_status(rowid, status, superseded_by, ts)
    }

    fn activate_pending(&self, rowid: i64, ts: i64) -> Result<()> {
        self.check_row(rowid)?;
        self.inner.activate_pending(rowid, ts)
    }

    fn delete_pending(&self, rowid: i64) -> Result<()> {
        self.check_row(rowid)?;
        self.inner.delete_pending(rowid)
    }

    fn restore_memory(&self, memory: &MemoryRecord) -> Result<i64> {
        let memory = MemoryRecord {
            attributes: self.stamped(&memory.attributes)?,
            ..memory.clone()
        };
        self.inner.restore_memory(&memory)
    }

    fn put_agent_state(&self, agent_id: &str, key: &str, value: &str, ts: i64) -> Result<()> {
        self.inner.put_agent_state(agent_id, key, value, ts)
    }

    fn delete_agent_state(&self, agent_id: &str, key: &str, ts: i64) -> Result<bool> {
        self.inner.delete_agent_state(agent_id, key, ts)
    }

    fn redact_agent_state(
        &self,
        named: &dyn Fn(&str) -> bool,
        redact: &dyn Fn(&str) -> Option<String>,
    ) -> Result<usize> {
        self.inner.redact_agent_state(named, redact)
    }

    fn set_pinned(&self, rowid: i64, pinned: bool, ts: i64) -> Result<()> {
        self.check_row(rowid)?;
        self.inner.set_pinned(rowid, pinned, ts)
    }

    fn insert_changeset(&self, changeset: &Changeset) -> Result<ChangesetId> {
        self.inner.insert_changeset(&self.stamped_changeset(changeset)?)
    }

    fn restore_changeset(&self, changeset: &Changeset) -> Result<()> {
        self.inner.restore_changeset(&self.stamped_changeset(changeset)?)
    }

    /// A copy of a store is of the whole store, never one user's view.
    fn add_access(&self, _entries: &[(MemoryId, u64, i64)]) -> Result<()> {
        Err(Error::InvalidState(
            "copying statistics covers the whole store, so it is not done for one user".into(),
        ))
    }

    fn restore_reverted_by(&self, id: ChangesetId, by: ChangesetId) -> Result<()> {
        self.check_changeset(id)?;
        self.inner.restore_reverted_by(id, by)
    }

    fn write_proposed(&self, id: ChangesetId, proposed: &[ProposedItem]) -> Result<()> {
        self.check_changeset(id)?;
        self.inner.write_proposed(id, proposed)
    }

    fn set_warnings(&self, id: ChangesetId, warnings: &[String]) -> Result<()> {
        self.check_changeset(id)?;
        self.inner.set_warnings(id, warnings)
    }

    fn write_related_kept(&self, id: ChangesetId, related: &[RelatedItem]) -> Result<()> {
        self.check_changeset(id)?;
        self.inner.write_related_kept(id, related)
    }

    fn decide(&self, id: ChangesetId, status: ChangesetStatus, by: DecidedBy, ts: i64) -> Result<()> {
        self.check_changeset(id)?;
        self.inner.decide(id, status, by, ts)
    }

    fn reopen(&self, id: ChangesetId) -> Result<()> {
        self.check_changeset(id)?;
        self.inner.reopen(id)
    }

    fn set_reverted_by(&self, id: ChangesetId, by: ChangesetId) -> Result<()> {
        self.check_changeset(id)?;
        self.inner.set_reverted_by(id, by)
    }

    fn insert_core_version(
        &self,
        content: &str,
        author: CoreAuthor,
        changeset: Option<ChangesetId>,
        ts: i64,
    ) -> Result<CoreVersionId> {
        self.inner.insert_core_version(content, author, changeset, ts)
    }

    fn set_core_lock(&self, section: Section, locked: bool, ts: i64) -> Result<()> {
        self.inner.set_core_lock(section, locked, ts)
    }

    fn delete_core_versions(&self) -> Result<()> {
        self.inner.delete_core_versions()
    }

    fn restore_core_version(&self, version: &CoreVersion) -> Result<()> {
        self.inner.restore_core_version(version)
    }

    fn rewrite_core_version(&self, id: CoreVersionId, content: &str) -> Result<()> {
        self.inner.rewrite_core_version(id, content)
    }

    /// Only the user's own data: purging another user through one user's view is refused.
    fn purge_user(&self, user_id: &str) -> Result<PurgeReceipt> {
        if user_id != self.user {
            return Err(Error::InvalidArgument(format!(
                "user `{user_id}` cannot be purged while working as user `{}`",
                self.user
            )));
        }
        self.inner.purge_user(user_id)
    }

    fn forget_memory(&self, rowid: i64, ts: i64) -> Result<()> {
        self.check_row(rowid)?;
        self.inner.forget_memory(rowid, ts)
    }

    fn rewrite_changeset_text(&self, changeset: &Changeset) -> Result<()> {
        if self.changeset(changeset.id)?.is_none() {
            return Err(Error::NotFound(Missing::Changeset(changeset.id)));
        }
        // What is written stays the user's (a forget's receipt is built afresh).
        self.inner.rewrite_changeset_text(&self.stamped_changeset(changeset)?)
    }

    fn index_text(&self, rowid: i64, content: &str) -> Result<()> {
        self.inner.index_text(rowid, content)
    }

    fn unindex_text(&self, rowid: i64, content: &str) -> Result<()> {
        self.inner.unindex_text(rowid, content)
    }

    fn create_vectors(&self, dims: usize) -> Result<()> {
        self.inner.create_vectors(dims)
    }

    fn drop_vectors(&self) -> Result<()> {
        self.inner.drop_vectors()
    }

    fn insert_vector(&self, rowid: i64, vector: &[f32]) -> Result<()> {
        self.inner.insert_vector(rowid, vector)
    }

    fn insert_vector_with_status(&self, rowid: i64, vector: &[f32], active: bool) -> Result<()> {
        self.inner.insert_vector_with_status(rowid, vector, active)
    }

    fn set_vector_active(&self, rowid: i64, active: bool) -> Result<bool> {
        self.inner.set_vector_active(rowid, active)
    }

    fn start_staging(&self, dims: usize) -> Result<()> {
        self.inner.start_staging(dims)
    }

    fn drop_staging(&self) -> Result<()> {
        self.inner.drop_staging()
    }

    fn stage_vector(&self, rowid: i64, vector: &[f32], active: bool) -> Result<()> {
        self.inner.stage_vector(rowid, vector, active)
    }

    fn promote_staging(&self) -> Result<()> {
        self.inner.promote_staging()
    }
}
