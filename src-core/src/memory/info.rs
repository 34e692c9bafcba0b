//! What a front end shows of an open store: its counts and identities.

use std::path::{Path, PathBuf};

use super::LexicalReason;
use crate::error::Result;
use crate::store::{MetaKey, Reader};
use crate::types::{MemoryFilter, MemoryStatus};

/// A short description of an open store.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct StoreInfo {
    /// The store folder (for a PostgreSQL store, its link folder on this machine).
    pub dir: PathBuf,
    /// Where the store is, as people are shown it: the folder, or a PostgreSQL store's URL
    /// without a password.
    pub location: String,
    /// Its short name, as people tell stores apart ([`crate::store_name`]): the folder's
    /// name, or "schema in database on host" for a PostgreSQL store.
    pub name: String,
    /// Active memories.
    pub active: usize,
    /// Changesets waiting for review.
    pub pending_changesets: usize,
    /// Captured sessions whose words wait for an LLM to split them into memories
    /// ([`crate::Memory::capture`]); nothing of them is stored until then.
    pub captures_waiting: usize,
    /// Embedder recorded in the store (`none` for lexical-only).
    pub embedder: String,
    /// Vector length (0 for lexical-only).
    pub dims: usize,
    /// The embedder a lexical-only store waits for (`local:<model>`), to give its memories
    /// vectors once that model is on this machine.
    pub embedder_wanted: Option<String>,
    /// Some memories were written while the embedder failed and still wait for their
    /// vectors (they are found by words meanwhile; the next add or open that reaches the
    /// embedder makes them).
    pub vectors_behind: bool,
    /// Why search is by words alone for now (`None` when it uses vectors, or when the store
    /// was only peeked at).
    pub lexical_reason: Option<LexicalReason>,
    /// LLM configured now, if any.
    pub llm: Option<String>,
    /// Review policy in force.
    pub review: crate::config::ReviewPolicy,
    /// Whether the store keeps each user's memories apart (`per_user`).
    pub scope: crate::config::StoreScope,
    /// The user this handle works for; its counts are that user's.
    pub user: Option<String>,
}

/// Counts and identities of a store, read on `conn`.
pub(super) fn store_info(
    conn: &dyn Reader,
    dir: &Path,
    location: &str,
    llm: Option<String>,
    review: crate::config::ReviewPolicy,
    user: Option<String>,
) -> Result<StoreInfo> {
    let per_user = conn.meta(MetaKey::Scope)?.as_deref() == Some(crate::config::StoreScope::PerUser.as_str());
    Ok(StoreInfo {
        dir: dir.to_path_buf(),
        location: location.to_owned(),
        name: crate::store::places::store_name(location),
        active: conn.memories().count(MemoryStatus::Active, &MemoryFilter::default())?,
        pending_changesets: conn.changesets().count_pending(None)?,
        captures_waiting: super::capture::waiting_count(
            conn.agents()
                .all_of(super::capture::CAPTURE_AGENT)?
                .into_iter()
                .map(|s| s.value),
        ),
        embedder: conn.meta(MetaKey::Embedder)?.unwrap_or_else(|| "none".into()),
        dims: conn.meta(MetaKey::Dims)?.and_then(|d| d.parse().ok()).unwrap_or(0),
        embedder_wanted: conn.meta(MetaKey::EmbedderWanted)?,
        vectors_behind: conn.meta(MetaKey::VectorsBehind)?.is_some() && conn.meta(MetaKey::EmbedderWanted)?.is_none(),
        lexical_reason: None,
        llm,
        review,
        scope: if per_user {
            crate::config::StoreScope::PerUser
        } else {
            crate::config::StoreScope::Shared
        },
        user,
    })
}
