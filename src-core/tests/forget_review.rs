//! An agent's forget request under review: what approving it would do is shown before it
//! is approved (the phrase, the memories, the agent state removed whole and blanked),
//! worked out when it is asked for, and is exactly what the approval then does.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::*;
use haema_core::{AgentStateKey, ForgetRequest, ReviewPolicy};
use serde_json::json;

#[tokio::test]
async fn a_pending_forget_shows_what_approving_it_removes_now() {
    let f = fixture_without_llm(ReviewPolicy::Guarded).await;
    let added = f
        .memory
        .add(items(&["The default editor is vim", "The user likes tea"]))
        .await
        .unwrap();
    if let Some(id) = added
        .changeset
        .filter(|_| added.status == haema_core::AddStatus::Pending)
    {
        f.memory.approve(id).await.unwrap();
    }
    f.memory
        .set_agent_state("default", "task", json!("ship v2"))
        .await
        .unwrap();
    f.memory.set_agent_state("default", "cursor", json!(42)).await.unwrap();
    f.memory
        .set_agent_state("planner", "note", json!("use the default branch"))
        .await
        .unwrap();

    let asked = f
        .memory
        .request_forget(ForgetRequest {
            memory_ids: Vec::new(),
            mentioning: Some("default".into()),
        })
        .await
        .unwrap();
    let pending = f
        .memory
        .pending_forget(asked.id)
        .await
        .unwrap()
        .expect("a pending forget");
    assert_eq!(pending.changeset, asked.id);
    assert_eq!(pending.mentioning.as_deref(), Some("default"));
    let texts: Vec<&str> = pending.plan.memories.iter().map(|m| m.content.as_str()).collect();
    assert_eq!(texts, ["The default editor is vim"]);
    let key = |agent: &str, key: &str| AgentStateKey {
        agent_id: agent.into(),
        key: key.into(),
    };
    assert_eq!(
        pending.plan.agent_state_removed,
        [key("default", "task"), key("default", "cursor")]
    );
    // Entries now and in their history: the two removed and the one blanked, at least.
    assert!(pending.plan.agent_state >= 3, "{}", pending.plan.agent_state);
    let summary = pending.summary();
    assert!(
        summary.starts_with("forget “default”: 1 memory, 2 agent-state keys removed, "),
        "{summary}"
    );
    assert!(
        summary.contains(&format!(
            "{} agent-state entries blanked or removed",
            pending.plan.agent_state
        )),
        "{summary}"
    );

    // Worked out when asked: state written after the request is in the plan too.
    f.memory.set_agent_state("default", "late", json!(true)).await.unwrap();
    let now = f.memory.pending_forget(asked.id).await.unwrap().unwrap();
    assert_eq!(
        now.plan.agent_state_removed.len(),
        3,
        "{:?}",
        now.plan.agent_state_removed
    );
    assert_eq!(
        f.memory.list_agent_state("default").await.unwrap().len(),
        3,
        "showing changes nothing"
    );

    // ... and it is what approving does.
    let done = f.memory.approve(asked.id).await.unwrap();
    let receipt = done.forget.unwrap().receipt.unwrap();
    assert_eq!(receipt.memories, now.plan.memories.len());
    assert_eq!(receipt.agent_state, now.plan.agent_state);
    assert_eq!(receipt.changesets, now.plan.changesets);
    assert_eq!(receipt.core_versions, now.plan.core_versions);
    assert!(f.memory.list_agent_state("default").await.unwrap().is_empty());
    assert_eq!(
        f.memory.list_agent_state("planner").await.unwrap()[0].value,
        json!("use the [forgotten] branch")
    );

    // Decided, or no forget at all: there is no pending plan.
    assert_eq!(f.memory.pending_forget(asked.id).await.unwrap(), None);
    let other = f.memory.add(items(&["The user likes coffee"])).await.unwrap();
    if let Some(id) = other.changeset {
        assert_eq!(f.memory.pending_forget(id).await.unwrap(), None);
    }
}

#[tokio::test]
async fn an_agents_forget_of_a_pinned_memory_waits_for_a_person_whatever_the_policy() {
    let f = fixture_without_llm(ReviewPolicy::Auto).await;
    let added = f
        .memory
        .add(items(&["The user has a cat named Tom", "The user likes tea"]))
        .await
        .unwrap();
    let cat = added.memory_ids[0].clone();
    f.memory.set_pinned(&cat, true).await.unwrap();

    for request in [
        ForgetRequest {
            memory_ids: vec![cat.clone()],
            mentioning: None,
        },
        ForgetRequest {
            memory_ids: Vec::new(),
            mentioning: Some("Tom".into()),
        },
    ] {
        let asked = f.memory.request_forget(request).await.unwrap();
        assert_eq!(asked.status, haema_core::ChangesetStatus::Pending, "{asked:?}");
    }
    assert_eq!(latest(&f.memory).await.len(), 2, "nothing is gone yet");

    // Unpinned, an agent's forget under `auto` is done at once.
    let tea = ForgetRequest {
        memory_ids: vec![added.memory_ids[1].clone()],
        mentioning: None,
    };
    let done = f.memory.request_forget(tea).await.unwrap();
    assert_eq!(done.status, haema_core::ChangesetStatus::Committed);
    assert_eq!(latest(&f.memory).await, ["The user has a cat named Tom"]);
}
