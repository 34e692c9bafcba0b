//! Review policy, approve (edited), reject, stale, re-run, revert and history.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::*;
use haema_core::{
    AddStatus, ChangesetFilter, ChangesetId, ChangesetKind, ChangesetStatus, DecidedBy, Error, MemoryId, MemoryStatus,
    Missing, ReviewPolicy, SearchMode, Section,
};
use serde_json::json;

/// Scripts the reconstruction to answer `merged`, adds `input` through `memory`, and returns
/// the changeset.
async fn propose(f: &Fixture, memory: &haema_core::Memory, merged: &str, input: &str) -> ChangesetId {
    f.llm
        .push("reconstruct", json!({"memories": [merged], "coverage": "complete"}));
    memory.add(items(&[input])).await.unwrap().changeset.unwrap()
}

#[tokio::test]
async fn review_policy_holds_everything_and_pending_memories_are_invisible() {
    let f = fixture(ReviewPolicy::Review).await;
    let outcome = f.memory.add(items(&["the user plays the cello"])).await.unwrap();
    assert_eq!(outcome.status, AddStatus::Pending);
    assert!(latest(&f.memory).await.is_empty());
    assert!(f.memory.search("cello", 5).await.unwrap().is_empty());
    assert!(
        f.memory
            .search_records("cello", 5, SearchMode::Lexical)
            .await
            .unwrap()
            .hits
            .is_empty()
    );
    assert!(
        f.memory
            .recall("cello", 500)
            .await
            .unwrap()
            .items
            .iter()
            .all(|i| !i.content.contains("cello"))
    );
    let id = outcome.changeset.unwrap();
    let pending = f.memory.pending().await.unwrap();
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0].proposed[0].content, "the user plays the cello");
    let memory_id = pending[0].proposed[0].memory_id.clone().unwrap();
    assert_eq!(f.memory.memory(&memory_id).await.unwrap().status, MemoryStatus::Pending);

    let approved = f.memory.approve(id).await.unwrap();
    assert_eq!(approved.status, ChangesetStatus::Committed);
    assert_eq!(approved.decided_by, Some(DecidedBy::User));
    assert_eq!(latest(&f.memory).await, vec!["the user plays the cello"]);
    assert_eq!(
        f.memory.search("cello", 5).await.unwrap(),
        vec!["the user plays the cello"]
    );
    let again = f.memory.approve(id).await.unwrap_err();
    assert!(again.to_string().contains("committed"), "{again}");
}

#[tokio::test]
async fn guarded_commits_pure_additions_and_holds_removals_and_core_changes() {
    let f = fixture(ReviewPolicy::Guarded).await;
    assert_eq!(
        f.memory.add(items(&["user likes green tea"])).await.unwrap().status,
        AddStatus::Committed
    );
    f.llm.push(
        "reconstruct",
        json!({"memories": ["user likes green tea with honey"], "coverage": "complete"}),
    );
    let merge = f.memory.add(items(&["user likes green tea with honey"])).await.unwrap();
    assert_eq!(merge.status, AddStatus::Pending, "it would remove a memory");
    assert_eq!(latest(&f.memory).await, vec!["user likes green tea"]);

    let md = "# SOUL\n\n# TOOLS\n\n# RULE\n\n# USER\n- Likes jazz.\n";
    f.llm
        .push("core_update", json!({"should_update": true, "core_markdown": md}));
    let core_change = f.memory.add(items(&["user likes jazz"])).await.unwrap();
    assert_eq!(core_change.status, AddStatus::Pending, "it would change core");
    assert_eq!(f.memory.get_core().await.unwrap(), haema_core::CORE_TEMPLATE);
    let cs = f.memory.changeset(core_change.changeset.unwrap()).await.unwrap();
    let after = haema_core::CoreSections::parse(cs.core_after.as_deref().unwrap()).unwrap();
    assert_eq!(after.get(Section::User), "- Likes jazz.");
}

#[tokio::test]
async fn reject_applies_nothing_and_keeps_the_proposal_in_history() {
    let f = fixture(ReviewPolicy::Review).await;
    let id = f.memory.add(items(&["a proposal"])).await.unwrap().changeset.unwrap();
    let proposed_id = f.memory.changeset(id).await.unwrap().proposed[0]
        .memory_id
        .clone()
        .unwrap();
    let rejected = f.memory.reject(id).await.unwrap();
    assert_eq!(rejected.status, ChangesetStatus::Rejected);
    assert_eq!(rejected.proposed[0].content, "a proposal");
    assert!(latest(&f.memory).await.is_empty());
    assert!(matches!(
        f.memory.memory(&proposed_id).await,
        Err(Error::NotFound { .. })
    ));
    assert!(f.memory.approve(id).await.is_err());
}

#[tokio::test]
async fn a_rejection_can_be_taken_back_and_the_change_approved() {
    let f = fixture(ReviewPolicy::Review).await;
    let id = f
        .memory
        .add(items(&["the user owns a kayak"]))
        .await
        .unwrap()
        .changeset
        .unwrap();
    f.memory.reject(id).await.unwrap();
    let err = f.memory.reopen(ChangesetId::from(id.get() + 1)).await.unwrap_err();
    assert!(matches!(err, Error::NotFound { .. }), "{err}");

    let reopened = f.memory.reopen(id).await.unwrap();
    assert_eq!(reopened.status, ChangesetStatus::Pending);
    assert_eq!((reopened.decided_by, reopened.decided_at_ms), (None, None));
    assert_eq!(f.memory.pending().await.unwrap().len(), 1);
    let err = f.memory.reopen(id).await.unwrap_err();
    assert!(err.to_string().contains("pending and cannot be reopened"), "{err}");
    f.memory.approve(id).await.unwrap();
    assert_eq!(latest(&f.memory).await, vec!["the user owns a kayak"]);

    let second = f
        .memory
        .add(items(&["the user owns a canoe"]))
        .await
        .unwrap()
        .changeset
        .unwrap();
    f.memory.rerun(second).await.unwrap();
    let err = f.memory.reopen(second).await.unwrap_err();
    assert!(matches!(err, Error::ReplacedByRerun(id) if id == second), "{err}");
    assert!(err.to_string().contains("re-run"), "{err}");
}

#[tokio::test]
async fn approve_edited_stores_the_persons_version() {
    let f = fixture(ReviewPolicy::Auto).await;
    f.memory.add(items(&["user likes green tea"])).await.unwrap();
    let f2 = reopen(&f, ReviewPolicy::Review).await;
    let id = propose(&f, &f2, "user likes tea", "user likes green tea a lot").await;
    let approved = f2
        .approve_edited(id, items(&["user likes green tea", "user likes green tea a lot", " "]))
        .await
        .unwrap();
    assert_eq!(approved.status, ChangesetStatus::Committed);
    assert!(
        approved.related.iter().all(|r| r.kept),
        "the person kept the old memory"
    );
    assert!(approved.warnings.iter().any(|w| w.contains("edited by a person")));
    let mut all = latest(&f2).await;
    all.sort();
    assert_eq!(all, vec!["user likes green tea", "user likes green tea a lot"]);
    assert_eq!(
        approved.llm_calls[0].answer.as_ref().unwrap()["memories"][0],
        "user likes tea",
        "the LLM's answer is kept"
    );
}

#[tokio::test]
async fn an_empty_edited_approval_is_refused_and_nothing_is_set_aside() {
    let f = fixture(ReviewPolicy::Auto).await;
    f.memory.add(items(&["user likes green tea"])).await.unwrap();
    let f2 = reopen(&f, ReviewPolicy::Review).await;
    let id = propose(&f, &f2, "user likes tea", "user likes green tea a lot").await;
    let err = f2.approve_edited(id, items(&["", "  "])).await.unwrap_err();
    assert!(matches!(err, Error::InvalidArgument(_)), "{err:?}");
    assert!(
        err.to_string().contains("set aside 1 memories and add nothing"),
        "{err}"
    );
    assert_eq!(latest(&f2).await, vec!["user likes green tea"]);
    assert_eq!(f2.changeset(id).await.unwrap().status, ChangesetStatus::Pending);
}

#[tokio::test]
async fn approving_after_the_related_memories_changed_marks_stale_and_rerun_rebuilds() {
    let f = fixture(ReviewPolicy::Auto).await;
    f.memory.add(items(&["user likes green tea"])).await.unwrap();
    let review = reopen(&f, ReviewPolicy::Review).await;
    let first = propose(
        &f,
        &review,
        "user likes green tea with honey",
        "user likes green tea with honey",
    )
    .await;
    let second = propose(
        &f,
        &review,
        "user likes green tea with lemon",
        "user likes green tea with lemon",
    )
    .await;
    review.approve(first).await.unwrap();
    let err = review.approve(second).await.unwrap_err();
    assert!(matches!(err, Error::Stale(id) if id == second), "{err}");
    assert!(err.to_string().contains("is stale"), "{err}");
    let stale = review.changeset(second).await.unwrap();
    assert_eq!(stale.status, ChangesetStatus::Stale);
    assert!(stale.warnings.iter().any(|w| w.contains("no longer active")));

    f.llm.push(
        "reconstruct",
        json!({"memories": ["user likes green tea with honey and lemon"], "coverage": "complete"}),
    );
    let rerun = review.rerun(second).await.unwrap();
    assert_eq!(rerun.status, AddStatus::Pending);
    let new = review.changeset(rerun.changeset.unwrap()).await.unwrap();
    assert_eq!(new.related[0].content, "user likes green tea with honey");
    assert_eq!(
        review.changeset(second).await.unwrap().status,
        ChangesetStatus::Rejected
    );
    review.approve(new.id).await.unwrap();
    assert_eq!(latest(&review).await, vec!["user likes green tea with honey and lemon"]);
}

#[tokio::test]
async fn revert_restores_what_a_changeset_replaced_including_core() {
    let f = fixture(ReviewPolicy::Auto).await;
    f.memory.add(items(&["user likes green tea"])).await.unwrap();
    let original_id = f.memory.get_latest_records(1, 1).await.unwrap()[0].id.clone();
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
    assert_eq!(latest(&f.memory).await, vec!["user likes coffee now"]);

    let revert = f.memory.revert(merge).await.unwrap();
    assert_eq!(revert.kind, ChangesetKind::Revert);
    assert_eq!(revert.reverts_id, Some(merge));
    assert_eq!(latest(&f.memory).await, vec!["user likes green tea"]);
    let restored = f.memory.get_latest_records(1, 1).await.unwrap();
    assert_eq!(restored[0].id, original_id, "the same memory comes back, with its id");
    assert_eq!(
        f.memory.search("green tea", 3).await.unwrap(),
        vec!["user likes green tea"]
    );
    assert_eq!(f.memory.get_core().await.unwrap(), haema_core::CORE_TEMPLATE);
    let old = f.memory.changeset(merge).await.unwrap();
    assert_eq!(
        (old.status, old.reverted_by_id),
        (ChangesetStatus::Reverted, Some(revert.id))
    );
    assert!(
        f.memory
            .revert(merge)
            .await
            .unwrap_err()
            .to_string()
            .contains("reverted")
    );

    // Reverting the revert re-applies the change.
    f.memory.revert(revert.id).await.unwrap();
    assert_eq!(latest(&f.memory).await, vec!["user likes coffee now"]);
    assert_eq!(
        f.memory.core_sections().await.unwrap().get(Section::User),
        "- Drinks coffee."
    );
}

#[tokio::test]
async fn revert_refuses_when_a_later_changeset_built_on_it() {
    let f = fixture(ReviewPolicy::Auto).await;
    let first = f
        .memory
        .add(items(&["user likes green tea"]))
        .await
        .unwrap()
        .changeset
        .unwrap();
    f.llm.push(
        "reconstruct",
        json!({"memories": ["user likes green tea with honey"], "coverage": "complete"}),
    );
    let second = f
        .memory
        .add(items(&["user likes green tea with honey"]))
        .await
        .unwrap()
        .changeset
        .unwrap();
    let err = f.memory.revert(first).await.unwrap_err();
    assert!(
        matches!(&err, Error::ReplacedSince { changeset, by: Some(by), .. } if *changeset == first && *by == second),
        "{err}"
    );
    assert!(err.to_string().contains(&format!("changeset {second}")), "{err}");
    assert_eq!(latest(&f.memory).await, vec!["user likes green tea with honey"]);
}

#[tokio::test]
async fn revert_leaves_core_sections_changed_since() {
    let f = fixture(ReviewPolicy::Auto).await;
    let md = "# SOUL\n\n# TOOLS\n\n# RULE\n\n# USER\n- Drinks coffee.\n";
    f.llm
        .push("core_update", json!({"should_update": true, "core_markdown": md}));
    let id = f
        .memory
        .add(items(&["drinks coffee"]))
        .await
        .unwrap()
        .changeset
        .unwrap();
    f.memory
        .set_core_section(Section::User, "- Drinks water.")
        .await
        .unwrap();
    let revert = f.memory.revert(id).await.unwrap();
    assert!(
        revert.warnings.iter().any(|w| w.contains("USER")),
        "{:?}",
        revert.warnings
    );
    assert_eq!(
        f.memory.core_sections().await.unwrap().get(Section::User),
        "- Drinks water."
    );
}

#[tokio::test]
async fn history_lists_every_changeset_newest_first() {
    let f = fixture(ReviewPolicy::Review).await;
    let a = f.memory.add(items(&["a"])).await.unwrap().changeset.unwrap();
    let b = f.memory.add(items(&["b"])).await.unwrap().changeset.unwrap();
    f.memory.reject(a).await.unwrap();
    let all = f.memory.changesets(ChangesetFilter::All).await.unwrap();
    assert_eq!(all.iter().map(|c| c.id).collect::<Vec<_>>(), vec![b, a]);
    let rejected = f
        .memory
        .changesets(ChangesetFilter::Status(ChangesetStatus::Rejected))
        .await
        .unwrap();
    assert_eq!(rejected.len(), 1);
    assert_eq!(f.memory.info().await.unwrap().pending_changesets, 1);
}

#[tokio::test]
async fn unchanged_memories_keep_their_ids_and_timestamps() {
    let f = fixture(ReviewPolicy::Auto).await;
    f.memory.add(items(&["user likes green tea"])).await.unwrap();
    let before = f.memory.get_latest_records(1, 1).await.unwrap()[0].clone();
    f.llm.push(
        "reconstruct",
        json!({"memories": ["user likes green tea", "user likes green tea cold"], "coverage": "complete"}),
    );
    let outcome = f.memory.add(items(&["user likes green tea cold"])).await.unwrap();
    assert_eq!(
        outcome.status,
        AddStatus::Committed,
        "guarded would also commit: nothing removed"
    );
    let all = f.memory.get_latest_records(1, 10).await.unwrap();
    let kept = all.iter().find(|m| m.content == "user likes green tea").unwrap();
    assert_eq!(
        (kept.id.as_str(), kept.timestamp_ms),
        (before.id.as_str(), before.timestamp_ms)
    );
    assert_eq!(all[0].content, "user likes green tea cold");
}

#[tokio::test]
async fn re_adding_a_known_fact_is_a_noop() {
    let f = fixture(ReviewPolicy::Auto).await;
    f.memory.add(items(&["user likes green tea"])).await.unwrap();
    let outcome = f.memory.add(items(&["user likes green tea"])).await.unwrap();
    assert_eq!(outcome.status, AddStatus::Noop);
    assert_eq!(latest(&f.memory).await.len(), 1);
}

#[tokio::test]
async fn history_pages_by_keyset() {
    let f = fixture(ReviewPolicy::Review).await;
    let mut ids = Vec::new();
    for text in ["a", "b", "c", "d", "e"] {
        ids.push(f.memory.add(items(&[text])).await.unwrap().changeset.unwrap());
    }
    f.memory.reject(ids[1]).await.unwrap();
    let first = f.memory.changesets_page(ChangesetFilter::All, None, 2).await.unwrap();
    assert_eq!(first.iter().map(|c| c.id).collect::<Vec<_>>(), vec![ids[4], ids[3]]);
    let second = f
        .memory
        .changesets_page(ChangesetFilter::All, Some(ids[3]), 2)
        .await
        .unwrap();
    assert_eq!(second.iter().map(|c| c.id).collect::<Vec<_>>(), vec![ids[2], ids[1]]);
    let pending = f
        .memory
        .changesets_page(ChangesetFilter::Status(ChangesetStatus::Pending), Some(ids[2]), 10)
        .await
        .unwrap();
    assert_eq!(pending.iter().map(|c| c.id).collect::<Vec<_>>(), vec![ids[0]]);
}

#[tokio::test]
async fn lineage_links_a_memory_to_what_it_replaced_and_what_replaced_it() {
    let f = fixture(ReviewPolicy::Auto).await;
    f.memory.add(items(&["user drinks coffee"])).await.unwrap();
    let first = f.memory.get_latest_records(1, 1).await.unwrap()[0].clone();
    let merge = propose(&f, &f.memory, "user drinks coffee, black", "user takes coffee black").await;
    let merged = f.memory.get_latest_records(1, 1).await.unwrap()[0].clone();
    assert_eq!(merged.content, "user drinks coffee, black");

    let old = f.memory.lineage(&first.id).await.unwrap();
    assert_eq!(old.memory.status, MemoryStatus::Superseded);
    assert_eq!(old.replaced_by.as_ref().map(|c| c.id), Some(merge));
    assert_eq!(
        old.successors().iter().map(|p| p.content.as_str()).collect::<Vec<_>>(),
        vec!["user drinks coffee, black"]
    );
    let new = f.memory.lineage(&merged.id).await.unwrap();
    assert_eq!(new.origin.as_ref().map(|c| c.id), Some(merge));
    assert_eq!(new.origin.as_ref().unwrap().inputs, vec!["user takes coffee black"]);
    assert_eq!(
        new.replaced().iter().map(|r| r.content.as_str()).collect::<Vec<_>>(),
        vec!["user drinks coffee"]
    );
    assert!(new.replaced_by.is_none());
    assert!(matches!(
        f.memory.lineage(&MemoryId::from("no-such-id")).await,
        Err(Error::NotFound(Missing::Memory(_)))
    ));
}
