//! The LLM cost of the bundled demo sample's stream of adds, replayed through the real
//! pipeline (`haema_core::eval::llm_cost`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use haema_core::eval::llm_cost::{ReplayInputs, ReplayOptions, StoreState, replay_adds};

const DEMO: &str = include_str!("../../src-tui/assets/demo.jsonl");

#[tokio::test]
async fn replaying_the_demo_gives_its_memories_and_core() {
    let replay = replay_adds(DEMO, &ReplayOptions::demo()).await.unwrap();
    assert!(replay.related_mismatches.is_empty(), "{:?}", replay.related_mismatches);
    assert_eq!(replay.state, StoreState::from_export(DEMO).unwrap());
    eprintln!(
        "as recorded: {} adds, {:.3} calls/add, {:.0} prompt chars/add, {:?}",
        replay.cost.adds,
        replay.cost.calls_per_add(),
        replay.cost.prompt_chars_per_add(),
        replay.cost.stages
    );
    let text = ReplayOptions {
        inputs: ReplayInputs::AsText,
        ..ReplayOptions::demo()
    };
    let replay = replay_adds(DEMO, &text).await.unwrap();
    assert_eq!(replay.state, StoreState::from_export(DEMO).unwrap());
    eprintln!(
        "as text: {:.3} calls/add, {:.0} prompt chars/add, {:?}",
        replay.cost.calls_per_add(),
        replay.cost.prompt_chars_per_add(),
        replay.cost.stages
    );
}
