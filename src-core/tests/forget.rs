//! Forgetting for real: the text is gone from every byte of every file in the store folder,
//! from history and core.md, with a receipt that keeps no text; an agent's forget waits
//! for a person; what is forgotten cannot be reverted back.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::path::Path;

use common::*;
use haema_core::{
    ChangesetFilter, ChangesetKind, ChangesetStatus, DecidedBy, Error, ForgetRequest, MemoryId, MemoryStatus,
    ReviewPolicy, SearchMode, Section,
};
use serde_json::json;

/// Every file in `dir` whose bytes contain `needle` (letter case ignored, as the full-text
/// index lower-cases words).
fn files_containing(dir: &Path, needle: &str) -> Vec<String> {
    let needle = needle.to_lowercase().into_bytes();
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        if !entry.path().is_file() {
            continue;
        }
        let bytes = std::fs::read(entry.path()).unwrap().to_ascii_lowercase();
        if bytes.windows(needle.len()).any(|w| w == needle.as_slice()) {
            found.push(entry.file_name().to_string_lossy().into_owned());
        }
    }
    found.sort();
    found
}

async fn id_of(f: &Fixture, content: &str) -> MemoryId {
    f.memory
        .get_latest_records(1, 100)
        .await
        .unwrap()
        .into_iter()
        .find(|m| m.content == content)
        .unwrap()
        .id
}

#[tokio::test]
async fn forgetting_by_id_leaves_no_byte_of_the_text_in_the_store_folder() {
    let f = folder_fixture_without_llm(ReviewPolicy::Auto).await;
    let secret = "The user lives at 12 Zqxwvarth Lane";
    f.memory
        .add(items(&[secret, "The user likes green tea"]))
        .await
        .unwrap();
    let id = id_of(&f, secret).await;
    assert!(
        !files_containing(f.dir.path(), "zqxwvarth").is_empty(),
        "the text is on disk before"
    );

    let plan = f
        .memory
        .forget_plan(ForgetRequest {
            memory_ids: vec![id.clone()],
            mentioning: None,
        })
        .await
        .unwrap();
    assert_eq!(plan.memories.len(), 1);
    assert_eq!(plan.memories[0].content, secret);
    assert_eq!(plan.changesets, 1, "the add that made it");

    let receipt = f
        .memory
        .forget(ForgetRequest {
            memory_ids: vec![id.clone()],
            mentioning: None,
        })
        .await
        .unwrap();
    assert_eq!(receipt.kind, ChangesetKind::Forget);
    assert_eq!(receipt.status, ChangesetStatus::Committed);
    assert_eq!(receipt.decided_by, Some(DecidedBy::User));
    assert_eq!(receipt.related.len(), 1);
    assert_eq!(receipt.related[0].memory_id, id);
    let counts = receipt.forget.as_ref().unwrap().receipt.clone().unwrap();
    assert_eq!((counts.memories, counts.changesets), (1, 1));

    assert_eq!(latest(&f.memory).await, vec!["The user likes green tea"]);
    for mode in [SearchMode::Hybrid, SearchMode::Vector, SearchMode::Lexical] {
        let hits = f.memory.search_records("Zqxwvarth Lane", 5, mode).await.unwrap().hits;
        assert!(hits.iter().all(|h| h.memory.id != id), "{mode}: {hits:?}");
    }
    let gone = f.memory.memory(&id).await.unwrap();
    assert_eq!(gone.status, MemoryStatus::Forgotten);
    assert_eq!(gone.content, "");
    assert_eq!(files_containing(f.dir.path(), "zqxwvarth"), Vec::<String>::new());
    assert_eq!(
        files_containing(f.dir.path(), "green tea"),
        vec!["memory.db"],
        "the rest stays"
    );
    // The history shows the receipt, and no text of what went.
    let history = f.memory.changesets(ChangesetFilter::All).await.unwrap();
    assert_eq!(history[0].id, receipt.id);
    assert!(serde_json::to_string(&history).unwrap().contains("green tea"));
    assert!(!serde_json::to_string(&history).unwrap().contains("Zqxwvarth"));
}

#[tokio::test]
async fn forgetting_a_phrase_blanks_it_in_llm_answers_core_and_its_versions() {
    let f = folder_fixture(ReviewPolicy::Auto).await;
    f.llm.push(
        "reconstruct",
        json!({"memories": ["The user's address is 7 Plovdivska Street"], "coverage": "complete"}),
    );
    f.memory
        .add(items(&["my address is 7 plovdivska street"]))
        .await
        .unwrap();
    f.memory
        .set_core_section(Section::User, "Lives on Plovdivska Street. Likes chess.")
        .await
        .unwrap();
    f.memory
        .set_core_section(Section::User, "Lives on PLOVDIVSKA street, likes chess and tea.")
        .await
        .unwrap();
    assert!(files_containing(f.dir.path(), "plovdivska").contains(&"core.md".to_owned()));

    let receipt = f
        .memory
        .forget(ForgetRequest {
            memory_ids: Vec::new(),
            mentioning: Some("Plovdivska Street".into()),
        })
        .await
        .unwrap();
    let counts = receipt.forget.as_ref().unwrap().receipt.clone().unwrap();
    assert_eq!(counts.memories, 1);
    assert!(counts.phrase);
    assert!(counts.core_versions >= 2, "{counts:?}");
    assert_eq!(files_containing(f.dir.path(), "plovdivska"), Vec::<String>::new());
    let core = f.memory.get_core().await.unwrap();
    assert!(core.contains("Lives on [forgotten], likes chess and tea."), "{core}");
    assert!(latest(&f.memory).await.is_empty());
    // The add's input, proposal and the LLM's raw answer were blanked too.
    let add = f
        .memory
        .changesets(ChangesetFilter::All)
        .await
        .unwrap()
        .into_iter()
        .find(|c| c.kind == ChangesetKind::Add)
        .unwrap();
    let recorded = serde_json::to_string(&add).unwrap().to_lowercase();
    assert!(!recorded.contains("plovdivska"), "{recorded}");
    // Reopening finds nothing left to do and the store as it was left.
    drop(f.memory);
    let again = haema_core::Memory::open_with(
        f.dir.path(),
        settings(ReviewPolicy::Auto),
        None,
        Some(f.embedder.clone()),
    )
    .await
    .unwrap();
    assert!(again.get_core().await.unwrap().contains("likes chess and tea"));
}

#[tokio::test]
async fn forgetting_a_merged_memory_forgets_the_older_memories_it_was_built_from() {
    let f = fixture(ReviewPolicy::Auto).await;
    f.llm.push(
        "reconstruct",
        json!({"memories": ["The user has a cat"], "coverage": "complete"}),
    );
    f.memory.add(items(&["the user has a cat"])).await.unwrap();
    f.llm.push(
        "reconstruct",
        json!({"memories": ["The user has a cat named Wexbrindle"], "coverage": "complete"}),
    );
    f.memory
        .add(items(&["the user has a cat named Wexbrindle"]))
        .await
        .unwrap();
    assert_eq!(
        latest(&f.memory).await,
        vec!["The user has a cat named Wexbrindle"],
        "merged"
    );
    let merged = id_of(&f, "The user has a cat named Wexbrindle").await;
    let plan = f
        .memory
        .forget_plan(ForgetRequest {
            memory_ids: vec![merged.clone()],
            mentioning: None,
        })
        .await
        .unwrap();
    let texts: Vec<&str> = plan.memories.iter().map(|m| m.content.as_str()).collect();
    assert_eq!(texts, vec!["The user has a cat", "The user has a cat named Wexbrindle"]);
    f.memory
        .forget(ForgetRequest {
            memory_ids: vec![merged],
            mentioning: None,
        })
        .await
        .unwrap();
    assert_eq!(files_containing(f.dir.path(), "wexbrindle"), Vec::<String>::new());
    assert_eq!(files_containing(f.dir.path(), "has a cat"), Vec::<String>::new());
}

#[tokio::test]
async fn an_agents_forget_waits_for_a_person_and_a_declined_one_keeps_no_copy() {
    let f = fixture_without_llm(ReviewPolicy::Guarded).await;
    f.memory
        .add(items(&["The user's bank is Qorvalix Bank"]))
        .await
        .unwrap();
    let request = ForgetRequest {
        memory_ids: Vec::new(),
        mentioning: Some("qorvalix".into()),
    };
    let pending = f.memory.request_forget(request.clone()).await.unwrap();
    assert_eq!(pending.status, ChangesetStatus::Pending);
    assert_eq!(
        pending.related[0].content, "The user's bank is Qorvalix Bank",
        "shown to the reviewer"
    );
    assert_eq!(latest(&f.memory).await.len(), 1, "nothing is forgotten yet");

    let declined = f.memory.reject(pending.id).await.unwrap();
    assert_eq!(declined.status, ChangesetStatus::Rejected);
    assert!(declined.forget.as_ref().unwrap().mentioning.is_none());
    assert!(declined.related.iter().all(|r| r.content.is_empty()));
    assert_eq!(latest(&f.memory).await.len(), 1);

    let pending = f.memory.request_forget(request).await.unwrap();
    let err = f.memory.revert(pending.id).await.unwrap_err();
    assert!(
        matches!(err, Error::WrongStatus { .. } | Error::InvalidState(_)),
        "{err:?}"
    );
    let done = f.memory.approve(pending.id).await.unwrap();
    assert_eq!(done.status, ChangesetStatus::Committed);
    assert_eq!(done.decided_by, Some(DecidedBy::User));
    assert!(latest(&f.memory).await.is_empty());
    assert_eq!(files_containing(f.dir.path(), "qorvalix"), Vec::<String>::new());
    let err = f.memory.revert(done.id).await.unwrap_err();
    assert!(err.to_string().contains("cannot come back"), "{err}");
}

#[tokio::test]
async fn under_auto_an_agents_forget_is_done_at_once() {
    let f = fixture_without_llm(ReviewPolicy::Auto).await;
    f.memory.add(items(&["Vemplotrix is the wifi password"])).await.unwrap();
    let done = f
        .memory
        .request_forget(ForgetRequest {
            memory_ids: Vec::new(),
            mentioning: Some("vemplotrix".into()),
        })
        .await
        .unwrap();
    assert_eq!(done.status, ChangesetStatus::Committed);
    assert_eq!(done.decided_by, Some(DecidedBy::Auto));
    assert_eq!(files_containing(f.dir.path(), "vemplotrix"), Vec::<String>::new());
}

#[tokio::test]
async fn a_change_whose_memory_was_forgotten_can_still_be_reverted_and_pending_ones_go_stale() {
    let f = fixture_without_llm(ReviewPolicy::Auto).await;
    let outcome = f.memory.add(items(&["The user owns a boat"])).await.unwrap();
    let id = id_of(&f, "The user owns a boat").await;
    let review = reopen(&f, ReviewPolicy::Review).await;
    let waiting = review
        .add(items(&["The user owns a boat called Snorvik"]))
        .await
        .unwrap();
    review
        .forget(ForgetRequest {
            memory_ids: vec![id],
            mentioning: Some("snorvik".into()),
        })
        .await
        .unwrap();
    let stale = review.changeset(waiting.changeset.unwrap()).await.unwrap();
    assert_eq!(stale.status, ChangesetStatus::Stale);
    let reverted = review.revert(outcome.changeset.unwrap()).await.unwrap();
    assert_eq!(reverted.kind, ChangesetKind::Revert);
    assert!(review.get_latest(1, 10).await.unwrap().is_empty());
}

#[tokio::test]
async fn an_empty_request_or_an_unknown_id_is_refused() {
    let f = fixture_without_llm(ReviewPolicy::Auto).await;
    let err = f.memory.forget(ForgetRequest::default()).await.unwrap_err();
    assert!(matches!(err, Error::InvalidArgument(_)), "{err:?}");
    let err = f
        .memory
        .forget(ForgetRequest {
            memory_ids: Vec::new(),
            mentioning: Some("   ".into()),
        })
        .await
        .unwrap_err();
    assert!(matches!(err, Error::InvalidArgument(_)), "{err:?}");
    let err = f
        .memory
        .forget(ForgetRequest {
            memory_ids: vec![MemoryId::from("no-such-memory")],
            mentioning: None,
        })
        .await
        .unwrap_err();
    assert!(matches!(err, Error::NotFound(_)), "{err:?}");
}

#[tokio::test]
async fn forgetting_one_memory_keeps_the_other_items_of_an_add_no_llm_touched() {
    let f = fixture_without_llm(ReviewPolicy::Auto).await;
    let added = f
        .memory
        .add(items(&["Secret code is ZEBRA42.", "Other fact about cats."]))
        .await
        .unwrap();
    let id = id_of(&f, "Secret code is ZEBRA42.").await;
    f.memory
        .forget(haema_core::ForgetRequest {
            memory_ids: vec![id],
            mentioning: None,
        })
        .await
        .unwrap();
    let changeset = f.memory.changeset(added.changeset.unwrap()).await.unwrap();
    assert_eq!(changeset.inputs, ["[forgotten]", "Other fact about cats."]);
    assert_eq!(latest(&f.memory).await, ["Other fact about cats."]);
}
