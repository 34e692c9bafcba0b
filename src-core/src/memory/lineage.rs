//! Lineage: where a memory came from and what became of it.

use serde::{Deserialize, Serialize};

use super::Memory;
use crate::error::Result;
use crate::types::{AccessStats, Changeset, MemoryId, MemoryRecord, ProposedItem, RelatedItem};

/// A memory with the changeset that made it and the one that replaced it, from
/// [`Memory::lineage`] (which has an example).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Lineage {
    /// The memory itself.
    pub memory: MemoryRecord,
    /// The changeset that made it (its raw input, and the memories it replaced).
    pub origin: Option<Changeset>,
    /// The changeset that replaced it, if it is no longer active.
    pub replaced_by: Option<Changeset>,
    /// How often search and recall returned it, and when last.
    #[serde(default)]
    pub access: AccessStats,
}

impl Lineage {
    /// The memories the origin changeset replaced to make this one (empty when it was new).
    pub fn replaced(&self) -> Vec<&RelatedItem> {
        self.origin.as_ref().map(|c| c.removed().collect()).unwrap_or_default()
    }

    /// The memories that took its place.
    pub fn successors(&self) -> Vec<&ProposedItem> {
        self.replaced_by
            .as_ref()
            .map(|c| c.added().collect())
            .unwrap_or_default()
    }
}

impl Memory {
    /// The lineage of one memory, in any status.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// let old = memory.add("The user lives in Oslo.").await?.memory_ids.remove(0);
    /// let new = memory.update_memory(&old, "The user lives in Bergen.").await?.memory_ids.remove(0);
    /// let lineage = memory.lineage(&old).await?;
    /// assert_eq!(lineage.successors()[0].memory_id.as_ref(), Some(&new));
    /// assert_eq!(memory.lineage(&new).await?.replaced()[0].memory_id, old);
    /// # Ok(()) }
    /// ```
    pub async fn lineage(&self, id: &MemoryId) -> Result<Lineage> {
        let memory = self.memory(id).await?;
        let origin = match memory.changeset_id {
            Some(c) => Some(self.changeset(c).await?),
            None => None,
        };
        let replaced_by = match memory.superseded_by {
            Some(c) => Some(self.changeset(c).await?),
            None => None,
        };
        let access = self
            .access_stats(std::slice::from_ref(id))
            .await?
            .remove(id)
            .unwrap_or_default();
        Ok(Lineage {
            memory,
            origin,
            replaced_by,
            access,
        })
    }
}
