//! An embedder outage loses nothing: the text is kept (found by words meanwhile) and gets
//! its vectors when the embedder answers again.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::*;
use haema_core::{AddStatus, ReviewPolicy, SearchMode, StoreInfo};
use serde_json::json;

async fn info(f: &Fixture) -> StoreInfo {
    f.memory.info().await.unwrap()
}

#[tokio::test]
async fn an_add_while_the_embedder_is_down_is_kept_and_caught_up_when_it_answers() {
    let f = fixture(ReviewPolicy::Auto).await;
    f.llm.push(
        "reconstruct",
        json!({"memories": ["The user keeps bees"], "coverage": "complete"}),
    );
    f.memory.add(items(&["the user keeps bees"])).await.unwrap();

    f.embedder.set_failing(true);
    f.llm.push(
        "reconstruct",
        json!({"memories": ["The user keeps bees and sells honey"], "coverage": "complete"}),
    );
    let outcome = f
        .memory
        .add(items(&["the user keeps bees and sells the honey"]))
        .await
        .unwrap();
    assert_eq!(outcome.status, AddStatus::Committed);
    assert!(
        outcome
            .warnings
            .iter()
            .any(|w| w.contains("the embedder failed") && w.contains("found by words")),
        "{:?}",
        outcome.warnings
    );
    assert_eq!(
        latest(&f.memory).await,
        vec!["The user keeps bees and sells honey"],
        "merged by words"
    );
    let lexical = f.memory.search_records("honey", 5, SearchMode::Lexical).await.unwrap();
    assert_eq!(lexical.hits.len(), 1, "found by words meanwhile");
    assert!(info(&f).await.vectors_behind, "the store knows vectors are owed");

    f.embedder.set_failing(false);
    f.memory.add(items(&["The user lives by the sea"])).await.unwrap();
    assert!(!info(&f).await.vectors_behind, "the next add caught them up");
    let by_meaning = f
        .memory
        .search_records("The user keeps bees and sells honey", 1, SearchMode::Vector)
        .await
        .unwrap();
    assert_eq!(by_meaning.hits[0].memory.content, "The user keeps bees and sells honey");
}

#[tokio::test]
async fn approving_while_the_embedder_is_down_commits_and_owes_the_vectors() {
    let f = fixture_without_llm(ReviewPolicy::Review).await;
    let outcome = f.memory.add(items(&["The user is learning Welsh"])).await.unwrap();
    f.embedder.set_failing(true);
    f.memory.approve(outcome.changeset.unwrap()).await.unwrap();
    assert_eq!(latest(&f.memory).await, vec!["The user is learning Welsh"]);
    assert!(info(&f).await.vectors_behind);
    f.embedder.set_failing(false);
    let again = reopen(&f, ReviewPolicy::Review).await;
    again.add(items(&["The user likes maps"])).await.unwrap();
    again.approve(again.pending().await.unwrap()[0].id).await.unwrap();
    assert!(!again.info().await.unwrap().vectors_behind);
}
