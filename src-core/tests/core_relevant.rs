//! The core step runs only when a reconstruction answer says `core_relevant: true` or does
//! not say (HAEMA's behaviour for models that do not answer it).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::*;
use haema_core::fake::block_items;
use haema_core::provider::ProviderErrorKind;
use haema_core::{ReviewPolicy, Section};
use serde_json::{Value, json};

const NEW_CORE: &str = "# SOUL\n\n# TOOLS\n\n# RULE\n\n# USER\n- Prefers short answers.\n";

/// Adds one fact whose reconstruction answers `core_relevant` (or leaves it out when
/// `None`), with a core update ready that would change USER. Returns the core_update calls.
async fn add_with(core_relevant: Option<Value>) -> (Fixture, usize) {
    let f = fixture(ReviewPolicy::Auto).await;
    let mut answer = json!({"memories": ["Mina prefers short answers."], "coverage": "complete"});
    if let Some(value) = core_relevant {
        answer["core_relevant"] = value;
    }
    f.llm.push("reconstruct", answer);
    f.llm
        .push("core_update", json!({"should_update": true, "core_markdown": NEW_CORE}));
    let outcome = f.memory.add(items(&["Mina prefers short answers."])).await.unwrap();
    assert!(outcome.warnings.is_empty(), "{:?}", outcome.warnings);
    let calls = f.llm.calls_of("core_update").len();
    (f, calls)
}

#[tokio::test]
async fn core_relevant_true_runs_the_core_step() {
    let (f, calls) = add_with(Some(json!(true))).await;
    assert_eq!(calls, 1);
    assert_eq!(
        f.memory.core_sections().await.unwrap().get(Section::User),
        "- Prefers short answers."
    );
}

#[tokio::test]
async fn core_relevant_false_skips_the_core_step_and_leaves_core_md_alone() {
    let (f, calls) = add_with(Some(json!(false))).await;
    assert_eq!(calls, 0, "no core call");
    assert_eq!(f.llm.calls().len(), 1, "one call for the whole add");
    assert_eq!(f.memory.get_core().await.unwrap(), haema_core::CORE_TEMPLATE);
    assert_eq!(f.memory.core_versions().await.unwrap().len(), 1);
    assert_eq!(latest(&f.memory).await, vec!["Mina prefers short answers."]);
    let changeset = &f.memory.changesets(Default::default()).await.unwrap()[0];
    assert!(changeset.core_after.is_none());
    assert_eq!(
        changeset.llm_calls[0].answer.as_ref().unwrap()["core_relevant"],
        json!(false),
        "the answer that skipped the step is recorded"
    );
}

#[tokio::test]
async fn missing_core_relevant_runs_the_core_step_as_haema() {
    let (f, calls) = add_with(None).await;
    assert_eq!(calls, 1);
    assert_eq!(
        f.memory.core_sections().await.unwrap().get(Section::User),
        "- Prefers short answers."
    );
}

#[tokio::test]
async fn a_core_relevant_that_is_not_a_boolean_counts_as_missing() {
    for odd in [json!(null), json!("false"), json!("no"), json!(0), json!({"x": false})] {
        let (f, calls) = add_with(Some(odd.clone())).await;
        assert_eq!(calls, 1, "{odd}: the core step runs");
        assert_eq!(
            latest(&f.memory).await,
            vec!["Mina prefers short answers."],
            "{odd}: the memories are kept"
        );
    }
}

#[tokio::test]
async fn the_answer_that_was_accepted_decides() {
    // The first answer is rejected (incomplete) though it says false; the refine says true.
    let f = fixture(ReviewPolicy::Auto).await;
    f.llm.push(
        "reconstruct",
        json!({"memories": ["x"], "coverage": "incomplete", "core_relevant": false}),
    );
    f.llm.push(
        "refine",
        json!({"memories": ["Mina is allergic to peanuts."], "coverage": "complete", "core_relevant": true}),
    );
    f.memory.add(items(&["Mina is allergic to peanuts."])).await.unwrap();
    assert_eq!(f.llm.calls_of("core_update").len(), 1);

    // And the other way round: a refine that says false skips the step.
    f.llm.push(
        "reconstruct",
        json!({"memories": ["y"], "coverage": "incomplete", "core_relevant": true}),
    );
    f.llm.push(
        "refine",
        json!({"memories": ["Mina runs on Sundays."], "coverage": "complete", "core_relevant": false}),
    );
    f.memory.add(items(&["Mina runs on Sundays."])).await.unwrap();
    assert_eq!(f.llm.calls_of("core_update").len(), 1);
}

#[tokio::test]
async fn a_failed_reconstruction_still_runs_the_core_step() {
    let f = fixture(ReviewPolicy::Auto).await;
    f.llm.push(
        "reconstruct",
        json!({"memories": [], "coverage": "complete", "core_relevant": false}),
    );
    f.llm.push(
        "refine",
        json!({"memories": [], "coverage": "complete", "core_relevant": false}),
    );
    f.memory.add(items(&["Mina runs on Sundays."])).await.unwrap();
    assert_eq!(f.llm.calls_of("core_update").len(), 1, "fallback: not a clear false");
    f.llm.push_error("reconstruct", ProviderErrorKind::Network);
    f.memory.add(items(&["Mina swims on Mondays."])).await.unwrap();
    assert_eq!(f.llm.calls_of("core_update").len(), 2);
}

#[tokio::test]
async fn the_reconstruction_sees_the_core_but_never_keeps_it_as_a_memory() {
    let f = fixture(ReviewPolicy::Auto).await;
    f.memory
        .set_core_section(Section::Rule, "- Peanuts are a hard no in food suggestions.")
        .await
        .unwrap();
    f.memory.add(items(&["Mina is allergic to peanuts."])).await.unwrap();
    let call = &f.llm.calls_of("reconstruct")[0];
    let core = f.memory.get_core().await.unwrap();
    assert_eq!(block_items(&call.user, "core_profile"), vec![core]);
    assert!(call.system.contains("core_relevant"));
    assert_eq!(latest(&f.memory).await, vec!["Mina is allergic to peanuts."]);
}
