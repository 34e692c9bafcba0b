//! Scopes: a store set to `scope = "per_user"` refuses every read and write without a
//! user, never shows one user another's memories or changes, never sends another user's
//! memory to the LLM, stays per-user when its settings change, and `purge_user` leaves no
//! byte of a user in the store's files.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::path::Path;
use std::sync::Arc;

use common::*;
use haema_core::fake::{HashEmbedder, ScriptedLlm};
use haema_core::{
    AddStatus, ChangesetFilter, Error, ForgetRequest, LatestOptions, Memory, MemoryAttributes, MemoryFilter,
    RecallOptions, ReviewPolicy, SearchMode, SearchOptions, Section, Settings, StoreScope,
};

fn per_user(review: ReviewPolicy) -> Settings {
    Settings {
        scope: StoreScope::PerUser,
        ..settings(review)
    }
}

async fn open(dir: &Path, settings: Settings, llm: &Arc<ScriptedLlm>) -> Memory {
    Memory::open_with(
        dir,
        settings,
        Some(llm.clone()),
        Some(Arc::new(HashEmbedder::new(DIMS))),
    )
    .await
    .unwrap()
}

fn files_containing(dir: &Path, needle: &str) -> Vec<String> {
    let needle = needle.to_lowercase().into_bytes();
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        if entry.path().is_file() {
            let bytes = std::fs::read(entry.path()).unwrap().to_ascii_lowercase();
            if bytes.windows(needle.len()).any(|w| w == needle.as_slice()) {
                found.push(entry.file_name().to_string_lossy().into_owned());
            }
        }
    }
    found
}

fn refused<T: std::fmt::Debug>(what: &str, result: haema_core::Result<T>) {
    match result {
        Err(Error::UserRequired) => {}
        other => panic!("{what} without a user: {other:?}"),
    }
}

#[tokio::test]
async fn a_per_user_store_refuses_every_read_and_write_without_a_user() {
    let dir = tempfile::tempdir().unwrap();
    let llm = Arc::new(ScriptedLlm::new());
    let memory = open(dir.path(), per_user(ReviewPolicy::Auto), &llm).await;
    let ann = memory.for_user("ann").unwrap();
    let added = ann.add(items(&["Ann likes green tea"])).await.unwrap();
    let id = added.memory_ids[0].clone();
    let changeset = added.changeset.unwrap();
    assert!(memory.requires_user() && !ann.requires_user());
    assert_eq!(ann.user(), Some("ann"));

    refused("add", memory.add(items(&["Bob likes coffee"])).await);
    refused("get_latest", memory.get_latest(1, 10).await);
    refused("search", memory.search("tea", 5).await);
    let options = SearchOptions::mode(SearchMode::Lexical);
    refused("lexical search", memory.search_records("tea", 5, &options).await);
    refused("recall", memory.recall_with("tea", &RecallOptions::budget(500)).await);
    refused("memory", memory.memory(&id).await);
    refused("lineage", memory.lineage(&id).await);
    refused("changesets", memory.changesets(ChangesetFilter::All).await);
    refused("changeset", memory.changeset(changeset).await);
    refused("summaries", memory.changeset_summaries(None, 10).await);
    refused("revert", memory.revert(changeset).await);
    refused("delete", memory.delete_memory(&id).await);
    refused("update", memory.update_memory(&id, "Ann likes black tea").await);
    refused("pin", memory.set_pinned(&id, true).await);
    let forget = ForgetRequest {
        mentioning: Some("tea".into()),
        ..Default::default()
    };
    refused("forget", memory.forget(forget).await);
    refused("get_core", memory.get_core().await);
    refused("set_core_section", memory.set_core_section(Section::User, "x").await);
    refused("info", memory.info().await);
    refused("agent state", memory.get_agent_state("planner", "task").await);
    let mut out = Vec::new();
    refused("export", memory.export_jsonl(&mut out).await);
    assert!(out.is_empty());
    // Nothing was written by the refused calls.
    assert_eq!(ann.get_latest(1, 10).await.unwrap(), vec!["Ann likes green tea"]);
}

#[tokio::test]
async fn users_never_see_each_others_memories_or_changes() {
    let dir = tempfile::tempdir().unwrap();
    let llm = Arc::new(ScriptedLlm::new());
    let memory = open(dir.path(), per_user(ReviewPolicy::Review), &llm).await;
    let (ann, bob) = (memory.for_user("ann").unwrap(), memory.for_user("bob").unwrap());
    let a = ann.add(items(&["Ann drinks green tea"])).await.unwrap();
    ann.approve(a.changeset.unwrap()).await.unwrap();
    let b = bob.add(items(&["Bob drinks green tea with honey"])).await.unwrap();
    assert_eq!(b.status, AddStatus::Pending);
    let bob_pending = b.changeset.unwrap();
    let b2 = bob.add(items(&["Bob plays chess"])).await.unwrap();
    bob.approve(b2.changeset.unwrap()).await.unwrap();
    let bob_memory = b2.memory_ids[0].clone();

    for mode in [SearchMode::Hybrid, SearchMode::Vector, SearchMode::Lexical] {
        let hits = ann.search_records("green tea chess", 10, mode).await.unwrap().hits;
        let texts: Vec<_> = hits.iter().map(|h| h.memory.content.as_str()).collect();
        assert_eq!(texts, vec!["Ann drinks green tea"], "{mode:?}");
    }
    assert_eq!(ann.get_latest(1, 10).await.unwrap(), vec!["Ann drinks green tea"]);
    assert_eq!(bob.get_latest(1, 10).await.unwrap(), vec!["Bob plays chess"]);
    let recall = ann.recall("chess and tea", 2000).await.unwrap();
    assert!(!recall.text.contains("Bob"), "{}", recall.text);
    // Asking for another user's rows through a filter finds nothing.
    let bobs = MemoryFilter {
        user_id: Some("bob".into()),
        ..Default::default()
    };
    assert!(
        ann.latest_records(
            10,
            &LatestOptions {
                filter: bobs.clone(),
                ..LatestOptions::default()
            }
        )
        .await
        .unwrap()
        .is_empty()
    );
    // By id: not found, never shown or changed.
    assert!(matches!(ann.memory(&bob_memory).await, Err(Error::NotFound(_))));
    assert!(matches!(ann.delete_memory(&bob_memory).await, Err(Error::NotFound(_))));
    assert!(matches!(ann.changeset(bob_pending).await, Err(Error::NotFound(_))));
    assert!(matches!(ann.approve(bob_pending).await, Err(Error::NotFound(_))));
    assert!(matches!(ann.reject(bob_pending).await, Err(Error::NotFound(_))));
    // History, review and counts are each user's own.
    assert!(ann.pending().await.unwrap().is_empty());
    assert_eq!(bob.pending().await.unwrap().len(), 1);
    let history = ann.changeset_summaries(None, 50).await.unwrap();
    assert_eq!(history.len(), 1, "{history:#?}");
    let info = ann.info().await.unwrap();
    assert_eq!((info.active, info.pending_changesets), (1, 0));
    let mut export = Vec::new();
    ann.export_jsonl(&mut export).await.unwrap();
    let export = String::from_utf8(export).unwrap();
    assert!(export.contains("Ann drinks") && !export.contains("Bob"), "{export}");
    // A write for another user is refused, not silently re-assigned.
    let as_bob = MemoryAttributes {
        user_id: Some("bob".into()),
        ..Default::default()
    };
    assert!(matches!(
        ann.add_with(items(&["x"]), as_bob).await,
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(ann.for_user("bob"), Err(Error::InvalidArgument(_))));
    // Every memory is stamped with its user.
    let mine = ann.get_latest_records(1, 10).await.unwrap();
    assert_eq!(mine[0].attributes.user_id.as_deref(), Some("ann"));
}

/// Bob's morning tea and Ann's evening tea are near neighbours: without scopes the add of
/// one shows the other to the LLM; with them it never does, and the shared core profile is
/// never asked to change.
#[tokio::test]
async fn the_llm_never_sees_another_users_memory() {
    for scoped in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let llm = Arc::new(ScriptedLlm::new());
        let config = if scoped {
            per_user(ReviewPolicy::Auto)
        } else {
            settings(ReviewPolicy::Auto)
        };
        let memory = open(dir.path(), config, &llm).await;
        let (ann, bob) = (memory.for_user("ann").unwrap(), memory.for_user("bob").unwrap());
        let (ann, bob) = if scoped {
            (ann, bob)
        } else {
            (memory.clone(), memory.clone())
        };
        bob.add(items(&["The user drinks green tea every morning"]))
            .await
            .unwrap();
        ann.add(items(&["The user drinks green tea every evening"]))
            .await
            .unwrap();
        let prompts: String = llm
            .calls()
            .iter()
            .map(|c| format!("{}\n{}\n", c.system, c.user))
            .collect();
        let seen = llm
            .calls_of("reconstruct")
            .iter()
            .any(|c| c.user.contains("every morning") && c.user.contains("every evening"));
        assert_eq!(seen, !scoped, "scoped: {scoped}\n{prompts}");
        assert_eq!(llm.calls_of("core_update").is_empty(), scoped, "{prompts}");
    }
}

#[tokio::test]
async fn a_per_user_store_stays_per_user_when_its_settings_change() {
    let dir = tempfile::tempdir().unwrap();
    let llm = Arc::new(ScriptedLlm::new());
    let memory = open(dir.path(), per_user(ReviewPolicy::Auto), &llm).await;
    memory
        .for_user("ann")
        .unwrap()
        .add(items(&["Ann likes tea"]))
        .await
        .unwrap();
    drop(memory);
    let reopened = open(dir.path(), settings(ReviewPolicy::Auto), &llm).await;
    assert!(reopened.requires_user());
    refused("search after reopening", reopened.search("tea", 3).await);
}

#[tokio::test]
async fn purge_user_leaves_no_byte_of_the_user_in_the_store() {
    let dir = tempfile::tempdir().unwrap();
    let llm = Arc::new(ScriptedLlm::new());
    let memory = open(dir.path(), per_user(ReviewPolicy::Auto), &llm).await;
    let (ann, bob) = (memory.for_user("user-qx7ann").unwrap(), memory.for_user("bob").unwrap());
    let first = ann
        .add(items(&["Zanzibarite is Ann's favourite mineral"]))
        .await
        .unwrap();
    ann.update_memory(
        &first.memory_ids[0],
        "Zanzibarite and quartz are Ann's favourite minerals",
    )
    .await
    .unwrap();
    ann.add(items(&["Ann keeps a zanzibarite sample on her desk"]))
        .await
        .unwrap();
    bob.add(items(&["Bob collects quartz"])).await.unwrap();
    assert!(
        !files_containing(dir.path(), "zanzibarite").is_empty(),
        "the check can fail"
    );

    // A user's handle cannot purge another user, and trying leaves their memories whole.
    assert!(matches!(
        bob.purge_user("user-qx7ann").await,
        Err(Error::InvalidArgument(_))
    ));
    assert_eq!(ann.get_latest(1, 10).await.unwrap().len(), 2);
    assert_eq!(ann.search("zanzibarite", 5).await.unwrap().len(), 2);

    let receipt = memory.purge_user("user-qx7ann").await.unwrap();
    assert_eq!(receipt.memories, 3, "{receipt:?}");
    assert!(receipt.changesets >= 3, "{receipt:?}");
    assert_eq!(files_containing(dir.path(), "zanzibarite"), Vec::<String>::new());
    assert_eq!(files_containing(dir.path(), "user-qx7ann"), Vec::<String>::new());
    assert!(ann.get_latest(1, 10).await.unwrap().is_empty());
    assert!(ann.changesets(ChangesetFilter::All).await.unwrap().is_empty());
    assert_eq!(bob.search("quartz", 5).await.unwrap(), vec!["Bob collects quartz"]);
    assert_eq!(bob.changesets(ChangesetFilter::All).await.unwrap().len(), 1);
}

/// An agent's forget for a user waits for review and is approved by that user; it forgets
/// only their memories, leaves the shared core and agent state alone, and a user's search
/// gives no store-wide BM25 figure.
#[tokio::test]
async fn a_users_forget_request_is_approved_and_stays_with_the_user() {
    let dir = tempfile::tempdir().unwrap();
    let llm = Arc::new(ScriptedLlm::new());
    let memory = open(dir.path(), per_user(ReviewPolicy::Review), &llm).await;
    let (ann, bob) = (memory.for_user("ann").unwrap(), memory.for_user("bob").unwrap());
    for (who, text) in [
        (&ann, "Ann parks in garage Lotus"),
        (&bob, "Bob parks in garage Lotus too"),
    ] {
        let added = who.add(items(&[text])).await.unwrap();
        who.approve(added.changeset.unwrap()).await.unwrap();
    }
    ann.set_core_section(Section::Rule, "- Garage Lotus closes at ten.")
        .await
        .unwrap();
    ann.set_agent_state("planner", "note", serde_json::json!("garage Lotus"))
        .await
        .unwrap();
    let hits = ann.search_records("garage", 5, SearchMode::Lexical).await.unwrap().hits;
    assert!(hits.iter().all(|h| h.bm25.is_none()), "{hits:?}");

    let request = ForgetRequest {
        mentioning: Some("Lotus".into()),
        ..Default::default()
    };
    let plan = ann.forget_plan(request.clone()).await.unwrap();
    assert_eq!((plan.memories.len(), plan.core_versions, plan.agent_state), (1, 0, 0));
    let pending = ann.request_forget(request).await.unwrap();
    let done = ann.approve(pending.id).await.unwrap();
    assert_eq!(done.forget.and_then(|f| f.receipt).map(|r| r.memories), Some(1));
    assert!(ann.get_latest(1, 10).await.unwrap().is_empty());
    assert_eq!(
        bob.get_latest(1, 10).await.unwrap(),
        vec!["Bob parks in garage Lotus too"]
    );
    assert!(
        ann.get_core().await.unwrap().contains("Garage Lotus closes"),
        "the shared core stays"
    );
    assert!(matches!(memory.embedding_backlog().await, Err(Error::UserRequired)));
}
