//! Switching a store to another embedder: `haema reembed`.
//!
//! New vectors go into a staging table in batches, each batch its own transaction, so a
//! killed run resumes where it stopped. The live vectors and the store's recorded embedder
//! stay as they were until the end, so other processes keep reading (and writing) the store
//! meanwhile; memories they add are embedded too before the switch. The switch itself is
//! one transaction.

use crate::store::MetaKey;
use std::path::Path;
use std::sync::Arc;

use crate::error::{Error, Result};
use crate::provider::{Embedder, check_embeddings};
use crate::store::Store;

/// Memories embedded per batch (and per transaction).
const BATCH: usize = 64;

/// How far a re-embedding has come.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReembedProgress {
    /// Memories with a new vector.
    pub done: usize,
    /// Memories to embed in all.
    pub total: usize,
}

/// What a re-embedding did.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ReembedReport {
    /// Embedder before (`none` for lexical-only).
    pub from: String,
    /// Embedder now.
    pub to: String,
    /// Vector length now (0 for lexical-only).
    pub dims: usize,
    /// Memories embedded by this run (fewer than all when it resumed an earlier run).
    pub embedded: usize,
    /// True when it continued a run that had been stopped.
    pub resumed: bool,
}

async fn blocking<T: Send + 'static>(
    store: &Arc<Store>,
    f: impl FnOnce(&Store) -> Result<T> + Send + 'static,
) -> Result<T> {
    let store = Arc::clone(store);
    tokio::task::spawn_blocking(move || f(&store))
        .await
        .map_err(|e| Error::Internal(e.to_string()))?
}

/// Re-embeds every memory of the store in `dir` with `embedder` (or, with `None`, drops the
/// vectors and makes the store lexical-only). `progress` is called after every batch.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
/// use std::sync::Arc;
/// use haema_core::{Memory, reembed};
/// use haema_core::fake::HashEmbedder; // stands in for a real model here (feature `test-util`)
/// memory.add("The user drinks green tea.").await?; // a lexical-only store
/// let embedder = Arc::new(HashEmbedder::new(64));
/// let report = reembed(dir.path(), Some(embedder.clone()), |p| eprintln!("{} of {}", p.done, p.total)).await?;
/// assert_eq!((report.from.as_str(), report.to.as_str(), report.embedded), ("none", "test:hash-64", 1));
/// // From now on the store opens with that embedder only.
/// let memory = Memory::open_with(dir.path(), Default::default(), None, Some(embedder)).await?;
/// assert!(memory.lexical_reason().is_none());
/// # Ok(()) }
/// ```
pub async fn reembed(
    dir: &Path,
    embedder: Option<Arc<dyn Embedder>>,
    progress: impl FnMut(ReembedProgress) + Send,
) -> Result<ReembedReport> {
    reembed_with_lock(dir, embedder, progress, true)
        .await?
        .ok_or_else(|| Error::Internal("the vector lock was not waited for".into()))
}

/// [`reembed`], unless another process is re-embedding the store or catching up its
/// vectors: then `None` at once.
pub(crate) async fn reembed_unless_busy(
    dir: &Path,
    embedder: Option<Arc<dyn Embedder>>,
    progress: impl FnMut(ReembedProgress) + Send,
) -> Result<Option<ReembedReport>> {
    reembed_with_lock(dir, embedder, progress, false).await
}

/// The store's lock on vector work, taken on a blocking thread (it may wait).
async fn locked(store: &Arc<Store>, wait: bool) -> Result<Option<crate::store::WorkLock>> {
    let store = Arc::clone(store);
    tokio::task::spawn_blocking(move || store.lock_vector_work(wait))
        .await
        .map_err(|e| Error::Internal(e.to_string()))?
}

async fn reembed_with_lock(
    dir: &Path,
    embedder: Option<Arc<dyn Embedder>>,
    mut progress: impl FnMut(ReembedProgress) + Send,
    wait: bool,
) -> Result<Option<ReembedReport>> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io("create folder", dir, e))?;
    let dir = dir.to_path_buf();
    let store = Arc::new(
        tokio::task::spawn_blocking(move || Store::open(&dir))
            .await
            .map_err(|e| Error::Internal(e.to_string()))??,
    );
    let Some(lock) = locked(&store, wait).await? else {
        return Ok(None);
    };
    let from = blocking(&store, |s| s.read(|c| c.meta(MetaKey::Embedder)))
        .await?
        .unwrap_or_else(|| "none".into());
    let Some(embedder) = embedder else {
        blocking(&store, |s| {
            s.write(|tx| {
                tx.vectors_mut().drop_staging()?;
                tx.vectors_mut().drop_all()?;
                tx.delete_meta(MetaKey::ReembedTarget)?;
                tx.set_meta(MetaKey::Embedder, "none")?;
                tx.set_meta(MetaKey::Dims, "0")
            })
        })
        .await?;
        return Ok(Some(ReembedReport {
            from,
            to: "none".into(),
            dims: 0,
            embedded: 0,
            resumed: false,
        }));
    };
    let (id, dims) = (embedder.id(), embedder.dims());
    if dims == 0 {
        return Err(Error::Config("the embedding dimension must be greater than 0".into()));
    }
    let target = format!("{id}/{dims}");
    let resumed = {
        let target = target.clone();
        blocking(&store, move |s| {
            s.write(|tx| {
                let same = tx.meta(MetaKey::ReembedTarget)?.as_deref() == Some(target.as_str())
                    && tx.vectors().staged_exist()?;
                if !same {
                    tx.vectors_mut().start_staging(dims)?;
                    tx.set_meta(MetaKey::ReembedTarget, &target)?;
                }
                Ok(same)
            })
        })
        .await?
    };
    let mut embedded = 0;
    loop {
        if !lock.still_held() {
            return Err(Error::ReembedInterrupted);
        }
        let (batch, (total, done)) = blocking(&store, |s| {
            s.read(|c| Ok((c.vectors().unstaged(BATCH)?, c.vectors().staging_progress()?)))
        })
        .await?;
        progress(ReembedProgress { done, total });
        if batch.is_empty() {
            // Switch, unless a writer added memories since the last look.
            let id = id.clone();
            let switched = blocking(&store, move |s| {
                s.write(|tx| {
                    if !tx.vectors().unstaged(1)?.is_empty() {
                        return Ok(false);
                    }
                    tx.vectors_mut().promote_staging()?;
                    tx.set_meta(MetaKey::Embedder, &id)?;
                    tx.set_meta(MetaKey::Dims, &dims.to_string())?;
                    tx.delete_meta(MetaKey::ReembedTarget)?;
                    Ok(true)
                })
            })
            .await?;
            if switched {
                return Ok(Some(ReembedReport {
                    from,
                    to: embedder.id(),
                    dims,
                    embedded,
                    resumed,
                }));
            }
            continue;
        }
        let texts: Vec<String> = batch.iter().map(|(_, content, _)| content.clone()).collect();
        let vectors_of = embedder.embed_document(&texts).await?;
        let vectors_of = check_embeddings(&embedder.id(), vectors_of, texts.len(), dims)?;
        embedded += batch.len();
        blocking(&store, move |s| {
            s.write(|tx| {
                for ((rowid, _, active), vector) in batch.iter().zip(&vectors_of) {
                    tx.vectors_mut().stage(*rowid, vector, *active)?;
                }
                Ok(())
            })
        })
        .await?;
    }
}

/// Gives the memories that have no vector in the live table (written while the store's
/// embedder was missing) their vectors, a batch per transaction, then clears the store's
/// `vectors_behind` mark in the transaction that finds none left. `progress` is called after
/// every batch.
pub(crate) async fn fill_missing(
    store: &Arc<Store>,
    embedder: Arc<dyn Embedder>,
    mut progress: impl FnMut(ReembedProgress) + Send,
) -> Result<usize> {
    // Another process is at it: it clears the mark when done.
    let Some(_lock) = locked(store, false).await? else {
        return Ok(0);
    };
    let dims = embedder.dims();
    let total = blocking(store, |s| s.read(|c| c.vectors().missing_count())).await?;
    let mut done = 0;
    loop {
        let batch = blocking(store, |s| {
            s.write(|tx| {
                let batch = tx.vectors().missing(BATCH)?;
                if batch.is_empty() {
                    tx.delete_meta(MetaKey::VectorsBehind)?;
                }
                Ok(batch)
            })
        })
        .await?;
        if batch.is_empty() {
            return Ok(done);
        }
        let texts: Vec<String> = batch.iter().map(|(_, content, _)| content.clone()).collect();
        let vectors_of = embedder.embed_document(&texts).await?;
        let vectors_of = check_embeddings(&embedder.id(), vectors_of, texts.len(), dims)?;
        done += batch.len();
        blocking(store, move |s| {
            s.write(|tx| {
                for ((rowid, _, _), vector) in batch.iter().zip(&vectors_of) {
                    // Another process may have caught it up, or changed its status, meanwhile.
                    if let Some(active) = tx.vectors().still_missing(*rowid)? {
                        tx.vectors_mut().insert_with_status(*rowid, vector, active)?;
                    }
                }
                Ok(())
            })
        })
        .await?;
        progress(ReembedProgress {
            done,
            total: total.max(done),
        });
    }
}
