//! Store first, embed later (`[embedder] on_add = "later"`): an add returns without waiting
//! for the embedder, even when it is down, and says so once it is known to be down; the
//! memory is found by words meanwhile and `has_embedding` tells; a background worker (or
//! `catch_up_embeddings`, with progress) makes the vectors in batches.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use common::*;
use haema_core::config::{EmbedOnAdd, EmbedderSettings};
use haema_core::fake::HashEmbedder;
use haema_core::{AddStatus, Memory, ReviewPolicy, SearchMode, Settings};

async fn later(dir: &std::path::Path, embedder: &Arc<HashEmbedder>) -> Memory {
    let settings = Settings {
        embedder: EmbedderSettings {
            on_add: EmbedOnAdd::Later,
            ..Default::default()
        },
        ..settings(ReviewPolicy::Auto)
    };
    Memory::open_with(dir, settings, None, Some(embedder.clone()))
        .await
        .unwrap()
}

/// Waits (up to 10 s) until `done` holds of the backlog.
async fn wait_for(
    memory: &Memory,
    done: impl Fn(&haema_core::EmbeddingBacklog) -> bool,
) -> haema_core::EmbeddingBacklog {
    for _ in 0..200 {
        let backlog = memory.embedding_backlog().await.unwrap();
        if done(&backlog) {
            return backlog;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    memory.embedding_backlog().await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_add_stores_at_once_and_the_worker_makes_the_vectors() {
    let dir = tempfile::tempdir().unwrap();
    let embedder = Arc::new(HashEmbedder::new(DIMS));
    let memory = later(dir.path(), &embedder).await;
    let outcome = memory.add(items(&["The user plays the cello"])).await.unwrap();
    assert_eq!(outcome.status, AddStatus::Committed);
    assert!(outcome.warnings.is_empty(), "{:?}", outcome.warnings);
    let backlog = wait_for(&memory, |b| b.waiting == 0 && !b.working).await;
    assert_eq!((backlog.waiting, backlog.last_error), (0, None));
    let id = &outcome.memory_ids[0];
    assert!(memory.memory(id).await.unwrap().has_embedding);
    let found = memory.search_records("cello", 3, SearchMode::Vector).await.unwrap();
    assert_eq!(found.hits[0].memory.id, *id, "found by meaning once its vector is made");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_embedder_down_an_add_still_succeeds_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let embedder = Arc::new(HashEmbedder::new(DIMS));
    let memory = later(dir.path(), &embedder).await;
    memory.add(items(&["The user plays the cello"])).await.unwrap();
    wait_for(&memory, |b| b.waiting == 0 && !b.working).await;

    embedder.set_failing(true);
    let first = memory.add(items(&["The user lives in Vienna"])).await.unwrap();
    assert_eq!(
        first.status,
        AddStatus::Committed,
        "stored although the embedder is down"
    );
    let id = first.memory_ids[0].clone();
    let backlog = wait_for(&memory, |b| b.last_error.is_some() && !b.working).await;
    assert_eq!(backlog.waiting, 1, "{backlog:?}");
    assert!(!memory.memory(&id).await.unwrap().has_embedding);
    let by_words = memory.search_records("Vienna", 3, SearchMode::Lexical).await.unwrap();
    assert_eq!(by_words.hits[0].memory.id, id, "found by words meanwhile");

    let second = memory.add(items(&["The user drinks green tea"])).await.unwrap();
    assert_eq!(second.status, AddStatus::Committed);
    assert!(
        second.warnings.iter().any(|w| w.contains("not answering")),
        "{:?}",
        second.warnings
    );

    // The worker that add started fails too; once it has stopped, make the vectors now.
    wait_for(&memory, |b| b.waiting == 2 && !b.working && b.last_error.is_some()).await;
    embedder.set_failing(false);
    let mut steps = Vec::new();
    let made = memory
        .catch_up_embeddings(|p| steps.push((p.done, p.total)))
        .await
        .unwrap();
    assert_eq!(made, 2);
    assert_eq!(steps.last(), Some(&(2, 2)), "progress per batch");
    let backlog = memory.embedding_backlog().await.unwrap();
    assert_eq!((backlog.waiting, backlog.last_error), (0, None));
    for memory_id in [&id, &second.memory_ids[0]] {
        assert!(memory.memory(memory_id).await.unwrap().has_embedding);
    }
}

#[tokio::test]
async fn a_store_searched_by_words_has_no_vectors_to_make() {
    let dir = tempfile::tempdir().unwrap();
    let memory = Memory::open_with(dir.path(), Settings::default(), None, None)
        .await
        .unwrap();
    let added = memory.add(items(&["The user plays the cello"])).await.unwrap();
    assert!(!memory.memory(&added.memory_ids[0]).await.unwrap().has_embedding);
    assert!(memory.catch_up_embeddings(|_| {}).await.is_err());
    assert_eq!(memory.embedding_backlog().await.unwrap().waiting, 0);
}
