//! Users of a shared store (the default scope): the memories of one user are never
//! another's. The same fact told about two users is kept for each, one user's add never
//! rewrites another's memory, and an import keeps each user's copy; the same fact told
//! twice about one user is known.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::*;
use haema_core::{AddStatus, MemoryAttributes, MemoryFilter, ReviewPolicy, SearchMode, SearchOptions, parse_items};

fn about(user: &str) -> MemoryAttributes {
    MemoryAttributes {
        user_id: Some(user.to_owned()),
        ..MemoryAttributes::default()
    }
}

async fn found_for(f: &Fixture, user: &str, query: &str) -> Vec<String> {
    let filter = MemoryFilter {
        user_id: Some(user.to_owned()),
        ..MemoryFilter::default()
    };
    f.memory
        .search_records(query, 10, &SearchOptions::filtered(SearchMode::Lexical, filter))
        .await
        .unwrap()
        .hits
        .into_iter()
        .map(|h| h.memory.content)
        .collect()
}

#[tokio::test]
async fn the_same_fact_about_two_users_is_kept_for_each() {
    let f = fixture_without_llm(ReviewPolicy::Auto).await;
    let first = f.memory.add_with(items(&["likes tea"]), about("alice")).await.unwrap();
    assert_eq!(first.status, AddStatus::Committed);
    let second = f.memory.add_with(items(&["likes tea"]), about("bob")).await.unwrap();
    assert_eq!(second.status, AddStatus::Committed, "{:?}", second.warnings);
    assert_eq!(found_for(&f, "bob", "likes tea").await, ["likes tea"]);
    assert_eq!(found_for(&f, "alice", "likes tea").await, ["likes tea"]);
    assert_ne!(first.memory_ids, second.memory_ids);

    // Told again about bob: known.
    let again = f.memory.add_with(items(&["likes tea"]), about("bob")).await.unwrap();
    assert_eq!(again.status, AddStatus::Noop);

    // An import with both users' copy of one fact keeps both.
    let file = r#"[{"memory": "drives a red car", "user_id": "alice"}, {"memory": "drives a red car", "user_id": "bob"}, {"memory": "drives a red car", "user_id": "bob"}]"#;
    let report = f
        .memory
        .import_items(parse_items(file).unwrap(), "two-users.json")
        .await
        .unwrap();
    assert_eq!((report.added, report.skipped), (2, 1));
    assert_eq!(found_for(&f, "bob", "red car").await, ["drives a red car"]);
    assert_eq!(found_for(&f, "alice", "red car").await, ["drives a red car"]);
}
