//! An agent loop over haema: recall before each model call, add what was learned after.
//!
//! Runs offline as it is (no LLM, search by words): `cargo run -p haema-core --example
//! agent_loop [STORE_DIR]`. With a store whose `haema.toml` names an LLM and an embedder,
//! open it with [`Memory::open`] instead and the same loop merges memories and searches by
//! meaning.

use std::time::Duration;

use haema_core::{Memory, MemoryAttributes, RecallOptions, ReviewPolicy, Settings};

/// Stands in for the model: a real agent sends `system` and `user` to its LLM.
fn model(system: &str, user: &str) -> String {
    let remembered = system.lines().filter(|l| l.starts_with("- ")).count();
    format!("(answering “{user}” with {remembered} remembered facts in view)")
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> haema_core::Result<()> {
    let dir = match std::env::args().nth(1) {
        Some(dir) => std::path::PathBuf::from(dir),
        None => std::env::temp_dir().join(format!("haema-agent-loop-{}", std::process::id())),
    };
    let settings = Settings {
        review: ReviewPolicy::Auto,
        ..Settings::default()
    };
    let memory = Memory::open_with(&dir, settings, None, None).await?;

    let turns = [
        ("I'm vegetarian, by the way.", Some("The user is vegetarian")),
        (
            "Book a table for Friday.",
            Some("The user wants a table booked for Friday"),
        ),
        ("What should I eat on Friday?", None),
    ];
    for (user, learned) in turns {
        // 1. Before the model call: what the memory holds that matters now, within a
        //    budget, never waiting for the search longer than the time limit.
        let options = RecallOptions {
            timeout: Some(Duration::from_millis(300)),
            min_score: Some(0.3),
            ..RecallOptions::budget(600)
        };
        let recall = memory.recall_with(user, &options).await?;
        let answer = model(&recall.text, user);
        println!("user:  {user}\nagent: {answer}");

        // 2. After it: what was learned, with who learned it.
        if let Some(fact) = learned {
            let attributes = MemoryAttributes {
                agent_id: Some("example-agent".into()),
                ..MemoryAttributes::default()
            };
            let outcome = memory.add_with(vec![fact.to_owned()], attributes).await?;
            println!("       (remembered as {:?}, {:?})", outcome.memory_ids, outcome.status);
        }
        // 3. Working state that is not memory: where the agent is in its task.
        memory
            .set_agent_state("example-agent", "last_request", serde_json::json!(user))
            .await?;
    }
    println!("store: {}", dir.display());
    Ok(())
}
