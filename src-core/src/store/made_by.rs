//! Changes made through an agent key: a [`Writer`] that records the key's name on every
//! changeset it makes, so "what did this agent do" is one indexed question whatever path
//! made the change (an add, an edit, a delete, a forget request, a revert). Everything else
//! passes through unchanged; a changeset restored from an export keeps the key it recorded.

use super::MetaKey;
use super::backend::{
    AgentKeyReads, AgentKeyWrites, AgentStateReads, AgentStateWrites, ChangesetReads, ChangesetWrites, CoreReads,
    CoreWrites, MemoryReads, MemoryWrites, Reader, SearchReads, TextIndexWrites, VectorReads, VectorWrites,
    WholeStoreReads, Writer,
};
use crate::error::Result;
use crate::types::{Changeset, ChangesetId, ChangesetStatus, DecidedBy, MemoryId, ProposedItem, RelatedItem};

/// `inner`, writing as the agent holding key `agent_key`.
pub(crate) struct MadeBy<'a, T: ?Sized> {
    pub(crate) inner: &'a T,
    pub(crate) agent_key: &'a str,
}

impl<T: Reader + ?Sized> Reader for MadeBy<'_, T> {
    fn meta(&self, key: MetaKey) -> Result<Option<String>> {
        self.inner.meta(key)
    }

    fn memories(&self) -> &dyn MemoryReads {
        self.inner.memories()
    }

    fn search(&self) -> &dyn SearchReads {
        self.inner.search()
    }

    fn changesets(&self) -> &dyn ChangesetReads {
        self.inner.changesets()
    }

    fn core(&self) -> &dyn CoreReads {
        self.inner.core()
    }

    fn vectors(&self) -> &dyn VectorReads {
        self.inner.vectors()
    }

    fn agents(&self) -> &dyn AgentStateReads {
        self.inner.agents()
    }

    fn agent_keys(&self) -> &dyn AgentKeyReads {
        self.inner.agent_keys()
    }

    fn whole(&self) -> Result<&dyn WholeStoreReads> {
        self.inner.whole()
    }
}

impl<T: Writer + ?Sized> Writer for MadeBy<'_, T> {
    fn set_meta(&self, key: MetaKey, value: &str) -> Result<()> {
        self.inner.set_meta(key, value)
    }

    fn delete_meta(&self, key: MetaKey) -> Result<()> {
        self.inner.delete_meta(key)
    }

    fn next_timestamp(&self) -> Result<i64> {
        self.inner.next_timestamp()
    }

    fn memories_mut(&self) -> &dyn MemoryWrites {
        self.inner.memories_mut()
    }

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

impl<T: Writer + ?Sized> ChangesetWrites for MadeBy<'_, T> {
    /// The one stamp: a changeset made now is the agent's.
    fn insert(&self, changeset: &Changeset) -> Result<ChangesetId> {
        self.inner.changesets_mut().insert(&Changeset {
            agent_key: Some(self.agent_key.to_owned()),
            ..changeset.clone()
        })
    }

    fn restore(&self, changeset: &Changeset) -> Result<()> {
        self.inner.changesets_mut().restore(changeset)
    }

    fn restore_reverted_by(&self, id: ChangesetId, by: ChangesetId) -> Result<()> {
        self.inner.changesets_mut().restore_reverted_by(id, by)
    }

    fn write_proposed(&self, id: ChangesetId, proposed: &[ProposedItem]) -> Result<()> {
        self.inner.changesets_mut().write_proposed(id, proposed)
    }

    fn set_warnings(&self, id: ChangesetId, warnings: &[String]) -> Result<()> {
        self.inner.changesets_mut().set_warnings(id, warnings)
    }

    fn write_related_kept(&self, id: ChangesetId, related: &[RelatedItem]) -> Result<()> {
        self.inner.changesets_mut().write_related_kept(id, related)
    }

    fn decide(&self, id: ChangesetId, status: ChangesetStatus, by: DecidedBy, ts: i64) -> Result<()> {
        self.inner.changesets_mut().decide(id, status, by, ts)
    }

    fn reopen(&self, id: ChangesetId) -> Result<()> {
        self.inner.changesets_mut().reopen(id)
    }

    fn set_reverted_by(&self, id: ChangesetId, by: ChangesetId) -> Result<()> {
        self.inner.changesets_mut().set_reverted_by(id, by)
    }

    fn rewrite_text(&self, changeset: &Changeset) -> Result<()> {
        self.inner.changesets_mut().rewrite_text(changeset)
    }

    fn blank_items_naming(&self, memories: &[MemoryId]) -> Result<()> {
        self.inner.changesets_mut().blank_items_naming(memories)
    }

    fn delete_of_user(&self, user_id: &str) -> Result<usize> {
        self.inner.changesets_mut().delete_of_user(user_id)
    }
}
