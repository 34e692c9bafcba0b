//! Changeset summaries: what a history line shows, read without loading items, and equal
//! to the summary of the changeset loaded whole.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::*;
use haema_core::{ChangesetFilter, ChangesetSummary, ImportItem, ReviewPolicy, SUMMARY_INPUT_CHARS};
use serde_json::json;

#[tokio::test]
async fn summaries_match_the_whole_changesets_and_page_by_keyset() {
    let f = fixture(ReviewPolicy::Auto).await;
    f.memory.add(items(&["user likes green tea"])).await.unwrap();
    f.llm.push(
        "reconstruct",
        json!({"memories": ["user likes coffee now"], "coverage": "complete"}),
    );
    let md = "# SOUL\n\n# TOOLS\n\n# RULE\n\n# USER\n- Drinks coffee.\n";
    f.llm
        .push("core_update", json!({"should_update": true, "core_markdown": md}));
    let merge = f
        .memory
        .add(items(&["user likes green tea no more, coffee now"]))
        .await
        .unwrap()
        .changeset
        .unwrap();
    f.memory.revert(merge).await.unwrap();
    let long = format!("the user keeps a journal {}", "of scales and suites ".repeat(60));
    f.memory.add(long.clone()).await.unwrap();
    let imported = (0..1200)
        .map(|i| ImportItem {
            content: format!("imported fact number {i}"),
            timestamp_ms: Some(1_700_000_000_000 + i),
            ..Default::default()
        })
        .collect();
    f.memory.import_items(imported, "test").await.unwrap();

    let whole = f.memory.changesets(ChangesetFilter::All).await.unwrap();
    let expected: Vec<ChangesetSummary> = whole.iter().map(ChangesetSummary::from).collect();
    let summaries = f.memory.changeset_summaries(None, 100).await.unwrap();
    assert_eq!(summaries, expected);

    let import = &summaries[0];
    assert_eq!((import.added, import.removed, import.input_count), (1200, 0, 1200));
    assert_eq!(
        import.first_inputs,
        vec![
            "imported fact number 0",
            "imported fact number 1",
            "imported fact number 2"
        ]
    );
    let cut = summaries[1].raw_input.as_deref().unwrap();
    assert_eq!(cut.chars().count(), SUMMARY_INPUT_CHARS + 1, "cut, with an ellipsis");
    assert!(cut.ends_with('…') && long.starts_with(cut.trim_end_matches('…')));
    let revert = &summaries[2];
    assert_eq!(revert.reverts_id, Some(merge));
    let merged = summaries.iter().find(|s| s.id == merge).unwrap();
    assert!(merged.changes_core);
    assert_eq!((merged.added, merged.removed), (1, 1));

    let first = f.memory.changeset_summaries(None, 2).await.unwrap();
    let second = f.memory.changeset_summaries(Some(first[1].id), 2).await.unwrap();
    let ids: Vec<_> = first.iter().chain(&second).map(|s| s.id).collect();
    assert_eq!(ids, whole.iter().take(4).map(|c| c.id).collect::<Vec<_>>());
}
