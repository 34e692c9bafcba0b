//! A hook's recall answered warm: a real `haema mcp` holds the store (and its embedder)
//! open and answers `haema hook claude-code` through the store's recall socket; when it
//! ends the socket goes with it, and when it is killed the hook finds the stale socket,
//! goes cold and still answers.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::time::{Duration, Instant};

use common::mcp::Client;
use common::*;
use haema_tests::FakeOpenAi;
use serde_json::{Value, json};

fn wait_until(what: &str, done: impl Fn() -> bool) {
    let started = Instant::now();
    while !done() {
        assert!(started.elapsed() < Duration::from_secs(20), "waited 20 s for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The recall the hook printed for `prompt`, and the last line of its log.
fn prompt(store: &std::path::Path, env: &[(&str, &str)], log: &std::path::Path, prompt: &str) -> (String, String) {
    let event = json!({"session_id": "s1", "transcript_path": "/nonexistent", "cwd": store,
        "hook_event_name": "UserPromptSubmit", "prompt": prompt});
    let out = ok(&haema(store, env, &["hook", "claude-code"], Some(&event.to_string())));
    let answer: Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("no recall: {out:?}"));
    let context = answer["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap()
        .to_owned();
    let log = std::fs::read_to_string(log).unwrap();
    (context, log.lines().last().unwrap().to_owned())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_process_holding_the_store_answers_the_hook_and_the_hook_goes_cold_without_it() {
    let llm = FakeOpenAi::start(64).await;
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let log = dir.path().join("hooks.log");
    let mut env = openai_env(&llm.base_url());
    env.push(("HAEMA_HOOK_LOG", log.display().to_string()));
    env.push(("HAEMA_REVIEW", "auto".into()));
    let env = refs(&env);
    ok(&haema(
        &store,
        &env,
        &["add", "--items", "The user keeps bees on the roof."],
        None,
    ));
    let socket = store.join(".recall.sock");

    let mut mcp = Client::start(&store, &env);
    mcp.initialize();
    wait_until("the recall socket", || {
        std::os::unix::net::UnixStream::connect(&socket).is_ok()
    });
    let mode = std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&socket).unwrap().permissions());
    assert_eq!(mode & 0o777, 0o600);
    let (context, line) = prompt(&store, &env, &log, "what about the bees?");
    assert!(context.contains("keeps bees on the roof"), "{context}");
    assert!(
        line.contains(&format!("by process {}, which holds the store", mcp.child.id())),
        "{line}"
    );
    // What the holder answers is what the hook computes on its own.
    let warm = context;

    // The holder ends as an MCP server does when its client leaves: its socket goes too.
    drop(mcp.input.take());
    assert!(mcp.child.wait().unwrap().success());
    assert!(!socket.exists(), "the socket outlived its process");
    let (cold, line) = prompt(&store, &env, &log, "what about the bees?");
    assert_eq!(cold, warm);
    assert!(line.contains("cold (no process holds the store open)"), "{line}");

    // Killed, it leaves its socket behind: the hook is not held up by it.
    let mut mcp = Client::start(&store, &env);
    wait_until("the recall socket", || {
        std::os::unix::net::UnixStream::connect(&socket).is_ok()
    });
    mcp.child.kill().unwrap();
    mcp.child.wait().unwrap();
    assert!(socket.exists());
    let (cold, line) = prompt(&store, &env, &log, "what about the bees?");
    assert_eq!(cold, warm);
    assert!(line.contains("cold (no process holds the store open)"), "{line}");
}
