//! What an agent did through its key, on a real store (SQLite, or PostgreSQL when
//! `HAEMA_TEST_POSTGRES` is set): every changeset made through an agent key records the
//! key, whatever path made it; a person lists one key's changes, and undoes them in one step
//! (reverted newest first, proposals rejected, what cannot be undone listed with why). The
//! record survives revoking the key and an export and import.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use common::*;
use haema_core::{
    AgentAccess, ChangesetStatus, ErrorKind, ForgetRequest, KeyCheck, Memory, ReviewPolicy, Settings, StoreScope,
};

/// `memory` as the agent holding a new key `name` with `access`.
async fn agent(memory: &Memory, name: &str, access: AgentAccess, user: Option<&str>) -> Memory {
    let made = memory.create_agent_key(name, access, user, None).await.unwrap();
    match memory.check_agent_key(&made.key).await.unwrap() {
        KeyCheck::Valid(key) => memory.for_agent(&key).unwrap(),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn every_changeset_made_through_a_key_records_it_and_no_other_does() {
    let f = fixture_without_llm(ReviewPolicy::Auto).await;
    let bot = agent(&f.memory, "notes-bot", AgentAccess::Write, None).await;

    let added = bot.add("The user grows tomatoes.").await.unwrap();
    let tomato = added.memory_ids[0].clone();
    let edited = bot
        .update_memory(&tomato, "The user grows cherry tomatoes.")
        .await
        .unwrap();
    let person = f.memory.add("The user keeps a cat.").await.unwrap();
    let deleted = bot.delete_memory(&person.memory_ids[0]).await.unwrap();
    let reverted = bot.revert(deleted.changeset.unwrap()).await.unwrap();
    let forget = bot
        .request_forget(ForgetRequest {
            mentioning: Some("cherry tomatoes".into()),
            ..Default::default()
        })
        .await
        .unwrap();

    let by_bot: Vec<_> = bot_ids(&f.memory, "notes-bot").await;
    let mut expected = vec![
        added.changeset.unwrap(),
        edited.changeset.unwrap(),
        deleted.changeset.unwrap(),
        reverted.id,
        forget.id,
    ];
    expected.reverse();
    assert_eq!(
        by_bot, expected,
        "add, edit, delete, revert and forget request, newest first"
    );
    for id in &expected {
        let whole = f.memory.changeset(*id).await.unwrap();
        assert_eq!(whole.agent_key.as_deref(), Some("notes-bot"), "changeset {id}");
    }
    let mine = f.memory.changeset(person.changeset.unwrap()).await.unwrap();
    assert_eq!(mine.agent_key, None, "a person's own change records no key");
    let lines = f.memory.changeset_summaries(None, 50).await.unwrap();
    assert_eq!(
        lines.iter().filter(|l| l.agent_key.is_some()).count(),
        expected.len(),
        "history lines say which changes an agent made"
    );
}

async fn bot_ids(memory: &Memory, name: &str) -> Vec<haema_core::ChangesetId> {
    memory
        .agent_key_changesets(name, None, 100)
        .await
        .unwrap()
        .iter()
        .map(|s| s.id)
        .collect()
}

#[tokio::test]
async fn a_propose_key_s_changes_wait_and_are_listed_as_its_own() {
    let f = fixture_without_llm(ReviewPolicy::Auto).await;
    let proposer = agent(&f.memory, "proposer", AgentAccess::Propose, None).await;
    let other = agent(&f.memory, "other-bot", AgentAccess::Write, None).await;
    let waiting = proposer.add("The user speaks Welsh.").await.unwrap();
    other.add("The user plays chess.").await.unwrap();
    let mine = f.memory.agent_key_changesets("proposer", None, 50).await.unwrap();
    assert_eq!(mine.len(), 1);
    assert_eq!(mine[0].status, ChangesetStatus::Pending);
    assert_eq!(Some(mine[0].id), waiting.changeset);
    let pending = f.memory.pending().await.unwrap();
    assert_eq!(
        pending[0].agent_key.as_deref(),
        Some("proposer"),
        "the review list names the agent"
    );

    let paged = f.memory.agent_key_changesets("other-bot", None, 1).await.unwrap();
    assert_eq!(paged.len(), 1);
    assert!(
        f.memory
            .agent_key_changesets("other-bot", Some(paged[0].id), 1)
            .await
            .unwrap()
            .is_empty()
    );
    let unknown = f.memory.agent_key_changesets("nobody", None, 50).await.unwrap_err();
    assert_eq!(unknown.kind(), ErrorKind::NotFound, "{unknown}");
    assert!(unknown.to_string().contains("nobody"), "{unknown}");
}

#[tokio::test]
async fn undoing_a_key_s_changes_reverts_in_order_rejects_proposals_and_says_what_it_left() {
    let f = fixture_without_llm(ReviewPolicy::Auto).await;
    let rogue = agent(&f.memory, "rogue", AgentAccess::Write, None).await;
    let first = rogue.add("The user hates jazz.").await.unwrap();
    // It rewrote its own memory: undone newest first, the first comes back, then goes.
    let rewritten = rogue
        .update_memory(&first.memory_ids[0], "The user hates all music.")
        .await
        .unwrap();
    let other = rogue.add("The user is allergic to cats.").await.unwrap();
    // A person corrected that one since: it stays until the person's change is reverted.
    let person = f
        .memory
        .update_memory(&other.memory_ids[0], "The user is allergic to dogs.")
        .await
        .unwrap();
    let gone = rogue
        .forget(ForgetRequest {
            mentioning: Some("allergic to dogs".into()),
            ..Default::default()
        })
        .await
        .unwrap();
    f.memory.revoke_agent_key("rogue").await.unwrap();

    let undone = f.memory.undo_agent_key_changes("rogue").await.unwrap();
    assert_eq!(
        undone.reverted,
        vec![rewritten.changeset.unwrap(), first.changeset.unwrap()],
        "{undone:?}"
    );
    let kept: Vec<_> = undone.kept.iter().map(|k| k.changeset).collect();
    assert_eq!(kept, vec![gone.id, other.changeset.unwrap()], "{undone:?}");
    assert!(undone.kept[0].reason.contains("forget"), "{}", undone.kept[0].reason);
    assert!(
        undone.kept[1].reason.contains(&person.changeset.unwrap().to_string()),
        "names the change that replaced it: {}",
        undone.kept[1].reason
    );
    let left = latest(&f.memory).await;
    assert!(
        !left.iter().any(|m| m.contains("music") || m.contains("jazz")),
        "{left:?}"
    );

    let again = f.memory.undo_agent_key_changes("rogue").await.unwrap();
    assert!(again.reverted.is_empty() && again.rejected.is_empty(), "{again:?}");
    assert_eq!(again.kept.len(), 2, "a second undo changes nothing more: {again:?}");
}

#[tokio::test]
async fn undoing_rejects_what_still_waits() {
    let f = fixture_without_llm(ReviewPolicy::Review).await;
    let proposer = agent(&f.memory, "eager", AgentAccess::Propose, None).await;
    let one = proposer.add("The user owns a boat.").await.unwrap();
    let two = proposer.add("The user owns a plane.").await.unwrap();
    f.memory.approve(one.changeset.unwrap()).await.unwrap();
    let undone = f.memory.undo_agent_key_changes("eager").await.unwrap();
    assert_eq!(undone.rejected, vec![two.changeset.unwrap()]);
    assert_eq!(undone.reverted, vec![one.changeset.unwrap()]);
    assert!(f.memory.pending().await.unwrap().is_empty());
    assert!(latest(&f.memory).await.is_empty());
}

#[tokio::test]
async fn a_user_s_handle_sees_and_undoes_only_that_user_s_share() {
    let dir = store_dir();
    let settings = Settings {
        scope: StoreScope::PerUser,
        ..settings(ReviewPolicy::Auto)
    };
    let store = Memory::open_with(dir.path(), settings, None, None).await.unwrap();
    let ann = store.for_user("ann").unwrap();
    let bob = store.for_user("bob").unwrap();
    // One key, unbound, used for two users' memories.
    let made = store
        .create_agent_key("shared-bot", AgentAccess::Write, None, None)
        .await
        .unwrap();
    let KeyCheck::Valid(key) = store.check_agent_key(&made.key).await.unwrap() else {
        panic!()
    };
    ann.for_agent(&key).unwrap().add("Ann likes tea.").await.unwrap();
    bob.for_agent(&key).unwrap().add("Bob likes coffee.").await.unwrap();

    assert_eq!(ann.agent_key_changesets("shared-bot", None, 50).await.unwrap().len(), 1);
    let undone = ann.undo_agent_key_changes("shared-bot").await.unwrap();
    assert_eq!(undone.reverted.len(), 1);
    assert!(latest(&ann).await.is_empty());
    assert_eq!(
        latest(&bob).await,
        ["Bob likes coffee."],
        "another user's share is untouched"
    );

    // From the handle that works for no user: an unbound key's changes need a user, a key
    // bound to one is read as that user's.
    let refused = store.agent_key_changesets("shared-bot", None, 50).await.unwrap_err();
    assert_eq!(refused.kind(), ErrorKind::UserRequired, "{refused}");
    let made = store
        .create_agent_key("bob-bot", AgentAccess::Write, Some("bob"), None)
        .await
        .unwrap();
    let KeyCheck::Valid(key) = store.check_agent_key(&made.key).await.unwrap() else {
        panic!()
    };
    store.for_agent(&key).unwrap().add("Bob likes rain.").await.unwrap();
    assert_eq!(store.agent_key_changesets("bob-bot", None, 50).await.unwrap().len(), 1);
    // Ann's handle is told the key is Bob's, not that it made nothing.
    let elsewhere = ann.agent_key_activity("bob-bot").await.unwrap_err();
    assert_eq!(elsewhere.kind(), ErrorKind::InvalidArgument, "{elsewhere}");
    assert!(
        elsewhere.to_string().contains("works for user `bob`, not `ann`"),
        "{elsewhere}"
    );
    assert!(ann.undo_agent_key_changes("bob-bot").await.is_err());
    assert_eq!(store.undo_agent_key_changes("bob-bot").await.unwrap().reverted.len(), 1);
    assert_eq!(latest(&bob).await, ["Bob likes coffee."]);
}

#[tokio::test]
async fn the_record_of_who_made_a_change_survives_an_export_and_import() {
    let f = fixture_without_llm(ReviewPolicy::Auto).await;
    let bot = agent(&f.memory, "exporter", AgentAccess::Write, None).await;
    let made = bot.add("The user sails on Sundays.").await.unwrap();
    let mut file = Vec::new();
    f.memory.export_jsonl(&mut file).await.unwrap();

    let g = fixture_without_llm(ReviewPolicy::Auto).await;
    g.memory.import_jsonl(file.as_slice()).await.unwrap();
    let copy = g.memory.changeset(made.changeset.unwrap()).await.unwrap();
    assert_eq!(copy.agent_key.as_deref(), Some("exporter"));
    // A new agent does not take over the imported one's changes by taking its name.
    let taken = g
        .memory
        .create_agent_key("exporter", AgentAccess::Write, None, None)
        .await
        .unwrap_err();
    assert_eq!(taken.kind(), ErrorKind::InvalidArgument, "{taken}");
    assert!(taken.to_string().contains("choose another name"), "{taken}");
    g.memory
        .create_agent_key("exporter-2", AgentAccess::Write, None, None)
        .await
        .unwrap();
    // The other order: a store with a key of that name does not take the export's changes.
    let h = fixture_without_llm(ReviewPolicy::Auto).await;
    h.memory
        .create_agent_key("exporter", AgentAccess::Write, None, None)
        .await
        .unwrap();
    let refused = h.memory.import_jsonl(file.as_slice()).await.unwrap_err();
    assert_eq!(refused.kind(), ErrorKind::InvalidArgument, "{refused}");
    assert!(refused.to_string().contains("agent key named exporter"), "{refused}");
    assert!(latest(&h.memory).await.is_empty(), "nothing of it was imported");
}

#[tokio::test]
async fn what_an_agent_did_is_counted_by_what_an_undo_would_do() {
    let f = fixture_without_llm(ReviewPolicy::Auto).await;
    let bot = agent(&f.memory, "counted", AgentAccess::Write, None).await;
    let kept = bot.add("The user rides a tandem.").await.unwrap();
    let undone = bot.add("The user rides a unicycle.").await.unwrap();
    f.memory.revert(undone.changeset.unwrap()).await.unwrap();
    bot.forget(ForgetRequest {
        mentioning: Some("tandem".into()),
        ..Default::default()
    })
    .await
    .unwrap();
    let proposer = agent(&f.memory, "counted-proposer", AgentAccess::Propose, None).await;
    proposer.add("The user rides a penny-farthing.").await.unwrap();

    let did = f.memory.agent_key_activity("counted").await.unwrap();
    assert_eq!(
        (did.committed, did.forgets, did.waiting, did.undone),
        (1, 1, 0, 1),
        "the add kept, the forget, the add a person undid: {did:?} (kept {:?})",
        kept.changeset
    );
    assert_eq!((did.total(), did.undoable()), (3, 1));
    let proposed = f.memory.agent_key_activity("counted-proposer").await.unwrap();
    assert_eq!((proposed.waiting, proposed.undoable()), (1, 1), "{proposed:?}");
    let unknown = f.memory.agent_key_activity("nobody").await.unwrap_err();
    assert_eq!(unknown.kind(), ErrorKind::NotFound, "{unknown}");
}

#[tokio::test]
async fn an_agent_s_proposal_built_again_stays_its_own_and_waits() {
    // The store writes at once; the agent may only propose.
    let f = fixture_without_llm(ReviewPolicy::Auto).await;
    let proposer = agent(&f.memory, "slow-bot", AgentAccess::Propose, None).await;
    let waiting = proposer.add("The user's locker is number 12.").await.unwrap();
    let again = f.memory.rerun(waiting.changeset.unwrap()).await.unwrap();
    let rebuilt = f.memory.changeset(again.changeset.unwrap()).await.unwrap();
    assert_eq!(
        rebuilt.status,
        ChangesetStatus::Pending,
        "a person asking to build it again is no approval"
    );
    assert_eq!(rebuilt.agent_key.as_deref(), Some("slow-bot"));
    assert!(latest(&f.memory).await.is_empty());
    // A person's own proposal, built again, follows the store's policy as before.
    let review = fixture_without_llm(ReviewPolicy::Review).await;
    let own = review.memory.add("The user's desk is by the window.").await.unwrap();
    let rebuilt_own = review.memory.rerun(own.changeset.unwrap()).await.unwrap();
    let own_again = review.memory.changeset(rebuilt_own.changeset.unwrap()).await.unwrap();
    assert_eq!(own_again.agent_key, None);
}
