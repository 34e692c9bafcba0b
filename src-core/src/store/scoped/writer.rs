//! The writing half of one user's view: every memory and changeset written is the user's,
//! and work on a row or changeset of another user is refused.

use super::Scoped;
use crate::error::Missing;
use crate::error::{Error, Result};
use crate::store::MetaKey;
use crate::store::backend::{
    AgentKeyWrites, AgentStateWrites, ChangesetWrites, CoreWrites, MemoryWrites, Reader, TextIndexWrites, VectorWrites,
    Writer,
};
use crate::types::{
    Changeset, ChangesetId, ChangesetStatus, DecidedBy, MemoryAttributes, MemoryId, MemoryRecord, MemoryStatus,
    ProposedItem, RelatedItem,
};

impl<T: Writer + ?Sized> Scoped<'_, T> {
    /// Refuses work on memory `rowid` unless it is the user's.
    fn check_row(&self, rowid: i64) -> Result<()> {
        if self.memories().by_rowids(&[rowid])?.contains_key(&rowid) {
            Ok(())
        } else {
            Err(Error::InvalidState(format!(
                "memory row {rowid} is not a memory of user `{}`",
                self.user
            )))
        }
    }
}

impl<T: ?Sized> Scoped<'_, T> {
    /// Refuses work on every row of user `user_id` unless it is this view's user.
    fn check_user(&self, user_id: &str) -> Result<()> {
        if user_id == self.user {
            Ok(())
        } else {
            Err(Error::InvalidArgument(format!(
                "user `{user_id}` cannot be purged while working as user `{}`",
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

    fn memories_mut(&self) -> &dyn MemoryWrites {
        self
    }

    /// The full-text index follows what the memories' writes decided.
    fn text_index_mut(&self) -> &dyn TextIndexWrites {
        self.inner.text_index_mut()
    }

    fn changesets_mut(&self) -> &dyn ChangesetWrites {
        self
    }

    fn core_mut(&self) -> &dyn CoreWrites {
        self.inner.core_mut()
    }

    fn vectors_mut(&self) -> &dyn VectorWrites {
        self.inner.vectors_mut()
    }

    fn agents_mut(&self) -> &dyn AgentStateWrites {
        self.inner.agents_mut()
    }

    fn agent_keys_mut(&self) -> &dyn AgentKeyWrites {
        self.inner.agent_keys_mut()
    }
}

impl<T: Writer + ?Sized> MemoryWrites for Scoped<'_, T> {
    fn insert(
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
            .memories_mut()
            .insert(id, content, status, ts, changeset, &attributes)
    }

    fn set_status(&self, rowid: i64, status: MemoryStatus, superseded_by: Option<ChangesetId>, ts: i64) -> Result<()> {
        self.check_row(rowid)?;
        self.inner.memories_mut().set_status(rowid, status, superseded_by, ts)
    }

    fn activate_pending(&self, rowid: i64, ts: i64) -> Result<()> {
        self.check_row(rowid)?;
        self.inner.memories_mut().activate_pending(rowid, ts)
    }

    fn delete_pending(&self, rowid: i64) -> Result<()> {
        self.check_row(rowid)?;
        self.inner.memories_mut().delete_pending(rowid)
    }

    fn restore(&self, memory: &MemoryRecord) -> Result<i64> {
        let memory = MemoryRecord {
            attributes: self.stamped(&memory.attributes)?,
            ..memory.clone()
        };
        self.inner.memories_mut().restore(&memory)
    }

    fn set_pinned(&self, rowid: i64, pinned: bool, ts: i64) -> Result<()> {
        self.check_row(rowid)?;
        self.inner.memories_mut().set_pinned(rowid, pinned, ts)
    }

    /// A copy of a store is of the whole store, never one user's view.
    fn add_access(&self, _entries: &[(MemoryId, u64, i64)]) -> Result<()> {
        Err(Error::InvalidState(
            "copying statistics covers the whole store, so it is not done for one user".into(),
        ))
    }

    fn blank(&self, rowid: i64, ts: i64) -> Result<()> {
        self.check_row(rowid)?;
        self.inner.memories_mut().blank(rowid, ts)
    }

    /// Only the user's own memories: purging another user through one user's view is
    /// refused.
    fn delete_of_user(&self, user_id: &str) -> Result<usize> {
        self.check_user(user_id)?;
        self.inner.memories_mut().delete_of_user(user_id)
    }
}

impl<T: Writer + ?Sized> ChangesetWrites for Scoped<'_, T> {
    fn insert(&self, changeset: &Changeset) -> Result<ChangesetId> {
        self.inner.changesets_mut().insert(&self.stamped_changeset(changeset)?)
    }

    fn restore(&self, changeset: &Changeset) -> Result<()> {
        self.inner.changesets_mut().restore(&self.stamped_changeset(changeset)?)
    }

    fn restore_reverted_by(&self, id: ChangesetId, by: ChangesetId) -> Result<()> {
        self.check_changeset(id)?;
        self.inner.changesets_mut().restore_reverted_by(id, by)
    }

    fn write_proposed(&self, id: ChangesetId, proposed: &[ProposedItem]) -> Result<()> {
        self.check_changeset(id)?;
        self.inner.changesets_mut().write_proposed(id, proposed)
    }

    fn set_warnings(&self, id: ChangesetId, warnings: &[String]) -> Result<()> {
        self.check_changeset(id)?;
        self.inner.changesets_mut().set_warnings(id, warnings)
    }

    fn write_related_kept(&self, id: ChangesetId, related: &[RelatedItem]) -> Result<()> {
        self.check_changeset(id)?;
        self.inner.changesets_mut().write_related_kept(id, related)
    }

    fn decide(&self, id: ChangesetId, status: ChangesetStatus, by: DecidedBy, ts: i64) -> Result<()> {
        self.check_changeset(id)?;
        self.inner.changesets_mut().decide(id, status, by, ts)
    }

    fn reopen(&self, id: ChangesetId) -> Result<()> {
        self.check_changeset(id)?;
        self.inner.changesets_mut().reopen(id)
    }

    fn set_reverted_by(&self, id: ChangesetId, by: ChangesetId) -> Result<()> {
        self.check_changeset(id)?;
        self.inner.changesets_mut().set_reverted_by(id, by)
    }

    fn rewrite_text(&self, changeset: &Changeset) -> Result<()> {
        if self.changesets().get(changeset.id)?.is_none() {
            return Err(Error::NotFound(Missing::Changeset(changeset.id)));
        }
        // What is written stays the user's (a forget's receipt is built afresh).
        self.inner
            .changesets_mut()
            .rewrite_text(&self.stamped_changeset(changeset)?)
    }

    /// Only items that name the user's memories (the copies of their text elsewhere).
    fn blank_items_naming(&self, memories: &[MemoryId]) -> Result<()> {
        for id in memories {
            if self.memories().by_id(id)?.is_none() {
                return Err(Error::InvalidState(format!(
                    "memory {id} is not a memory of user `{}`",
                    self.user
                )));
            }
        }
        self.inner.changesets_mut().blank_items_naming(memories)
    }

    /// Only the user's own changesets: purging another user through one user's view is
    /// refused.
    fn delete_of_user(&self, user_id: &str) -> Result<usize> {
        self.check_user(user_id)?;
        self.inner.changesets_mut().delete_of_user(user_id)
    }
}
