//! Access statistics: how often a memory was returned by search or recall, noted without a
//! write per read, written in batches that survive a reopen and wake no watcher, and usable
//! as a ranking signal that is off by default.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::*;
use haema_core::config::SearchSettings;
use haema_core::{Memory, MemoryId, ReviewPolicy, SearchMode, Settings};

async fn lexical(dir: &std::path::Path, access_weight: f64) -> Memory {
    let settings = Settings {
        search: SearchSettings { access_weight },
        ..settings(ReviewPolicy::Auto)
    };
    Memory::open_with(dir, settings, None, None).await.unwrap()
}

async fn hits(memory: &Memory, id: &MemoryId) -> u64 {
    memory.access_stats(std::slice::from_ref(id)).await.unwrap()[id].access_count
}

#[tokio::test]
async fn searches_and_recalls_are_counted_and_the_counts_survive_a_reopen() {
    let dir = tempfile::tempdir().unwrap();
    let memory = lexical(dir.path(), 0.0).await;
    let added = memory
        .add(items(&["The user plays the cello", "The user lives in Vienna"]))
        .await
        .unwrap();
    let (cello, vienna) = (added.memory_ids[0].clone(), added.memory_ids[1].clone());
    assert_eq!(hits(&memory, &cello).await, 0);
    memory.search("cello", 5).await.unwrap();
    memory
        .search_records("cello lessons", 5, SearchMode::Lexical)
        .await
        .unwrap();
    assert_eq!(hits(&memory, &cello).await, 2, "counted before they are written");
    assert_eq!(hits(&memory, &vienna).await, 0);
    // A recall counts what its block holds, once each: both as latest, the cello once more
    // as relevant is the same memory and counts once.
    memory.recall("cello", 2000).await.unwrap();
    assert_eq!(hits(&memory, &cello).await, 3);
    assert_eq!(hits(&memory, &vienna).await, 1);
    let last = memory.access_stats(std::slice::from_ref(&cello)).await.unwrap()[&cello].last_accessed_ms;
    assert!(last.is_some());
    drop(memory);

    let reopened = lexical(dir.path(), 0.0).await;
    assert_eq!(
        hits(&reopened, &cello).await,
        3,
        "the last handle wrote them when it went"
    );
    assert_eq!(hits(&reopened, &vienna).await, 1);
    assert!(
        reopened
            .access_stats(&[MemoryId::from("nope")])
            .await
            .unwrap()
            .is_empty()
    );
}

#[tokio::test]
async fn writing_the_counts_wakes_no_watcher_but_a_change_does() {
    let dir = tempfile::tempdir().unwrap();
    let agent = lexical(dir.path(), 0.0).await;
    agent.add(items(&["The user plays the cello"])).await.unwrap();
    let window = lexical(dir.path(), 0.0).await;
    let before = window.data_version().await.unwrap();
    agent.search("cello", 5).await.unwrap();
    agent.flush_access_stats().await.unwrap();
    assert_eq!(
        window.data_version().await.unwrap(),
        before,
        "counts are no change to show"
    );
    agent.add(items(&["The user lives in Vienna"])).await.unwrap();
    assert_ne!(window.data_version().await.unwrap(), before, "an add is");
}

#[tokio::test]
async fn memories_returned_often_rank_higher_only_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let memory = lexical(dir.path(), 0.0).await;
    let added = memory.add(items(&["Tea note alpha", "Tea note beta"])).await.unwrap();
    let beta = added.memory_ids[1].clone();
    for _ in 0..20 {
        memory.search("beta", 1).await.unwrap();
    }
    memory.flush_access_stats().await.unwrap();
    let order = |m: &Memory| {
        let m = m.clone();
        async move { m.search("tea note", 2).await.unwrap() }
    };
    assert_eq!(
        order(&memory).await,
        vec!["Tea note alpha", "Tea note beta"],
        "off by default"
    );
    drop(memory);
    let weighted = lexical(dir.path(), 1.0).await;
    assert_eq!(order(&weighted).await, vec!["Tea note beta", "Tea note alpha"]);
    let results = weighted
        .search_records("tea note", 2, SearchMode::Lexical)
        .await
        .unwrap();
    assert_eq!(results.hits[0].memory.id, beta);
    assert!(
        (results.hits[0].score - results.hits[1].score).abs() < 1e-9,
        "the readable score stays the match's"
    );
    // A poor match is not lifted over a good one.
    assert_eq!(weighted.search("alpha", 1).await.unwrap(), vec!["Tea note alpha"]);
}

#[tokio::test]
async fn an_access_weight_out_of_range_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let settings = Settings {
        search: SearchSettings { access_weight: 2.0 },
        ..Settings::default()
    };
    let error = Memory::open_with(dir.path(), settings, None, None).await.unwrap_err();
    assert!(error.to_string().contains("access_weight"), "{error}");
}

/// One user's handles come and go (an MCP server makes one per call): their counts are
/// still written a few seconds later, by the store that stays open.
#[tokio::test(start_paused = true)]
async fn counts_noted_through_short_lived_handles_are_written_by_the_timer() {
    let dir = tempfile::tempdir().unwrap();
    let memory = lexical(dir.path(), 0.0).await;
    let added = memory
        .for_user("ann")
        .unwrap()
        .add(items(&["Ann plays the cello"]))
        .await
        .unwrap();
    let cello = added.memory_ids[0].clone();
    for _ in 0..3 {
        let call = memory.for_user("ann").unwrap();
        assert_eq!(call.search("cello", 5).await.unwrap().len(), 1);
    }
    // Another handle on the store (as another process would be) sees only what is written.
    let other = lexical(dir.path(), 0.0).await;
    assert_eq!(hits(&other, &cello).await, 0, "not written yet");
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    let mut written = 0;
    for _ in 0..200 {
        written = hits(&other, &cello).await;
        if written == 3 {
            break;
        }
        tokio::task::yield_now().await;
    }
    assert_eq!(written, 3, "written by the timer while the store stays open");
    drop(memory);
}
