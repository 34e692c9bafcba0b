//! History: the changesets of a store (or of one user, for a user's handle), whole or as
//! the one-line summaries a history list shows.

use super::Memory;
use crate::error::Result;
use crate::types::{Changeset, ChangesetFilter, ChangesetId, ChangesetStatus, ChangesetSummary};

impl Memory {
    /// Changesets, newest first.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// use haema_core::{ChangesetFilter, ChangesetStatus};
    /// memory.add("The user is vegetarian.").await?;
    /// let committed = memory.changesets(ChangesetFilter::Status(ChangesetStatus::Committed)).await?;
    /// assert_eq!(committed[0].inputs, ["The user is vegetarian."]);
    /// # Ok(()) }
    /// ```
    pub async fn changesets(&self, filter: ChangesetFilter) -> Result<Vec<Changeset>> {
        self.blocking(move |inner| inner.store.read(|conn| conn.changesets().list(filter, None)))
            .await
    }

    /// At most `limit` changesets older than the changeset `before` (from the newest when
    /// `None`), newest first: keyset paging for long histories.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// # for fact in ["one", "two", "three"] { memory.add(fact).await?; }
    /// use haema_core::ChangesetFilter::All;
    /// let newest = memory.changesets_page(All, None, 2).await?; // "three", "two"
    /// let older = memory.changesets_page(All, Some(newest[1].id), 2).await?;
    /// assert_eq!(older[0].inputs, ["one"]);
    /// # Ok(()) }
    /// ```
    pub async fn changesets_page(
        &self,
        filter: ChangesetFilter,
        before: Option<ChangesetId>,
        limit: usize,
    ) -> Result<Vec<Changeset>> {
        self.blocking(move |inner| {
            inner
                .store
                .read(|conn| conn.changesets().page(filter, None, before, limit))
        })
        .await
    }

    /// At most `limit` changeset summaries older than the changeset `before` (from the
    /// newest when `None`), newest first: what a history list shows, read in one statement
    /// without loading any changeset's items. Open one with [`Memory::changeset`].
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// memory.add(vec!["one".to_string(), "two".to_string()]).await?;
    /// let line = &memory.changeset_summaries(None, 50).await?[0];
    /// assert_eq!((line.kind.as_str(), line.status.as_str(), line.added), ("add", "committed", 2));
    /// # Ok(()) }
    /// ```
    pub async fn changeset_summaries(
        &self,
        before: Option<ChangesetId>,
        limit: usize,
    ) -> Result<Vec<ChangesetSummary>> {
        self.blocking(move |inner| {
            inner
                .store
                .read(|conn| conn.changesets().summaries(None, None, before, limit))
        })
        .await
    }

    /// Changesets waiting for review, newest first.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?;
    /// use haema_core::{AddStatus, Memory, ReviewPolicy, Settings};
    /// let settings = Settings { review: ReviewPolicy::Review, ..Default::default() };
    /// let memory = Memory::open_with(dir.path(), settings, None, None).await?;
    /// assert_eq!(memory.add("The user is vegetarian.").await?.status, AddStatus::Pending);
    /// let waiting = memory.pending().await?;
    /// assert_eq!(waiting[0].inputs, ["The user is vegetarian."]);
    /// # Ok(()) }
    /// ```
    pub async fn pending(&self) -> Result<Vec<Changeset>> {
        self.changesets(ChangesetFilter::Status(ChangesetStatus::Pending)).await
    }

    /// What waits for a person: pending changesets, then (at most 100) stale ones that
    /// need a re-run or a rejection, newest first in each group.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?;
    /// # let settings = haema_core::Settings { review: haema_core::ReviewPolicy::Review, ..Default::default() };
    /// # let memory = haema_core::Memory::open_with(dir.path(), settings, None, None).await?;
    /// memory.add("The user is vegetarian.").await?;
    /// for changeset in memory.awaiting_review().await? {
    ///     println!("#{} {:?}: {}", changeset.id, changeset.status, changeset.inputs.join(" · "));
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn awaiting_review(&self) -> Result<Vec<Changeset>> {
        let mut items = self.pending().await?;
        items.extend(
            self.changesets_page(ChangesetFilter::Status(ChangesetStatus::Stale), None, 100)
                .await?,
        );
        Ok(items)
    }
}
