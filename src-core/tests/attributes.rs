//! Memory attributes through the engine: given to an add, merged onto the memory a
//! reconstruction makes by the rule of docs/data-model.md, kept by a person's edited approval and a
//! re-run, refused when out of range, and blanked (source, metadata) by forget.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use common::*;
use haema_core::{AddStatus, ForgetRequest, MemoryAttributes, MemoryRecord, ReviewPolicy};
use serde_json::{Value, json};

fn attrs(value: Value) -> MemoryAttributes {
    serde_json::from_value(value).unwrap()
}

async fn records(memory: &haema_core::Memory) -> Vec<MemoryRecord> {
    memory.get_latest_records(1, 100).await.unwrap()
}

#[tokio::test]
async fn a_merge_carries_the_newest_values_the_highest_importance_and_all_metadata() {
    let f = fixture(ReviewPolicy::Auto).await;
    let tea = attrs(json!({
        "memory_type": "fact", "importance": 0.9, "source": "chat", "user_id": "ann",
        "metadata": {"a": 1, "b": "old"}
    }));
    f.memory
        .add_with(items(&["The user drinks green tea every morning"]), tea)
        .await
        .unwrap();
    f.llm.push(
        "reconstruct",
        json!({"memories": ["The user drinks black tea every morning, no longer green tea"], "coverage": "complete"}),
    );
    let switch = attrs(json!({
        "memory_type": "preference", "importance": 0.3, "agent_id": "planner", "session_id": "s2",
        "metadata": {"b": "new", "c": true}
    }));
    let outcome = f
        .memory
        .add_with(items(&["The user drinks black tea every morning now"]), switch.clone())
        .await
        .unwrap();
    assert_eq!(outcome.status, AddStatus::Committed);
    let now = records(&f.memory).await;
    assert_eq!(now.len(), 1, "{now:#?}");
    assert_eq!(
        now[0].attributes,
        attrs(json!({
            "memory_type": "preference", "importance": 0.9, "source": "chat", "agent_id": "planner",
            "session_id": "s2", "user_id": "ann", "metadata": {"a": 1, "b": "new", "c": true}
        }))
    );
    let changeset = f.memory.changeset(outcome.changeset.unwrap()).await.unwrap();
    assert_eq!(
        changeset.attributes,
        switch.checked().unwrap(),
        "the changeset keeps what the add was given"
    );
    assert_eq!(changeset.proposed[0].attributes, now[0].attributes);
}

#[tokio::test]
async fn an_edited_approval_and_a_rerun_keep_the_attributes() {
    let f = fixture(ReviewPolicy::Review).await;
    let given = attrs(json!({"memory_type": "episode", "importance": 0.5, "metadata": {"trip": "Oslo"}}));
    let pending = f
        .memory
        .add_with(items(&["The user flew to Oslo in May"]), given.clone())
        .await
        .unwrap();
    let id = pending.changeset.unwrap();
    let rerun = f.memory.rerun(id).await.unwrap();
    let rerun_id = rerun.changeset.unwrap();
    assert_eq!(f.memory.changeset(rerun_id).await.unwrap().attributes, given);
    f.memory
        .approve_edited(rerun_id, vec!["The user flew to Oslo in late May".into()])
        .await
        .unwrap();
    let now = records(&f.memory).await;
    assert_eq!(now[0].content, "The user flew to Oslo in late May");
    assert_eq!(now[0].attributes, given);
}

#[tokio::test]
async fn out_of_range_attributes_store_nothing() {
    let f = fixture(ReviewPolicy::Auto).await;
    for bad in [
        json!({"importance": 2.0}),
        json!({"memory_type": "a b"}),
        json!({"agent_id": " "}),
    ] {
        let error = f
            .memory
            .add_with(items(&["A fact"]), attrs(bad.clone()))
            .await
            .unwrap_err();
        assert_eq!(error.kind(), haema_core::ErrorKind::InvalidArgument, "{bad}: {error}");
    }
    assert!(records(&f.memory).await.is_empty());
    assert!(
        f.memory
            .changesets(haema_core::ChangesetFilter::All)
            .await
            .unwrap()
            .is_empty()
    );
}

#[tokio::test]
async fn forgetting_blanks_the_source_and_metadata_too() {
    let f = fixture_without_llm(ReviewPolicy::Auto).await;
    let private = attrs(json!({
        "memory_type": "fact", "importance": 0.7, "source": "Quillmere letter", "user_id": "ann",
        "metadata": {"street": "Quillmere Road 7"}
    }));
    f.memory
        .add_with(items(&["The user moved house in June"]), private)
        .await
        .unwrap();
    let id = records(&f.memory).await[0].id.clone();
    // Only its metadata mentions the phrase: it is forgotten with the rest.
    f.memory
        .add_with(
            items(&["The user likes jazz"]),
            attrs(json!({"metadata": {"heard at": "the QUILLMERE hall"}})),
        )
        .await
        .unwrap();
    f.memory
        .add_with(items(&["The user likes tea"]), attrs(json!({"source": "kitchen"})))
        .await
        .unwrap();
    f.memory
        .forget(ForgetRequest {
            memory_ids: vec![id.clone()],
            mentioning: Some("quillmere".into()),
        })
        .await
        .unwrap();
    let gone = f.memory.memory(&id).await.unwrap();
    assert_eq!((gone.content.as_str(), &gone.attributes.source), ("", &None));
    assert!(gone.attributes.metadata.is_empty());
    assert_eq!(
        gone.attributes.user_id.as_deref(),
        Some("ann"),
        "ids are not the memory's text"
    );
    let left = records(&f.memory).await;
    assert_eq!(left.len(), 1, "{left:#?}");
    assert_eq!(left[0].attributes.source.as_deref(), Some("kitchen"));
    drop(f.memory);
    for entry in std::fs::read_dir(f.dir.path()).unwrap().flatten() {
        let bytes = std::fs::read(entry.path()).unwrap().to_ascii_lowercase();
        assert!(
            !bytes.windows(9).any(|w| w == b"quillmere"),
            "{} still holds the phrase",
            entry.path().display()
        );
    }
}
