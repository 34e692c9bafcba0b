//! Filters on search, latest and recall, in every search mode, on a real store: every hit
//! passes, and the filter is applied inside the search (the top n are the best n that pass,
//! never fewer because better memories that fail it were fetched and dropped).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use common::*;
use haema_core::{
    ImportItem, LatestOptions, LatestStart, MemoryFilter, RecallOptions, ReviewPolicy, SearchMode, SearchOptions,
};
use serde_json::json;

const DAY: i64 = 86_400_000;
const T0: i64 = 1_767_225_600_000; // 2026-01-01

/// 240 memories about tea and travel, by three agents, two types, importances 0 to 0.9, a
/// project in the metadata of every third, one per day from T0.
async fn store() -> Fixture {
    let f = fixture_without_llm(ReviewPolicy::Auto).await;
    let items: Vec<ImportItem> = (0..240)
        .map(|i| ImportItem {
            content: format!(
                "{} note {i}: the user {} in {}",
                ["Tea", "Travel"][i % 2],
                ["drinks green tea", "flies to Oslo", "likes oolong tea", "books a train"][i % 4],
                ["spring", "summer", "autumn"][i % 3]
            ),
            timestamp_ms: Some(T0 + i as i64 * DAY),
            attributes: {
                let memory_type = ["fact", "episode"][i % 2];
                let agent = ["scout", "planner", "chef"][i % 3];
                let metadata = if i % 3 == 0 {
                    json!({"project": "apollo", "n": i % 5})
                } else {
                    json!({})
                };
                serde_json::from_value(json!({
                    "memory_type": memory_type,
                    "importance": (i % 10) as f64 / 10.0,
                    "agent_id": agent,
                    "metadata": metadata,
                }))
                .unwrap()
            },
        })
        .collect();
    f.memory.import_items(items, "test").await.unwrap();
    f
}

fn filter(value: serde_json::Value) -> MemoryFilter {
    serde_json::from_value(value).unwrap()
}

fn cosine(a: &[f32], b: &[f32]) -> f64 {
    let dot: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let na: f32 = a.iter().map(|x| x * x).sum::<f32>().sqrt();
    let nb: f32 = b.iter().map(|x| x * x).sum::<f32>().sqrt();
    f64::from(dot / (na * nb))
}

#[tokio::test]
async fn every_mode_returns_the_best_memories_that_pass() {
    let f = store().await;
    let conditions = [
        json!({"memory_type": "episode"}),
        json!({"min_importance": 0.8}),
        json!({"agent_id": "scout", "metadata": {"project": "apollo"}}),
        json!({"metadata": {"n": 3}}),
        json!({"since_ms": T0 + 100 * DAY, "until_ms": T0 + 130 * DAY}),
        json!({"memory_type": "FACT", "min_importance": 0.5, "agent_id": "planner"}),
    ];
    for condition in conditions {
        let wanted = filter(condition.clone());
        let checked = wanted.clone().checked().unwrap();
        for mode in SearchMode::ALL {
            let hits = f
                .memory
                .search_records(
                    "green tea in spring",
                    8,
                    &SearchOptions::filtered(*mode, wanted.clone()),
                )
                .await
                .unwrap()
                .hits;
            assert!(!hits.is_empty(), "{condition} {mode:?}");
            for hit in &hits {
                assert!(checked.matches(&hit.memory), "{condition} {mode:?}: {:?}", hit.memory);
            }
            // Inside the search: as many as asked whenever enough memories pass and match.
            assert_eq!(hits.len(), 8, "{condition} {mode:?}: {} hits", hits.len());
        }
        // The vector hits are exactly the nearest passing memories.
        let query = f.embedder.vector("green tea in spring");
        let mut passing: Vec<(f64, String)> = f
            .memory
            .get_latest_records(1, 1000)
            .await
            .unwrap()
            .into_iter()
            .filter(|m| checked.matches(m))
            .map(|m| (cosine(&query, &f.embedder.vector(&m.content)), m.content))
            .collect();
        passing.sort_by(|a, b| b.0.total_cmp(&a.0));
        let hits = f
            .memory
            .search_records(
                "green tea in spring",
                8,
                &SearchOptions::filtered(SearchMode::Vector, wanted.clone()),
            )
            .await
            .unwrap()
            .hits;
        let found: Vec<f64> = hits.iter().map(|h| 1.0 - h.distance.unwrap()).collect();
        let best: Vec<f64> = passing.iter().take(8).map(|p| p.0).collect();
        for (a, b) in found.iter().zip(&best) {
            assert!((a - b).abs() < 1e-4, "{condition}: {found:?} against {best:?}");
        }
    }
}

/// The page of latest memories from the `begin`-th newest among those that pass `filter`.
fn page(begin: i64, filter: &MemoryFilter) -> LatestOptions {
    LatestOptions {
        start: LatestStart::Begin(begin),
        filter: filter.clone(),
    }
}

#[tokio::test]
async fn latest_pages_and_recall_keep_to_the_filter() {
    let f = store().await;
    let wanted = filter(json!({"agent_id": "scout", "min_importance": 0.3}));
    let checked = wanted.clone().checked().unwrap();
    let first = f.memory.latest_records(10, &page(1, &wanted)).await.unwrap();
    assert_eq!(first.len(), 10);
    assert!(first.iter().all(|m| checked.matches(m)));
    assert!(first.windows(2).all(|w| w[0].timestamp_ms > w[1].timestamp_ms));
    let next = f
        .memory
        .latest_records(
            10,
            &LatestOptions {
                start: LatestStart::after(&first[9]),
                filter: wanted.clone(),
            },
        )
        .await
        .unwrap();
    assert!(
        next.iter()
            .all(|m| checked.matches(m) && m.timestamp_ms < first[9].timestamp_ms)
    );
    let second_page = f.memory.latest_records(10, &page(11, &wanted)).await.unwrap();
    assert_eq!(next, second_page, "keyset and offset paging agree");
    let all = f.memory.latest_records(1000, &page(1, &wanted)).await.unwrap();
    let expected = f
        .memory
        .get_latest_records(1, 1000)
        .await
        .unwrap()
        .into_iter()
        .filter(|m| checked.matches(m))
        .count();
    assert_eq!(all.len(), expected);

    let recall = f
        .memory
        .recall_with(
            "oolong tea",
            &RecallOptions {
                filter: wanted.clone(),
                ..RecallOptions::budget(100_000)
            },
        )
        .await
        .unwrap();
    let ids: Vec<_> = recall.items.iter().filter_map(|i| i.id.clone()).collect();
    assert!(!ids.is_empty());
    for id in ids {
        assert!(checked.matches(&f.memory.memory(&id).await.unwrap()));
    }
    // Nothing passes: nothing is found, nothing listed, and that is not an error.
    let none = filter(json!({"user_id": "nobody"}));
    assert!(f.memory.latest_records(10, &page(1, &none)).await.unwrap().is_empty());
    for mode in SearchMode::ALL {
        let hits = f
            .memory
            .search_records("tea", 5, &SearchOptions::filtered(*mode, none.clone()))
            .await
            .unwrap()
            .hits;
        assert!(hits.is_empty(), "{mode:?}");
    }
}

#[tokio::test]
async fn a_bad_filter_is_refused_clearly() {
    let f = store().await;
    for (bad, says) in [
        (json!({"min_importance": 3}), "from 0 to 1"),
        (json!({"metadata": {"project": ["a"]}}), "object or a list"),
        (json!({"since_ms": 5, "until_ms": 1}), "ends before it starts"),
    ] {
        let error = f
            .memory
            .search_records(
                "tea",
                5,
                &SearchOptions::filtered(SearchMode::Hybrid, filter(bad.clone())),
            )
            .await
            .unwrap_err();
        assert!(error.to_string().contains(says), "{bad}: {error}");
    }
}
