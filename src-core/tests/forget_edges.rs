//! Forget at its edges: structure is never blanked (core.md's headings, the `[forgotten]`
//! marker, agent state keys and agent ids are never half blanked), phrases too short to mean
//! anything are refused, the same text in another form is found, and the plan names every
//! agent state key that goes before anything is asked.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::*;
use haema_core::{AgentStateKey, CoreSections, Error, ForgetRequest, ReviewPolicy, Section};
use serde_json::json;

fn mentioning(phrase: &str) -> ForgetRequest {
    ForgetRequest {
        memory_ids: Vec::new(),
        mentioning: Some(phrase.into()),
    }
}

#[tokio::test]
async fn forgetting_a_word_that_names_a_core_section_keeps_core_md_whole() {
    let f = fixture_without_llm(ReviewPolicy::Auto).await;
    f.memory
        .add(items(&["I broke the office rule about parking", "The user likes tea"]))
        .await
        .unwrap();
    f.memory
        .set_core_section(Section::Rule, "Always be polite. The parking rule matters.")
        .await
        .unwrap();
    f.memory
        .set_core_section(Section::User, "The user is Ana.")
        .await
        .unwrap();

    let receipt = f.memory.forget(mentioning("rule")).await.unwrap();
    assert_eq!(receipt.forget.unwrap().receipt.unwrap().memories, 1);
    // An agent's forget of "user" under auto, as MCP's forget_memory does it.
    f.memory.request_forget(mentioning("user")).await.unwrap();

    let core = f.memory.get_core().await.unwrap();
    let sections = CoreSections::parse(&core).unwrap_or_else(|e| panic!("{e}: {core}"));
    assert_eq!(
        sections.get(Section::Rule),
        "Always be polite. The parking [forgotten] matters."
    );
    assert_eq!(sections.get(Section::User), "The [forgotten] is Ana.");
    // Every version still parses, so the core can be set and restored as before.
    for version in f.memory.core_versions().await.unwrap() {
        CoreSections::parse(&version.content).unwrap_or_else(|e| panic!("{e}: {}", version.content));
    }
    let first = f
        .memory
        .core_versions()
        .await
        .unwrap()
        .into_iter()
        .map(|v| v.id)
        .min()
        .unwrap();
    f.memory.restore_core_version(first).await.unwrap();
    f.memory.set_core_section(Section::Rule, "Be kind.").await.unwrap();
    assert_eq!(f.memory.core_sections().await.unwrap().get(Section::Rule), "Be kind.");
    assert_eq!(
        latest(&f.memory).await,
        Vec::<String>::new(),
        "both mentioned a forgotten word"
    );
}

#[tokio::test]
async fn a_phrase_too_short_to_mean_anything_is_refused_with_the_reason() {
    let f = fixture_without_llm(ReviewPolicy::Auto).await;
    f.memory.add(items(&["Everyone here speaks Greek"])).await.unwrap();
    f.memory
        .set_agent_state("default", "mood", json!("serene"))
        .await
        .unwrap();
    for phrase in ["e", " E ", "ab", "4-2", "王", "\u{200B}e\u{200B}"] {
        for result in [
            f.memory.forget_plan(mentioning(phrase)).await.map(drop),
            f.memory.forget(mentioning(phrase)).await.map(drop),
            f.memory.request_forget(mentioning(phrase)).await.map(drop),
        ] {
            match result {
                Err(Error::InvalidArgument(why)) => assert!(why.contains("too short"), "{phrase:?}: {why}"),
                other => panic!("{phrase:?} was not refused: {other:?}"),
            }
        }
    }
    // Nothing was touched: the marker, the memory, the agent's state.
    assert_eq!(latest(&f.memory).await, ["Everyone here speaks Greek"]);
    assert_eq!(f.memory.list_agent_state("default").await.unwrap().len(), 1);
    // Three letters, or two characters of a script without spaces, are enough.
    assert_eq!(
        f.memory.forget_plan(mentioning("王伟")).await.unwrap().memories.len(),
        0
    );
    assert_eq!(
        f.memory.forget_plan(mentioning("greek")).await.unwrap().memories.len(),
        1
    );
}

#[tokio::test]
async fn the_same_text_in_another_form_is_forgotten() {
    let cases = [
        ("Lunch at the cafe\u{301} on Rua Augusta", "café"),
        ("Jo\u{200B}hn Smith called about the roof", "john smith"),
        ("Her pass\u{00AD}word hint is the dog", "password"),
        ("John  Smith owes the user money", "john smith"),
        ("ＡＤＤＲＥＳＳ: 5 Kellerstrasse", "address"),
        ("Flew to İstanbul in March", "istanbul"),
    ];
    for (stored, asked) in cases {
        let f = fixture_without_llm(ReviewPolicy::Auto).await;
        f.memory.add(items(&[stored, "The user likes tea"])).await.unwrap();
        f.memory
            .set_core_section(Section::User, &format!("Note: {stored}."))
            .await
            .unwrap();
        let plan = f.memory.forget_plan(mentioning(asked)).await.unwrap();
        assert_eq!(plan.memories.len(), 1, "{stored:?} asked as {asked:?}");
        f.memory.forget(mentioning(asked)).await.unwrap();
        assert_eq!(latest(&f.memory).await, ["The user likes tea"], "{stored:?}");
        let user = f.memory.core_sections().await.unwrap().get(Section::User).to_owned();
        assert!(user.contains("[forgotten]"), "{stored:?} asked as {asked:?}: {user}");
    }
}

#[tokio::test]
async fn a_phrase_is_forgotten_as_whole_words_not_inside_others() {
    let f = fixture_without_llm(ReviewPolicy::Auto).await;
    f.memory
        .add(items(&["Ann's sister lives in Porto", "Planning a trip to Annecy"]))
        .await
        .unwrap();
    let plan = f.memory.forget_plan(mentioning("Ann")).await.unwrap();
    assert_eq!(plan.memories.len(), 1);
    assert_eq!(plan.memories[0].content, "Ann's sister lives in Porto");
    f.memory.forget(mentioning("Ann")).await.unwrap();
    assert_eq!(latest(&f.memory).await, ["Planning a trip to Annecy"]);
}

#[tokio::test]
async fn the_marker_is_never_blanked_and_a_second_forget_leaves_it_whole() {
    let f = fixture_without_llm(ReviewPolicy::Auto).await;
    f.memory
        .add(items(&["The user forgot the keys at Zofia's"]))
        .await
        .unwrap();
    f.memory
        .set_core_section(Section::User, "Visits Zofia on Sundays. Never forgotten: birthdays.")
        .await
        .unwrap();
    f.memory.forget(mentioning("Zofia")).await.unwrap();
    f.memory.forget(mentioning("forgotten")).await.unwrap();
    let user = f.memory.core_sections().await.unwrap().get(Section::User).to_owned();
    assert_eq!(user, "Visits [forgotten] on Sundays. Never [forgotten]: birthdays.");
    assert!(!user.contains("[forgott[") && !user.contains("n]n]"), "{user}");
}

#[tokio::test]
async fn the_plan_names_the_agent_state_keys_that_go_whole_before_anything_goes() {
    let f = fixture_without_llm(ReviewPolicy::Auto).await;
    f.memory.add(items(&["The user went to Lisbon in May"])).await.unwrap();
    f.memory
        .set_agent_state("default", "lisbon_trip", json!({"days": 4}))
        .await
        .unwrap();
    f.memory
        .set_agent_state(
            "default",
            "notes",
            json!({"city": "Lisbon", "lisbon": "old key", "kept": 7}),
        )
        .await
        .unwrap();
    f.memory
        .set_agent_state("default", "mood", json!("calm"))
        .await
        .unwrap();
    f.memory
        .set_agent_state("lisbon-guide", "lang", json!("pt"))
        .await
        .unwrap();

    let plan = f.memory.forget_plan(mentioning("lisbon")).await.unwrap();
    let key = |agent: &str, key: &str| AgentStateKey {
        agent_id: agent.into(),
        key: key.into(),
    };
    assert_eq!(
        plan.agent_state_removed,
        [key("default", "lisbon_trip"), key("lisbon-guide", "lang")]
    );
    assert_eq!(
        f.memory.list_agent_state("default").await.unwrap().len(),
        3,
        "a plan changes nothing"
    );

    f.memory.forget(mentioning("lisbon")).await.unwrap();
    let left: Vec<(String, serde_json::Value)> = f
        .memory
        .list_agent_state("default")
        .await
        .unwrap()
        .into_iter()
        .map(|s| (s.key, s.value))
        .collect();
    assert_eq!(
        left,
        [
            ("mood".to_owned(), json!("calm")),
            ("notes".to_owned(), json!({"city": "[forgotten]", "kept": 7})),
        ]
    );
    assert!(f.memory.list_agent_state("lisbon-guide").await.unwrap().is_empty());
}

#[tokio::test]
async fn forgetting_a_memory_by_id_never_searches_for_short_text_or_removes_names() {
    let f = fixture_without_llm(ReviewPolicy::Auto).await;
    f.memory.add(items(&["```", "default", "user"])).await.unwrap();
    f.memory
        .set_core_section(Section::Tools, "```bash\n# install deps\nmake\n```")
        .await
        .unwrap();
    f.memory
        .set_agent_state("default", "user_name", json!("Ana"))
        .await
        .unwrap();
    let ids: Vec<_> = f
        .memory
        .get_latest_records(1, 10)
        .await
        .unwrap()
        .into_iter()
        .map(|m| m.id)
        .collect();
    let plan = f
        .memory
        .forget_plan(ForgetRequest {
            memory_ids: ids.clone(),
            mentioning: None,
        })
        .await
        .unwrap();
    assert!(plan.agent_state_removed.is_empty(), "{:?}", plan.agent_state_removed);
    f.memory
        .request_forget(ForgetRequest {
            memory_ids: ids,
            mentioning: None,
        })
        .await
        .unwrap();
    assert!(latest(&f.memory).await.is_empty());
    let core = f.memory.get_core().await.unwrap();
    let sections = CoreSections::parse(&core).unwrap_or_else(|e| panic!("{e}: {core}"));
    assert_eq!(sections.get(Section::Tools), "```bash\n# install deps\nmake\n```");
    assert_eq!(f.memory.list_agent_state("default").await.unwrap().len(), 1);
}

#[tokio::test]
async fn an_agents_request_naming_a_secret_is_refused_and_nothing_records_it() {
    let f = folder_fixture_without_llm(ReviewPolicy::Guarded).await;
    f.memory.add(items(&["The user likes tea"])).await.unwrap();
    let key = "AKIAIOSFODNN7EXAMPLE";
    match f.memory.request_forget(mentioning(key)).await {
        Err(Error::InvalidArgument(why)) => assert!(
            why.contains("aws access key") && why.contains("by memory id") && !why.contains(key),
            "{why}"
        ),
        other => panic!("the request was not refused: {other:?}"),
    }
    assert!(f.memory.pending().await.unwrap().is_empty());
    assert_eq!(files_holding(f.dir.path(), &[key]), Vec::<(String, String)>::new());
}
