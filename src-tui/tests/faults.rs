//! Every fault ends in a clear message and loses nothing, through the real binary with its
//! providers on 127.0.0.1: an LLM that fails (500), throttles (429 with Retry-After), cuts
//! its JSON short or answers another schema; an embedder that answers zero vectors; a 10 MB
//! core.md; a store from a newer haema; a database file of random bytes or cut in half.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::*;
use haema_tests::{FakeOpenAi, Reply, ScriptedServer, chat_completion, embeddings};
use serde_json::Value;

/// A store whose LLM is the server at `llm` (one retry, short timeouts) and whose embedder
/// is the server at `embed` (both `http://127.0.0.1:PORT`).
fn store_with(dir: &Path, llm: &str, embed: &str) -> (PathBuf, Vec<(&'static str, String)>) {
    let store = dir.join("store");
    std::fs::create_dir_all(&store).unwrap();
    std::fs::write(
        store.join("haema.toml"),
        "review = \"auto\"\n[llm]\nmax_retries = 1\ntimeout_secs = 5\n[embedder]\nmax_retries = 0\ntimeout_secs = 5\n",
    )
    .unwrap();
    let mut env = openai_env(&format!("{embed}/v1"));
    env.retain(|(k, _)| *k != "HAEMA_LLM_BASE_URL");
    env.push(("HAEMA_LLM_BASE_URL", format!("{llm}/v1")));
    (store, env)
}

fn add(store: &Path, env: &[(&'static str, String)], text: &str) -> Value {
    json_of(&haema(store, &refs(env), &["add", "--json", "--items", text], None))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_llm_leaves_the_text_stored_as_given_with_the_reason() {
    let embedder = FakeOpenAi::start(64).await;
    let cut_short = chat_completion(r#"{"memories": ["The user"#);
    let other_schema = chat_completion(r#"{"facts": 3, "coverage": 12}"#);
    let cases: Vec<(&str, Vec<Reply>, &str)> = vec![
        (
            "500",
            vec![Reply::status(500, "{\"error\": {\"message\": \"boom\"}}")],
            "500",
        ),
        ("cut short", vec![Reply::json(&cut_short)], "JSON"),
        ("other schema", vec![Reply::json(&other_schema)], "memories"),
    ];
    for (name, replies, says) in cases {
        let llm = ScriptedServer::start().await;
        for _ in 0..12 {
            for reply in &replies {
                llm.push(reply.clone());
            }
        }
        let dir = tempfile::tempdir().unwrap();
        let (store, env) = store_with(dir.path(), llm.url(), embedder.base_url().trim_end_matches("/v1"));
        ok(&haema(
            &store,
            &refs(&env),
            &["add", "--items", "The user drinks green tea"],
            None,
        ));
        let text = format!("The user now drinks black tea ({name})");
        let out = add(&store, &env, &text);
        assert_eq!(out["status"], "committed", "{name}: {out}");
        let warnings = out["warnings"].to_string();
        assert!(warnings.contains(says), "{name}: the reason is given: {warnings}");
        let latest = contents(&json_of(&haema(&store, &refs(&env), &["latest", "--json"], None)));
        assert!(
            latest.contains(&text) && latest.contains(&"The user drinks green tea".to_owned()),
            "{name}: {latest:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_throttling_llm_is_waited_for_as_it_asks() {
    let embedder = FakeOpenAi::start(64).await;
    let llm = ScriptedServer::start().await;
    llm.push(Reply::status(429, "{\"error\": {\"message\": \"slow down\"}}").header("Retry-After", "1"));
    let answer = chat_completion(
        r#"{"memories": ["The user plays the cello on Sundays"], "coverage": "complete", "core_relevant": false}"#,
    );
    for _ in 0..6 {
        llm.push(Reply::json(&answer));
    }
    let dir = tempfile::tempdir().unwrap();
    let (store, env) = store_with(dir.path(), llm.url(), embedder.base_url().trim_end_matches("/v1"));
    let started = Instant::now();
    let out = add(&store, &env, "The user plays the cello on Sundays");
    assert!(started.elapsed() >= Duration::from_secs(1), "Retry-After was honoured");
    assert_eq!(out["status"], "committed", "{out}");
    let received = llm.received();
    assert!(received.len() >= 2, "asked again after the 429");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_embedder_answering_zero_vectors_keeps_the_text_and_says_so() {
    let llm = FakeOpenAi::start(64).await;
    let embed = ScriptedServer::start().await;
    for _ in 0..20 {
        embed.push(Reply::json(&embeddings(&[vec![0.0; 64]])));
    }
    let dir = tempfile::tempdir().unwrap();
    let (store, env) = store_with(dir.path(), llm.base_url().trim_end_matches("/v1"), embed.url());
    let out = haema(
        &store,
        &refs(&env),
        &["add", "--json", "--items", "The user keeps bees"],
        None,
    );
    let err = stderr(&out);
    assert!(!err.contains("panicked"), "{err}");
    let answer = if out.status.success() {
        json_of(&out).to_string()
    } else {
        err.clone()
    };
    assert!(answer.contains("zero"), "the reason is given: {answer}");
    if out.status.success() {
        let found = json_of(&haema(
            &store,
            &refs(&env),
            &["search", "bees", "--mode", "lexical", "--json"],
            None,
        ));
        assert_eq!(
            contents(&found),
            vec!["The user keeps bees"],
            "found by words meanwhile"
        );
    }
}

#[test]
fn a_huge_core_md_blocks_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    ok(&haema(
        &store,
        &[],
        &["add", "--items", "The user likes long walks"],
        None,
    ));
    let mut core = String::from("# SOUL\n\nCalm.\n\n# TOOLS\n\n# RULE\n\n# USER\n\n");
    while core.len() < 10 * 1024 * 1024 {
        core.push_str("- The user once wrote a very long note about the sea and the harbour lights.\n");
    }
    std::fs::write(store.join("core.md"), &core).unwrap();
    let shown = haema(&store, &[], &["core", "show"], None);
    assert!(shown.status.success(), "{}", stderr(&shown));
    assert!(shown.stdout.len() >= 10 * 1024 * 1024);
    ok(&haema(&store, &[], &["add", "--items", "The user likes the sea"], None));
    let recall = json_of(&haema(
        &store,
        &[],
        &["recall", "sea", "--json", "--budget", "500"],
        None,
    ));
    assert!(recall["tokens"].as_u64().unwrap() <= 500, "{}", recall["tokens"]);
    assert_eq!(
        contents(&json_of(&haema(&store, &[], &["latest", "--json"], None))).len(),
        2
    );
}

#[test]
fn a_damaged_or_newer_database_is_refused_clearly_and_left_as_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    ok(&haema(
        &store,
        &[],
        &["add", "--items", "The user likes long walks"],
        None,
    ));
    let db = store.join("memory.db");
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.pragma_update(None, "user_version", 99).unwrap();
    conn.pragma_update(None, "journal_mode", "delete").unwrap();
    drop(conn);
    let newer = std::fs::read(&db).unwrap();
    let out = haema(&store, &[], &["latest"], None);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("upgrade haema"), "{}", stderr(&out));
    assert!(std::fs::read(&db).unwrap() == newer, "a newer store is not touched");

    let mut seed = 0x9e37_79b9_u64;
    let random: Vec<u8> = (0..65_536)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed & 0xff) as u8
        })
        .collect();
    for (what, bytes) in [
        ("random bytes", random),
        ("cut in half", newer[..newer.len() / 2].to_vec()),
    ] {
        std::fs::write(&db, &bytes).unwrap();
        let _ = std::fs::remove_file(store.join("memory.db-wal"));
        let _ = std::fs::remove_file(store.join("memory.db-shm"));
        let out = haema(&store, &[], &["latest"], None);
        let err = stderr(&out);
        assert!(!out.status.success(), "{what}");
        assert!(
            !err.contains("panicked") && !err.contains("internal error"),
            "{what}: {err}"
        );
        assert!(
            err.contains("memory.db") || err.contains("database"),
            "{what}: the file is named: {err}"
        );
        assert!(
            std::fs::read(&db).unwrap() == bytes,
            "{what}: the file is left as it was"
        );
    }
}
