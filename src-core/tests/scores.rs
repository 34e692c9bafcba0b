//! Readable scores on a real store: in [0, 1] in every mode, on a scale that does not move
//! with the rest of the store (so `min_score` means the same for every query), hits ordered
//! by `rank_score`; and a recall that never waits for its search past its time limit.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use common::*;
use haema_core::fake::HashEmbedder;
use haema_core::provider::{Embedder, ProviderError};
use haema_core::{Memory, RecallOptions, RecallReason, ReviewPolicy, SearchMode, SearchOptions};

const MODES: [SearchMode; 3] = [SearchMode::Hybrid, SearchMode::Vector, SearchMode::Lexical];

async fn search(memory: &Memory, query: &str, options: SearchOptions) -> Vec<haema_core::SearchHit> {
    memory.search_records(query, 10, &options).await.unwrap().hits
}

fn score_of(hits: &[haema_core::SearchHit], content: &str) -> Option<f64> {
    hits.iter().find(|h| h.memory.content == content).map(|h| h.score)
}

#[tokio::test]
async fn scores_are_between_0_and_1_in_every_mode_and_hits_follow_the_rank() {
    let f = fixture_without_llm(ReviewPolicy::Auto).await;
    f.memory
        .add(items(&[
            "The user drinks green tea every morning",
            "The user's sister drinks coffee",
            "Green hills surround the village",
            "The user plays the cello",
        ]))
        .await
        .unwrap();
    for mode in MODES {
        let hits = search(&f.memory, "green tea", SearchOptions::mode(mode)).await;
        assert!(!hits.is_empty(), "{mode}");
        for hit in &hits {
            assert!((0.0..=1.0).contains(&hit.score), "{mode}: {}", hit.score);
        }
        assert!(
            hits.windows(2).all(|w| w[0].rank_score >= w[1].rank_score),
            "{mode}: ordered by rank_score"
        );
    }
    let lexical = search(&f.memory, "green tea", SearchOptions::mode(SearchMode::Lexical)).await;
    assert_eq!(score_of(&lexical, "The user drinks green tea every morning"), Some(1.0));
    assert_eq!(score_of(&lexical, "Green hills surround the village"), Some(0.5));
    // The same text as the query: the whole similarity.
    let vector = search(
        &f.memory,
        "The user plays the cello",
        SearchOptions::mode(SearchMode::Vector),
    )
    .await;
    assert!((vector[0].score - 1.0).abs() < 1e-6, "{}", vector[0].score);
    // In hybrid mode every hit with a vector has its similarity measured, even one that
    // only the full-text signal found, and its score is at least what either signal says.
    let hybrid = search(&f.memory, "green tea", SearchOptions::mode(SearchMode::Hybrid)).await;
    for hit in &hybrid {
        let similarity = (1.0 - hit.distance.expect("every memory has a vector")).clamp(0.0, 1.0);
        assert!(hit.score + 1e-9 >= similarity, "{hit:?}");
    }
    assert_eq!(score_of(&hybrid, "The user drinks green tea every morning"), Some(1.0));
}

#[tokio::test]
async fn a_score_does_not_move_with_the_rest_of_the_store() {
    let f = fixture_without_llm(ReviewPolicy::Auto).await;
    let target = "The user keeps bees on the roof";
    f.memory.add(items(&[target, "Bees like lavender"])).await.unwrap();
    let mut before = Vec::new();
    for mode in MODES {
        let hits = search(&f.memory, "bees on the roof", SearchOptions::mode(mode)).await;
        before.push(score_of(&hits, target).unwrap());
    }
    // Many more memories, some sharing the query's words: ranks move, scores do not.
    let more: Vec<String> = (0..60)
        .map(|i| format!("Note {i}: the neighbour's roof has {} bees", i * 3))
        .collect();
    f.memory.add(more).await.unwrap();
    for (mode, was) in MODES.into_iter().zip(before) {
        let hits = search(&f.memory, "bees on the roof", SearchOptions::mode(mode)).await;
        let now = score_of(&hits, target).unwrap_or_else(|| panic!("{mode}: {target} still found"));
        assert!((now - was).abs() < 1e-9, "{mode}: {was} then {now}");
    }
}

#[tokio::test]
async fn min_score_leaves_out_weaker_hits_and_a_bad_one_is_refused() {
    let f = fixture_without_llm(ReviewPolicy::Auto).await;
    f.memory
        .add(items(&[
            "The user drinks green tea every morning",
            "Green hills surround the village",
            "The user's tea is from Jeju",
        ]))
        .await
        .unwrap();
    for mode in MODES {
        let all = search(&f.memory, "green tea", SearchOptions::mode(mode)).await;
        let cut = 0.75;
        let strong = search(
            &f.memory,
            "green tea",
            SearchOptions {
                min_score: Some(cut),
                ..SearchOptions::mode(mode)
            },
        )
        .await;
        let expected: Vec<&str> = all
            .iter()
            .filter(|h| h.score >= cut)
            .map(|h| h.memory.content.as_str())
            .collect();
        let got: Vec<&str> = strong.iter().map(|h| h.memory.content.as_str()).collect();
        assert_eq!(got, expected, "{mode}");
    }
    let only_perfect = search(
        &f.memory,
        "green tea",
        SearchOptions {
            min_score: Some(1.0),
            ..SearchOptions::mode(SearchMode::Lexical)
        },
    )
    .await;
    assert_eq!(only_perfect.len(), 1);
    for bad in [1.5, -0.1, f64::NAN] {
        let options = SearchOptions {
            min_score: Some(bad),
            ..SearchOptions::default()
        };
        let error = f.memory.search_records("tea", 5, &options).await.unwrap_err();
        assert!(error.to_string().contains("from 0"), "{bad}: {error}");
        let recall = RecallOptions {
            min_score: Some(bad),
            ..RecallOptions::default()
        };
        assert!(f.memory.recall_with("tea", &recall).await.is_err(), "{bad}");
    }
}

/// The hash embedder, slow to embed a query (a loaded machine, a far server).
struct SlowQueries {
    inner: HashEmbedder,
    delay: Duration,
}

#[async_trait]
impl Embedder for SlowQueries {
    fn id(&self) -> String {
        self.inner.id()
    }

    fn dims(&self) -> usize {
        self.inner.dims()
    }

    async fn embed_query(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, ProviderError> {
        tokio::time::sleep(self.delay).await;
        self.inner.embed_query(texts).await
    }

    async fn embed_document(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, ProviderError> {
        self.inner.embed_document(texts).await
    }
}

#[tokio::test]
async fn a_recall_answers_with_core_and_latest_when_the_search_runs_out_of_time() {
    let dir = tempfile::tempdir().unwrap();
    let embedder = Arc::new(SlowQueries {
        inner: HashEmbedder::new(DIMS),
        delay: Duration::from_secs(1),
    });
    let memory = Memory::open_with(dir.path(), settings(ReviewPolicy::Auto), None, Some(embedder))
        .await
        .unwrap();
    let older: Vec<String> = (0..8).map(|i| format!("Old note {i} about the garden")).collect();
    memory.add(older).await.unwrap();
    memory.add(items(&["The user is allergic to peanuts"])).await.unwrap();

    let started = Instant::now();
    let options = RecallOptions {
        timeout: Some(Duration::from_millis(100)),
        ..RecallOptions::budget(2_000)
    };
    let recall = memory.recall_with("garden", &options).await.unwrap();
    assert!(
        started.elapsed() < Duration::from_millis(900),
        "{:?}",
        started.elapsed()
    );
    let notice = recall.notice.as_deref().unwrap_or_default();
    assert!(notice.contains("100 ms"), "{notice}");
    assert!(recall.items.iter().all(|i| i.reason != RecallReason::Relevant));
    let latest = recall.items.iter().filter(|i| i.reason == RecallReason::Latest).count();
    assert_eq!(latest, 5, "the newest memories are still given");
    assert!(recall.text.contains("allergic to peanuts"));

    // With time enough, the relevant memories come, at most `max_memories` of them; a zero
    // wait is no limit, as `recall.timeout_ms = 0` and every surface's 0 are.
    let options = RecallOptions {
        timeout: Some(Duration::ZERO),
        max_memories: 2,
        latest: 1,
        ..RecallOptions::budget(2_000)
    };
    let recall = memory.recall_with("garden", &options).await.unwrap();
    assert_eq!(recall.notice, None);
    let relevant = recall
        .items
        .iter()
        .filter(|i| i.reason == RecallReason::Relevant)
        .count();
    assert_eq!(relevant, 2);
}
