//! A hung LLM holds one add for at most `llm.add_deadline_secs` in all (every stage and
//! retry), and the add still stores what it was given.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::time::{Duration, Instant};

use common::*;
use haema_tests::{FakeOpenAi, Reply, ScriptedServer, chat_completion};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hung_llm_holds_an_add_for_the_deadline_and_nothing_is_lost() {
    let embeddings = FakeOpenAi::start(64).await;
    let hung = ScriptedServer::start().await;
    for _ in 0..20 {
        hung.push(Reply::json(&chat_completion("{}")).delayed(Duration::from_secs(60)));
    }
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    std::fs::create_dir_all(&store).unwrap();
    std::fs::write(
        store.join("haema.toml"),
        "[llm]\nadd_deadline_secs = 2\ntimeout_secs = 50\n",
    )
    .unwrap();
    let mut env = openai_env(&embeddings.base_url());
    env.retain(|(k, _)| *k != "HAEMA_LLM_BASE_URL");
    env.push(("HAEMA_LLM_BASE_URL", format!("{}/v1", hung.url())));
    let env = refs(&env);

    let started = Instant::now();
    let out = json_of(&haema(
        &store,
        &env,
        &["add", "I moved to Tampere and I play the kantele", "--json"],
        None,
    ));
    let took = started.elapsed();
    assert!(took < Duration::from_secs(20), "the add took {took:?}");
    assert_eq!(out["status"], "committed", "{out}");
    let warnings = out["warnings"].to_string();
    assert!(warnings.contains("add_deadline_secs"), "{warnings}");
    assert_eq!(
        contents(&json_of(&haema(&store, &env, &["latest", "--json"], None))),
        vec!["I moved to Tampere and I play the kantele"],
        "stored as given"
    );
}
