//! The LLM cost of the bundled demo sample's stream of adds, replayed through the real
//! pipeline (`haema_core::eval::llm_cost`), and that the savings change no outcome.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use haema_core::eval::llm_cost::{LlmCost, ReplayInputs, ReplayOptions, StoreState, demo_stream_cost, replay_adds};

const DEMO: &str = include_str!("../../src-tui/assets/demo.jsonl");
/// The state of the demo sample before its answers carried `core_relevant` (taken from the
/// sample as it was then: its active and pending memories and its final core.md).
const DEMO_STATE_BEFORE: &str = include_str!("fixtures/demo_state.json");

fn show(name: &str, cost: &LlmCost) {
    eprintln!(
        "{name}: {} adds, {:.3} calls/add, {:.0} prompt chars/add, {:?}",
        cost.adds,
        cost.calls_per_add(),
        cost.prompt_chars_per_add(),
        cost.stages
    );
}

#[test]
fn the_demo_sample_keeps_its_memories_and_core() {
    let state = StoreState::from_export(DEMO).unwrap();
    assert_eq!(
        serde_json::to_value(&state).unwrap(),
        serde_json::from_str::<serde_json::Value>(DEMO_STATE_BEFORE).unwrap()
    );
    assert_eq!(state.active.len(), 15);
    assert_eq!(state.pending.len(), 2);
}

#[tokio::test]
async fn the_demo_stream_costs_at_most_1_3_calls_per_add_with_the_same_outcome() {
    let cost = demo_stream_cost(DEMO).await.unwrap();
    show("demo stream", &cost);
    assert_eq!(cost.adds, 19);
    assert!(cost.calls_per_add() <= 1.3, "{} calls per add", cost.calls_per_add());
    assert!(
        cost.prompt_chars_per_add() <= 3_000.0,
        "{} prompt characters per add",
        cost.prompt_chars_per_add()
    );

    let replay = replay_adds(DEMO, &ReplayOptions::demo()).await.unwrap();
    assert_eq!(replay.cost, cost, "deterministic");
    assert!(replay.related_mismatches.is_empty(), "{:?}", replay.related_mismatches);
    let recorded = StoreState::from_export(DEMO).unwrap();
    assert_eq!(replay.state, recorded);

    // A model that never answers core_relevant gets HAEMA's core step after every add, and
    // the same memories and core: the skipped steps changed nothing.
    let every_add = ReplayOptions {
        strip_core_relevant: true,
        ..ReplayOptions::demo()
    };
    let haema = replay_adds(DEMO, &every_add).await.unwrap();
    show("core step on every add", &haema.cost);
    assert!((haema.cost.calls_per_add() - 2.0).abs() < f64::EPSILON);
    assert_eq!(haema.state, recorded);
}

#[tokio::test]
async fn the_demo_stream_as_texts_skips_the_split_for_one_short_fact() {
    let as_text = ReplayOptions {
        inputs: ReplayInputs::AsText,
        ..ReplayOptions::demo()
    };
    let replay = replay_adds(DEMO, &as_text).await.unwrap();
    show("demo stream as texts", &replay.cost);
    let split = replay.cost.stages.iter().find(|s| s.stage == "pre_split").unwrap();
    // Four facts are joined with "and" or ";" and still go to the split step.
    assert_eq!(split.calls, 4);
    assert!(replay.cost.calls_per_add() < 1.5, "{}", replay.cost.calls_per_add());
    assert_eq!(replay.state, StoreState::from_export(DEMO).unwrap());
}

#[tokio::test]
async fn a_text_that_is_not_an_export_is_an_error() {
    assert!(demo_stream_cost("{\"not\": \"an export\"}\n").await.is_err());
    let empty =
        demo_stream_cost("{\"type\":\"header\",\"format\":\"haema-export\",\"version\":1,\"embedder\":\"x\"}\n")
            .await
            .unwrap();
    assert_eq!((empty.adds, empty.llm_calls), (0, 0));
    assert!(empty.calls_per_add().abs() < f64::EPSILON);
}
