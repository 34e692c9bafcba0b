//! `reembed`: switching embedders, resuming after a failure, lexical-only to vectors.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use common::*;
use haema_core::fake::HashEmbedder;
use haema_core::provider::{Embedder, ProviderError, ProviderErrorKind};
use haema_core::{Error, Memory, ReviewPolicy, SearchMode, reembed};

/// Embeds like `HashEmbedder` for `budget` calls, then fails like a dead server.
struct Dying {
    inner: HashEmbedder,
    budget: AtomicUsize,
}

#[async_trait::async_trait]
impl Embedder for Dying {
    fn id(&self) -> String {
        self.inner.id()
    }
    fn dims(&self) -> usize {
        self.inner.dims()
    }
    async fn embed_query(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, ProviderError> {
        self.inner.embed_query(texts).await
    }
    async fn embed_document(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, ProviderError> {
        if self.budget.fetch_sub(1, Ordering::SeqCst) == 0 {
            return Err(ProviderError::new("test:dying", ProviderErrorKind::Network, "killed"));
        }
        self.inner.embed_document(texts).await
    }
}

/// Opens the store with a hash embedder of `dims` numbers and no LLM.
async fn open_hashed(dir: &std::path::Path, dims: usize) -> Result<Memory, Error> {
    Memory::open_with(
        dir,
        settings(ReviewPolicy::Auto),
        None,
        Some(Arc::new(HashEmbedder::new(dims))),
    )
    .await
}

async fn store_with(n: usize, embedder: Option<Arc<dyn Embedder>>) -> (tempfile::TempDir, Memory) {
    let dir = tempfile::tempdir().unwrap();
    let memory = Memory::open_with(dir.path(), settings(ReviewPolicy::Auto), None, embedder)
        .await
        .unwrap();
    let texts: Vec<String> = (0..n)
        .map(|i| format!("memory {i} mentions word{i} and topic {}", i % 5))
        .collect();
    memory.add(texts).await.unwrap();
    (dir, memory)
}

#[tokio::test]
async fn switches_dimension_and_the_old_configuration_is_then_refused() {
    let (dir, memory) = store_with(150, Some(Arc::new(HashEmbedder::new(64)))).await;
    drop(memory);
    let mut steps = Vec::new();
    let report = reembed(dir.path(), Some(Arc::new(HashEmbedder::new(32))), |p| steps.push(p))
        .await
        .unwrap();
    assert_eq!(
        (
            report.from.as_str(),
            report.to.as_str(),
            report.dims,
            report.embedded,
            report.resumed
        ),
        ("test:hash-64", "test:hash-32", 32, 150, false)
    );
    assert_eq!(steps.last().map(|p| (p.done, p.total)), Some((150, 150)));
    assert!(steps.len() >= 3, "progress after every batch");
    let new = open_hashed(dir.path(), 32).await.unwrap();
    let hits = new
        .search_records("memory 42 mentions word42 and topic 2", 1, SearchMode::Vector)
        .await
        .unwrap();
    assert_eq!(hits.hits[0].memory.content, "memory 42 mentions word42 and topic 2");
    let old = open_hashed(dir.path(), 64).await;
    assert!(matches!(old, Err(Error::EmbedderMismatch { .. })));
}

#[tokio::test]
async fn a_stopped_run_leaves_the_store_usable_and_resumes() {
    let (dir, memory) = store_with(200, Some(Arc::new(HashEmbedder::new(64)))).await;
    let dying = Arc::new(Dying {
        inner: HashEmbedder::new(32),
        budget: AtomicUsize::new(2),
    });
    let err = reembed(dir.path(), Some(dying), |_| {}).await.unwrap_err();
    assert!(err.to_string().contains("killed"), "{err}");
    // Meanwhile the store works as before with its old embedder, reads and writes.
    assert_eq!(
        memory
            .search_records("memory 7 mentions word7 and topic 2", 1, SearchMode::Vector)
            .await
            .unwrap()
            .hits[0]
            .memory
            .content,
        "memory 7 mentions word7 and topic 2"
    );
    memory
        .add(vec!["added while the re-embedding was stopped".to_owned()])
        .await
        .unwrap();
    drop(memory);
    let report = reembed(dir.path(), Some(Arc::new(HashEmbedder::new(32))), |_| {})
        .await
        .unwrap();
    assert!(report.resumed);
    assert_eq!(
        report.embedded,
        201 - 128,
        "the two batches done before are not embedded again"
    );
    let new = open_hashed(dir.path(), 32).await.unwrap();
    let hits = new
        .search_records("added while the re-embedding was stopped", 1, SearchMode::Vector)
        .await
        .unwrap();
    assert_eq!(hits.hits[0].memory.content, "added while the re-embedding was stopped");
}

#[tokio::test]
async fn lexical_only_stores_gain_vectors_and_superseded_memories_come_along() {
    let f = fixture_without_llm(ReviewPolicy::Auto).await;
    drop(f.memory);
    let dir = f.dir;
    let lexical = Memory::open_with(dir.path(), settings(ReviewPolicy::Auto), None, None)
        .await
        .unwrap();
    lexical.add(items(&["the user likes green tea"])).await.unwrap();
    let id = lexical
        .add(items(&["the user likes coffee"]))
        .await
        .unwrap()
        .changeset
        .unwrap();
    lexical.revert(id).await.unwrap();
    drop(lexical);
    let report = reembed(dir.path(), Some(Arc::new(HashEmbedder::new(16))), |_| {})
        .await
        .unwrap();
    assert_eq!(
        (report.from.as_str(), report.embedded),
        ("none", 2),
        "active and superseded memories"
    );
    let memory = open_hashed(dir.path(), 16).await.unwrap();
    let hits = memory.search_records("coffee", 5, SearchMode::Vector).await.unwrap();
    assert!(
        hits.hits.iter().all(|h| h.memory.content != "the user likes coffee"),
        "superseded memories stay out of search"
    );
    // Reverting the revert brings the coffee memory back with its new vector.
    let revert = memory.changesets(Default::default()).await.unwrap()[0].id;
    memory.revert(revert).await.unwrap();
    let hits = memory
        .search_records("the user likes coffee", 1, SearchMode::Vector)
        .await
        .unwrap();
    assert_eq!(hits.hits[0].memory.content, "the user likes coffee");
    drop(memory);
    let back = reembed(dir.path(), None, |_| {}).await.unwrap();
    assert_eq!(back.to, "none");
    assert!(
        Memory::open_with(dir.path(), settings(ReviewPolicy::Auto), None, None)
            .await
            .is_ok()
    );
}
