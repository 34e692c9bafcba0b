//! Access statistics: how often and when each memory was returned by a search or a
//! recall. A read only notes what it returned (in the process); the notes reach the store a
//! few seconds later in one write, or when the store's last handle goes.

use std::collections::HashMap;
use std::time::Duration;

use super::Memory;
use crate::error::Result;
use crate::types::{AccessStats, MemoryId};

/// How long notes gather before they are written.
const FLUSH_AFTER: Duration = Duration::from_secs(2);

impl Memory {
    /// Notes that these memories were returned, and makes sure the notes are written soon.
    pub(crate) fn note_access(&self, ids: impl IntoIterator<Item = MemoryId>) {
        if !self.inner.store.note_access(ids) {
            return;
        }
        // The timer does not keep the store open: when the last handle goes first, it
        // writes the notes itself.
        let flush = self.inner.store.access_flusher();
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => {
                runtime.spawn(async move {
                    tokio::time::sleep(FLUSH_AFTER).await;
                    let _ = tokio::task::spawn_blocking(flush).await;
                });
            }
            Err(_) => {
                let _ = self.inner.store.flush_access();
            }
        }
    }

    /// How often each of `ids` was returned by a search or a recall, and when last (those
    /// of the last seconds included, before they are written). An id of no memory this
    /// handle sees gets no entry.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// let added = memory.add("The user is vegetarian.").await?;
    /// memory.search("vegetarian", 3).await?;
    /// memory.search("what does the user eat? vegetarian", 3).await?;
    /// let stats = memory.access_stats(&added.memory_ids).await?;
    /// assert_eq!(stats[&added.memory_ids[0]].access_count, 2);
    /// # Ok(()) }
    /// ```
    pub async fn access_stats(&self, ids: &[MemoryId]) -> Result<HashMap<MemoryId, AccessStats>> {
        let ids = ids.to_vec();
        self.blocking(move |inner| {
            let found = inner.store.read(|r| {
                let mut rows = Vec::with_capacity(ids.len());
                for id in &ids {
                    if let Some((rowid, _)) = r.memories().by_id(id)? {
                        rows.push((id.clone(), rowid));
                    }
                }
                let stored = r
                    .memories()
                    .access_stats(&rows.iter().map(|(_, rowid)| *rowid).collect::<Vec<_>>())?;
                Ok(rows
                    .into_iter()
                    .map(|(id, rowid)| (id, stored.get(&rowid).copied()))
                    .collect::<Vec<_>>())
            })?;
            Ok(found
                .into_iter()
                .map(|(id, stored)| {
                    let stats = inner.store.access_with_pending(&id, stored);
                    (id, stats)
                })
                .collect())
        })
        .await
    }

    /// Writes the access statistics noted so far now, instead of in a few seconds.
    pub async fn flush_access_stats(&self) -> Result<()> {
        self.blocking(|inner| inner.store.flush_access()).await
    }
}
