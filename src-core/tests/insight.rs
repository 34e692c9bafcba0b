//! What the desktop's pictures are drawn from: activity by who decided (the review policy,
//! a person, an import, an undo, what still waits), a memory's ancestry through two merges,
//! and the week's summary with the profile's changed lines.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::*;
use haema_core::{ActivityWho, ChangesetKind, DecidedBy, ReviewPolicy, Section};
use serde_json::json;

#[tokio::test]
async fn activity_groups_each_change_by_who_decided_it() {
    let f = fixture(ReviewPolicy::Guarded).await;
    let kept = f
        .memory
        .add(items(&["the user keeps bees"]))
        .await
        .unwrap()
        .changeset
        .unwrap();
    f.llm.push(
        "reconstruct",
        json!({"memories": ["the user keeps two hives of bees"], "coverage": "complete"}),
    );
    let merge = f
        .memory
        .add(items(&["the user keeps two hives"]))
        .await
        .unwrap()
        .changeset
        .unwrap();
    f.memory.approve(merge).await.unwrap();
    f.memory.revert(kept).await.ok();
    f.memory
        .import_text("notes.jsonl", "{\"content\": \"the user likes honey\"}\n", |_, _| {})
        .await
        .unwrap();
    f.llm.push(
        "reconstruct",
        json!({"memories": ["the user likes dark honey"], "coverage": "complete"}),
    );
    f.memory.add(items(&["the user likes honey, dark"])).await.unwrap();

    let who: Vec<ActivityWho> = f.memory.activity(0).await.unwrap().iter().map(|e| e.who).collect();
    assert_eq!(who.iter().filter(|w| **w == ActivityWho::Ai).count(), 1, "{who:?}");
    assert!(who.contains(&ActivityWho::You), "{who:?}");
    assert!(who.contains(&ActivityWho::Import), "{who:?}");
    assert!(who.contains(&ActivityWho::Waiting), "{who:?}");
    let future = i64::MAX / 2;
    assert!(f.memory.activity(future).await.unwrap().is_empty());
}

#[tokio::test]
async fn ancestry_follows_every_merge_back_to_the_first_memories() {
    let f = fixture(ReviewPolicy::Auto).await;
    let tea = f.memory.add(items(&["the user drinks tea"])).await.unwrap().memory_ids[0].clone();
    f.llm.push(
        "reconstruct",
        json!({"memories": ["the user drinks green tea"], "coverage": "complete"}),
    );
    let green = f
        .memory
        .add(items(&["the user drinks green tea now"]))
        .await
        .unwrap()
        .memory_ids[0]
        .clone();
    f.llm.push(
        "reconstruct",
        json!({"memories": ["the user drinks green tea with honey"], "coverage": "complete"}),
    );
    let honey = f
        .memory
        .add(items(&["the user drinks green tea with honey"]))
        .await
        .unwrap()
        .memory_ids[0]
        .clone();

    let tree = f.memory.ancestry(&honey).await.unwrap();
    let ids: Vec<_> = tree.nodes.iter().map(|n| n.memory.id.clone()).collect();
    assert_eq!(ids, [honey.clone(), green.clone(), tea.clone()]);
    assert_eq!(tree.nodes[0].parents, std::slice::from_ref(&green));
    assert_eq!(tree.nodes[1].successors, std::slice::from_ref(&honey));
    assert!(tree.nodes[2].parents.is_empty());
    let made = tree.nodes[0].made_by.as_ref().unwrap();
    assert_eq!(
        (made.kind, made.decided_by),
        (ChangesetKind::Add, Some(DecidedBy::Auto))
    );
    assert!(!tree.truncated);
    // From an ancestor, its successors are named: the way forward.
    assert_eq!(f.memory.ancestry(&tea).await.unwrap().nodes[0].successors, [green]);
}

#[tokio::test]
async fn the_week_counts_memories_changes_and_the_profile_lines() {
    let f = fixture(ReviewPolicy::Review).await;
    f.memory.add(items(&["the user runs on Sundays"])).await.unwrap();
    let start = 0;
    let week = f.memory.week_summary(start).await.unwrap();
    assert_eq!((week.active, week.waiting, week.added), (0, 1, 0));
    // A moment later than the template, so that "since the template" has only the edit.
    tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    f.memory
        .set_core_section(Section::User, "- Runs on Sundays.\n- Lives in Oslo.")
        .await
        .unwrap();
    let week = f.memory.week_summary(start).await.unwrap();
    assert_eq!(week.profile_versions, 2, "the template and the edit");
    let later = f.memory.week_summary(i64::MAX / 2).await.unwrap();
    assert_eq!((later.profile_versions, later.profile_lines_changed), (0, 0));
    let since_template = f.memory.core_versions().await.unwrap()[1].created_at_ms + 1;
    let week = f.memory.week_summary(since_template).await.unwrap();
    assert_eq!(week.profile_versions, 1);
    assert_eq!(week.profile_lines_changed, 2, "two lines added to USER");
}
