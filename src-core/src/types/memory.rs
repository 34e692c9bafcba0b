//! A long-term memory and its status.

use serde::{Deserialize, Serialize};

use super::{ChangesetId, MemoryAttributes, MemoryId};

closed_set! {
    /// Where a memory stands.
    ///
    /// Like every closed set of haema, it has one spelling per value, used on disk, in JSON
    /// and on screen:
    ///
    /// ```
    /// use haema_core::MemoryStatus;
    /// assert_eq!(MemoryStatus::Superseded.as_str(), "superseded");
    /// assert_eq!("active".parse::<MemoryStatus>()?, MemoryStatus::Active);
    /// let error = "archived".parse::<MemoryStatus>().unwrap_err();
    /// assert_eq!(error.expected, MemoryStatus::SPELLINGS); // says what it could be
    /// # Ok::<(), haema_core::UnknownValue>(())
    /// ```
    pub enum MemoryStatus ("memory status") {
        /// Visible to search, latest and recall.
        Active = "active",
        /// Proposed by a changeset that waits for review; invisible to reads.
        Pending = "pending",
        /// Replaced by a later changeset; kept for history and revert.
        Superseded = "superseded",
        /// Removed on purpose.
        Forgotten = "forgotten",
    }
}

/// One long-term memory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct MemoryRecord {
    /// Stable id (UUID v4). A memory carried over unchanged by a merge keeps its id.
    pub id: MemoryId,
    /// The memory's text.
    pub content: String,
    /// When it became a memory (Unix ms); strictly increasing across the store.
    pub timestamp_ms: i64,
    /// The same instant in ISO 8601 UTC (`2026-11-24T06:55:00.000Z`), as HAEMA gives it.
    #[serde(default)]
    pub timestamp: String,
    /// Last status change (Unix ms).
    pub updated_at_ms: i64,
    /// Status.
    pub status: MemoryStatus,
    /// The changeset that made it.
    pub changeset_id: Option<ChangesetId>,
    /// The changeset that replaced it, if any.
    pub superseded_by: Option<ChangesetId>,
    /// Pinned by a person: no change replaces or rewrites it without review.
    #[serde(default)]
    pub pinned: bool,
    /// It has its search vector: it is found by meaning as well as by words. False in a
    /// store searched by words alone, and for a memory whose vector is still to be made
    /// (the embedder was down, or the store embeds after writing: `embedder.on_add`).
    #[serde(default)]
    pub has_embedding: bool,
    /// Its type, importance, source, writer, user and metadata (each only when set).
    #[serde(flatten)]
    pub attributes: MemoryAttributes,
}
