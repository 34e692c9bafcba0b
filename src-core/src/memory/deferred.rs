//! Store first, embed later (`[embedder] on_add = "later"`): an add stores its memories
//! without waiting for the embedder, and a background worker gives them their vectors in
//! batches. Meanwhile they are found by words; [`Memory::embedding_backlog`] tells how many
//! wait and whether the embedder answers.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use serde::Serialize;

use super::Memory;
use crate::config::EmbedOnAdd;
use crate::error::Result;
use crate::maintenance::{ReembedProgress, fill_missing};
use crate::store::{MetaKey, Scope};

/// The background worker that makes the vectors of memories stored without them: one per
/// opened store, shared by every handle on it (a user's handle too).
#[derive(Debug, Default)]
pub(crate) struct EmbedWorker {
    /// It is at work.
    running: AtomicBool,
    /// Asked to run (again) since it last looked: memories were stored meanwhile.
    again: AtomicBool,
    /// Why its last run stopped short (the embedder failed), until a run succeeds.
    last_error: Mutex<Option<String>>,
    /// `(done, total)` of its run.
    progress: Mutex<(usize, usize)>,
}

/// Memories waiting for their search vectors.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct EmbeddingBacklog {
    /// Memories (active or replaced) stored without a vector; found by words meanwhile.
    pub waiting: usize,
    /// The background worker is making vectors now.
    pub working: bool,
    /// Why the worker's last run stopped (the embedder failed); `None` once a run succeeds.
    pub last_error: Option<String>,
}

impl Memory {
    /// Whether adds leave the vectors to the background worker.
    pub(crate) fn embeds_later(&self) -> bool {
        self.inner.embedder.is_some() && self.inner.settings.embedder.on_add == EmbedOnAdd::Later
    }

    /// Why the background worker last failed, while it has not succeeded since.
    pub(crate) fn deferred_error(&self) -> Option<String> {
        self.inner
            .embed_worker
            .last_error
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Starts the background worker when memories wait for their vectors and none runs
    /// (outside an async runtime there is no background: the next open or `catch_up` does
    /// it).
    pub(crate) fn catch_up_in_background(&self) {
        let Some(embedder) = self.inner.embedder.clone() else {
            return;
        };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let worker = Arc::clone(&self.inner.embed_worker);
        // Asked first, then started: a worker about to stop sees the request and goes on.
        worker.again.store(true, Ordering::Release);
        if worker.running.swap(true, Ordering::AcqRel) {
            return;
        }
        // Vectors are no user's text: the worker sees the whole store.
        let store = Arc::new(self.inner.store.with_scope(Scope::Whole));
        runtime.spawn(async move {
            loop {
                worker.again.store(false, Ordering::Release);
                if !is_behind(&store).await {
                    worker.running.store(false, Ordering::Release);
                    if worker.again.load(Ordering::Acquire) && !worker.running.swap(true, Ordering::AcqRel) {
                        continue;
                    }
                    return;
                }
                let progress = Arc::clone(&worker);
                let run = fill_missing(&store, Arc::clone(&embedder), move |p: ReembedProgress| {
                    *progress.progress.lock().unwrap_or_else(PoisonError::into_inner) = (p.done, p.total);
                })
                .await;
                let failed = run.as_ref().err().map(ToString::to_string);
                let ok = failed.is_none();
                *worker.last_error.lock().unwrap_or_else(PoisonError::into_inner) = failed;
                worker.running.store(false, Ordering::Release);
                // An add that committed while the run finished asked again: go on (unless
                // the embedder failed, or another run started).
                if !ok || !worker.again.load(Ordering::Acquire) || worker.running.swap(true, Ordering::AcqRel) {
                    return;
                }
            }
        });
    }

    /// How many memories wait for their search vectors, whether the background worker is
    /// at them, and why it last stopped if the embedder failed.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// let backlog = memory.embedding_backlog().await?;
    /// assert_eq!((backlog.waiting, backlog.working), (0, false));
    /// # Ok(()) }
    /// ```
    pub async fn embedding_backlog(&self) -> Result<EmbeddingBacklog> {
        if self.requires_user() {
            return Err(crate::error::Error::UserRequired);
        }
        let worker = Arc::clone(&self.inner.embed_worker);
        let waiting = self
            .blocking(|inner| {
                inner.store.with_scope(Scope::Whole).read(|r| {
                    if r.vectors().exist()? {
                        r.vectors().missing_count()
                    } else {
                        Ok(0)
                    }
                })
            })
            .await?;
        Ok(EmbeddingBacklog {
            waiting,
            working: worker.running.load(Ordering::Acquire),
            last_error: self.deferred_error(),
        })
    }

    /// Makes the vectors of every memory stored without one now, in batches, calling
    /// `progress` after each; returns how many were made. An embedder that fails stops it
    /// (what was made stays made).
    ///
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// # use std::sync::Arc;
    /// # let embedder = Arc::new(haema_core::fake::HashEmbedder::new(8));
    /// # let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, Some(embedder)).await?;
    /// let made = memory.catch_up_embeddings(|p| println!("{} of {} memories", p.done, p.total)).await?;
    /// assert_eq!(made, 0); // nothing waits in a fresh store
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The embedder's error; [`crate::Error::InvalidState`] for a store searched by words.
    pub async fn catch_up_embeddings(&self, progress: impl FnMut(ReembedProgress) + Send) -> Result<usize> {
        if self.requires_user() {
            return Err(crate::error::Error::UserRequired);
        }
        let Some(embedder) = self.inner.embedder.clone() else {
            return Err(crate::error::Error::InvalidState(
                "this store is searched by words alone: it has no vectors to make".into(),
            ));
        };
        let store = Arc::new(self.inner.store.with_scope(Scope::Whole));
        let made = fill_missing(&store, embedder, progress).await;
        let worker = &self.inner.embed_worker;
        *worker.last_error.lock().unwrap_or_else(PoisonError::into_inner) =
            made.as_ref().err().map(ToString::to_string);
        made
    }
}

/// Whether memories of the store wait for their vectors.
async fn is_behind(store: &Arc<crate::store::Store>) -> bool {
    let store = Arc::clone(store);
    tokio::task::spawn_blocking(move || store.read(|r| r.meta(MetaKey::VectorsBehind)))
        .await
        .ok()
        .and_then(Result::ok)
        .flatten()
        .is_some()
}
