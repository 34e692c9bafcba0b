//! Agent state on a real store: per agent, any JSON value, every change kept, limits said
//! clearly, never found by search, and blanked by a forget of what it mentions.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use common::*;
use haema_core::{ForgetRequest, ReviewPolicy, SearchMode};
use serde_json::json;

#[tokio::test]
async fn each_agent_keeps_its_own_keys_with_their_history() {
    let f = fixture_without_llm(ReviewPolicy::Guarded).await;
    let m = &f.memory;
    assert_eq!(m.get_agent_state("planner", "current_task").await.unwrap(), None);
    let set = m
        .set_agent_state("planner", "current_task", json!({"step": 2, "goal": "book a flight"}))
        .await
        .unwrap();
    assert_eq!(set.value["step"], 2);
    assert!(set.updated_at.ends_with('Z'), "{}", set.updated_at);
    m.set_agent_state("planner", "current_task", json!("pack"))
        .await
        .unwrap();
    m.set_agent_state("scout", "current_task", json!("look around"))
        .await
        .unwrap();
    m.set_agent_state(haema_core::DEFAULT_AGENT, "mood", json!(true))
        .await
        .unwrap();
    let nameless = m.set_agent_state("  ", "mood", json!(1)).await.unwrap_err();
    assert!(nameless.to_string().contains("agent id is empty"), "{nameless}");

    let now = m.get_agent_state("planner", "current_task").await.unwrap().unwrap();
    assert_eq!(now.value, json!("pack"));
    assert_eq!(
        m.get_agent_state("scout", "current_task").await.unwrap().unwrap().value,
        json!("look around"),
        "another agent's key is its own"
    );
    assert_eq!(
        m.get_agent_state(haema_core::DEFAULT_AGENT, "mood")
            .await
            .unwrap()
            .unwrap()
            .value,
        json!(true),
    );
    let keys: Vec<String> = m
        .list_agent_state("planner")
        .await
        .unwrap()
        .into_iter()
        .map(|s| s.key)
        .collect();
    assert_eq!(keys, ["current_task"]);

    assert!(m.delete_agent_state("planner", "current_task").await.unwrap());
    assert!(!m.delete_agent_state("planner", "current_task").await.unwrap());
    let history = m.agent_state_history("planner", "current_task").await.unwrap();
    let values: Vec<Option<serde_json::Value>> = history.into_iter().map(|c| c.value).collect();
    assert_eq!(
        values,
        [
            Some(json!({"step": 2, "goal": "book a flight"})),
            Some(json!("pack")),
            None
        ]
    );

    // State is not memory: search and latest never see it.
    assert!(latest(m).await.is_empty());
    let hits = m.search_records("look around", 5, SearchMode::Hybrid).await.unwrap();
    assert!(hits.hits.is_empty());

    // Reopened, it is all there.
    let again = reopen(&f, ReviewPolicy::Guarded).await;
    assert_eq!(again.list_agent_state("scout").await.unwrap().len(), 1);
}

#[tokio::test]
async fn bad_keys_and_large_values_are_refused_with_nothing_kept() {
    let f = fixture_without_llm(ReviewPolicy::Guarded).await;
    let m = &f.memory;
    for (key, value, says) in [
        ("  ", json!(1), "key is empty"),
        (&*"k".repeat(300), json!(1), "longer than 256"),
        ("big", json!("x".repeat(70_000)), "64 KB"),
    ] {
        let error = m.set_agent_state("a", key, value).await.unwrap_err();
        assert!(error.to_string().contains(says), "{error}");
    }
    assert!(m.list_agent_state("a").await.unwrap().is_empty());
}

#[tokio::test]
async fn forgetting_a_phrase_blanks_it_in_agent_state_too() {
    let f = fixture_without_llm(ReviewPolicy::Auto).await;
    let m = &f.memory;
    m.add(items(&["The user lives at 12 Elm Street"])).await.unwrap();
    m.set_agent_state(
        "courier",
        "next_stop",
        json!({"address": "12 Elm Street", "at": "9:00"}),
    )
    .await
    .unwrap();
    m.set_agent_state("courier", "note", json!("bring the parcel"))
        .await
        .unwrap();
    let request = ForgetRequest {
        memory_ids: Vec::new(),
        mentioning: Some("elm street".into()),
    };
    let done = m.forget(request).await.unwrap();
    let receipt = done.forget.unwrap().receipt.unwrap();
    assert_eq!(receipt.agent_state, 2, "the value now and its history: {receipt:?}");
    let stop = m.get_agent_state("courier", "next_stop").await.unwrap().unwrap();
    assert_eq!(stop.value["at"], "9:00");
    assert!(
        !stop.value.to_string().to_lowercase().contains("elm street"),
        "{}",
        stop.value
    );
    let history = m.agent_state_history("courier", "next_stop").await.unwrap();
    assert!(!format!("{history:?}").to_lowercase().contains("elm street"));
    assert_eq!(
        m.get_agent_state("courier", "note").await.unwrap().unwrap().value,
        json!("bring the parcel"),
        "what does not mention it stays"
    );
    for entry in std::fs::read_dir(f.dir.path()).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        let text = String::from_utf8_lossy(&bytes).to_lowercase();
        assert!(!text.contains("elm street"), "a byte of the store still holds it");
    }
}

#[tokio::test]
async fn a_phrase_only_agent_state_holds_is_forgotten_too_and_keys_that_name_it_go() {
    let f = fixture_without_llm(ReviewPolicy::Auto).await;
    let m = &f.memory;
    m.add(items(&["The user plays the cello"])).await.unwrap();
    m.set_agent_state("courier", "addr", json!("ship to Quokka Street"))
        .await
        .unwrap();
    m.set_agent_state("courier", "quokka street gate code", json!(4417))
        .await
        .unwrap();
    m.set_agent_state("courier", "addr", json!("ship to the depot"))
        .await
        .unwrap();
    m.delete_agent_state("courier", "addr").await.unwrap();
    let history = m.agent_state_history("courier", "addr").await.unwrap();
    assert_eq!(
        history.iter().map(|c| c.deleted).collect::<Vec<_>>(),
        [false, false, true]
    );

    let request = ForgetRequest {
        memory_ids: Vec::new(),
        mentioning: Some("QUOKKA street".into()),
    };
    let plan = m.forget_plan(request.clone()).await.unwrap();
    assert!(plan.memories.is_empty());
    assert_eq!(
        plan.agent_state, 3,
        "a value in history, a key now and in history: {plan:?}"
    );
    assert!(!plan.is_empty());
    let receipt = m.forget(request).await.unwrap().forget.unwrap().receipt.unwrap();
    assert_eq!(receipt.agent_state, 3);
    assert_eq!(m.list_agent_state("courier").await.unwrap(), Vec::new());
    let history = m.agent_state_history("courier", "addr").await.unwrap();
    assert_eq!(history.len(), 3, "the history stays, blanked");
    assert!(!format!("{history:?}").to_lowercase().contains("quokka"));
    assert!(
        m.agent_state_history("courier", "quokka street gate code")
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(latest(m).await, ["The user plays the cello"], "no memory is touched");
    for entry in std::fs::read_dir(f.dir.path()).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        assert!(!String::from_utf8_lossy(&bytes).to_lowercase().contains("quokka"));
    }
}
