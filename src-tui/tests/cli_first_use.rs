//! A new user's first `add` and `search`: the real `haema` binary fetches the default
//! embedding model from a Hugging Face Hub on 127.0.0.1 (the pip-downloaded
//! all-MiniLM-L6-v2 served as the Hub serves it), works by words when it cannot, and gives
//! the memories added meanwhile their vectors once the model is there.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::path::Path;

use common::*;
use haema_tests::{FakeHub, minilm_dir};
use serde_json::Value;

/// A loopback port nothing listens on.
fn closed_port_url() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    format!("http://127.0.0.1:{port}")
}

fn run(store: &Path, env: &[(&str, &str)], args: &[&str]) -> (Value, String) {
    let out = haema(store, env, args, None);
    let err = stderr(&out);
    (json_of(&out), err)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_first_add_downloads_the_model_and_search_understands_meaning() {
    let Some(model) = minilm_dir() else { return };
    let hub = FakeHub::serve_dir(&model).await;
    let home = tempfile::tempdir().unwrap();
    let store = tempfile::tempdir().unwrap();
    let env = [("HF_ENDPOINT", hub.url()), ("HF_HOME", home.path().to_str().unwrap())];
    let (added, err) = run(
        store.path(),
        &env,
        &[
            "add",
            "--items",
            "I am allergic to peanuts",
            "The user drives a red car",
            "--json",
        ],
    );
    assert_eq!(added["status"], "committed");
    assert!(!err.contains("lexical"), "no fallback note when the model came: {err}");
    assert!(
        home.path()
            .join("hub/models--sentence-transformers--all-MiniLM-L6-v2/refs/main")
            .is_file(),
        "the model is in the standard cache"
    );
    let (hits, err) = run(store.path(), &env, &["search", "food allergy", "-n", "1", "--json"]);
    assert!(err.is_empty(), "{err}");
    assert_eq!(hits[0]["content"], "I am allergic to peanuts");
    assert_ne!(hits[0]["found_by"], "lexical", "found by meaning: no word is shared");
    let (status, _) = run(store.path(), &env, &["status", "--json"]);
    assert_eq!(status["dims"], 384);
    assert_eq!(status["lexical_reason"], Value::Null);

    // Later commands need no network: the model is cached.
    let offline = [("HF_HUB_OFFLINE", "1"), ("HF_HOME", home.path().to_str().unwrap())];
    let (hits, _) = run(store.path(), &offline, &["search", "which car", "-n", "1", "--json"]);
    assert_eq!(hits[0]["content"], "The user drives a red car");
    let (models, _) = run(store.path(), &offline, &["model", "list", "--json"]);
    assert_eq!(models[0]["model"], "sentence-transformers/all-MiniLM-L6-v2");
    assert_eq!(models[0]["complete"], true);
    assert!(models[0]["bytes"].as_u64().unwrap() > 80_000_000);
    // Stores beside it (other temporary folders) may use the model too.
    let users = models[0]["used_by"].as_array().unwrap();
    assert!(users.iter().any(|u| u.as_str() == store.path().to_str()), "{users:?}");
    let fetches = hub.content_fetches("model.safetensors");
    assert_eq!(fetches, 1, "the weights were downloaded once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn offline_it_works_by_words_and_catches_up_when_the_model_comes() {
    let Some(model) = minilm_dir() else { return };
    let home = tempfile::tempdir().unwrap();
    let store = tempfile::tempdir().unwrap();
    let home_str = home.path().to_str().unwrap();
    let down = closed_port_url();
    let unreachable = [("HF_ENDPOINT", down.as_str()), ("HF_HOME", home_str)];

    let (added, err) = run(
        store.path(),
        &unreachable,
        &["add", "--items", "I am allergic to peanuts", "--json"],
    );
    assert_eq!(added["status"], "committed", "an add never fails for the model");
    assert_eq!(err.lines().count(), 1, "one line says why: {err}");
    assert!(
        err.contains("lexical") && err.contains("cannot reach 127.0.0.1") && err.contains("haema model fetch"),
        "{err}"
    );
    let (hits, err) = run(store.path(), &unreachable, &["search", "food allergy", "--json"]);
    assert_eq!(hits, serde_json::json!([]), "by words, nothing is shared");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("tried again after 10 min"),
        "no new attempt for a while: {err}"
    );
    let (hits, _) = run(store.path(), &unreachable, &["search", "peanuts", "--json"]);
    assert_eq!(hits[0]["found_by"], "lexical");
    let (status, _) = run(store.path(), &unreachable, &["status", "--json"]);
    assert_eq!(
        status["embedder_wanted"],
        "local:sentence-transformers/all-MiniLM-L6-v2"
    );
    assert_eq!(status["lexical_reason"]["kind"], "model_missing");

    // HF_HUB_OFFLINE: no request at all, the same single line.
    let offline = [("HF_HUB_OFFLINE", "1"), ("HF_HOME", home_str)];
    let out = haema(
        store.path(),
        &offline,
        &["add", "--items", "The user drives a red car"],
        None,
    );
    ok(&out);
    assert!(stderr(&out).contains("HF_HUB_OFFLINE"), "{}", stderr(&out));

    // The Hub is back: the next add fetches the model and every memory gets its vector.
    let hub = FakeHub::serve_dir(&model).await;
    let online = [("HF_ENDPOINT", hub.url()), ("HF_HOME", home_str)];
    let (added, err) = run(
        store.path(),
        &online,
        &["add", "--items", "The user's sister lives in Busan", "--json"],
    );
    assert_eq!(added["status"], "committed");
    assert!(!err.contains("lexical"), "{err}");
    let (hits, _) = run(store.path(), &offline, &["search", "food allergy", "-n", "1", "--json"]);
    assert_eq!(hits[0]["content"], "I am allergic to peanuts", "caught up");
    assert_ne!(hits[0]["found_by"], "lexical");
    let (hits, _) = run(
        store.path(),
        &offline,
        &["search", "vehicle", "-n", "1", "--mode", "vector", "--json"],
    );
    assert_eq!(hits[0]["content"], "The user drives a red car");
    let (latest, _) = run(store.path(), &offline, &["latest", "--json"]);
    assert_eq!(latest.as_array().unwrap().len(), 3, "nothing lost, no duplicate rows");
    let (status, _) = run(store.path(), &offline, &["status", "--json"]);
    assert_eq!(
        (status["active"].as_u64(), status["dims"].as_u64()),
        (Some(3), Some(384))
    );
    assert_eq!(status["embedder_wanted"], Value::Null);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_corrupt_download_is_refused_and_the_store_keeps_working() {
    let Some(model) = minilm_dir() else { return };
    let hub = FakeHub::serve_dir(&model).await;
    hub.corrupt("model.safetensors");
    let home = tempfile::tempdir().unwrap();
    let store = tempfile::tempdir().unwrap();
    let env = [("HF_ENDPOINT", hub.url()), ("HF_HOME", home.path().to_str().unwrap())];
    let out = haema(store.path(), &env, &["model", "fetch"], None);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("model.safetensors") && err.contains("corrupt"), "{err}");
    let blobs = home
        .path()
        .join("hub/models--sentence-transformers--all-MiniLM-L6-v2/blobs");
    let big: Vec<_> = std::fs::read_dir(&blobs)
        .map(|d| {
            d.flatten()
                .filter(|e| e.metadata().unwrap().len() > 1_000_000)
                .collect()
        })
        .unwrap_or_default();
    assert!(big.is_empty(), "no corrupt weights kept: {big:?}");
    let out = haema(store.path(), &env, &["add", "--items", "The user likes jazz"], None);
    ok(&out);
    assert!(stderr(&out).contains("corrupt"), "{}", stderr(&out));
    let (hits, _) = run(store.path(), &env, &["search", "jazz", "--json"]);
    assert_eq!(hits[0]["content"], "The user likes jazz");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_demo_has_vectors_and_searches_by_meaning() {
    let Some(model) = minilm_dir() else { return };
    let hub = FakeHub::serve_dir(&model).await;
    let home = tempfile::tempdir().unwrap();
    let data = tempfile::tempdir().unwrap();
    let env = [
        ("HF_ENDPOINT", hub.url()),
        ("HF_HOME", home.path().to_str().unwrap()),
        ("XDG_DATA_HOME", data.path().to_str().unwrap()),
    ];
    let demo = data.path().join("haema/demo");
    let out = haema(&demo, &env, &["demo"], None);
    ok(&out);
    let (status, _) = run(&demo, &env, &["status", "--json"]);
    assert_eq!(status["dims"], 384, "{status}");
    let (results, _) = run(&demo, &env, &["search", "what does the user drink", "--json"]);
    assert!(
        results.as_array().unwrap().iter().any(|h| h["found_by"] != "lexical"),
        "{results}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn while_one_process_makes_the_vectors_others_go_on_by_words() {
    let Some(model) = minilm_dir() else { return };
    let hub = FakeHub::serve_dir(&model).await;
    let home = tempfile::tempdir().unwrap();
    let store = tempfile::tempdir().unwrap();
    let home_str = home.path().to_str().unwrap();
    let offline = [("HF_HUB_OFFLINE", "1"), ("HF_HOME", home_str)];
    let lines: String = (0..600)
        .map(|i| {
            format!(
                "{}\n",
                serde_json::json!({"content": format!("Note {i}: the user practised the cello for {i} minutes")})
            )
        })
        .collect();
    let file = store.path().join("notes.jsonl");
    std::fs::write(&file, lines).unwrap();
    ok(&haema(
        store.path(),
        &offline,
        &["import", file.to_str().unwrap()],
        None,
    ));
    ok(&haema(
        store.path(),
        &[("HF_ENDPOINT", hub.url()), ("HF_HOME", home_str)],
        &["model", "fetch"],
        None,
    ));

    // One process catches up 600 memories; meanwhile another searches and adds.
    let bin = env!("CARGO_BIN_EXE_haema");
    let first = std::process::Command::new(bin)
        .env_clear()
        .envs(offline)
        .args([
            "--store",
            store.path().to_str().unwrap(),
            "search",
            "music practice",
            "--json",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(700));
    let (hits, _) = run(store.path(), &offline, &["search", "cello", "-n", "1", "--json"]);
    assert!(hits[0]["content"].as_str().unwrap().contains("cello"));
    ok(&haema(
        store.path(),
        &offline,
        &["add", "--items", "The user's sister lives in Lisbon"],
        None,
    ));
    let first = first.wait_with_output().unwrap();
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));

    let (hits, _) = run(
        store.path(),
        &offline,
        &["search", "relatives in Portugal", "-n", "1", "--json"],
    );
    assert_eq!(
        hits[0]["content"], "The user's sister lives in Lisbon",
        "the add made meanwhile has its vector"
    );
    let (status, _) = run(store.path(), &offline, &["status", "--json"]);
    assert_eq!(
        (status["active"].as_u64(), status["dims"].as_u64()),
        (Some(601), Some(384))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_import_while_the_model_is_missing_catches_up_later() {
    let Some(model) = minilm_dir() else { return };
    let hub = FakeHub::serve_dir(&model).await;
    let home = tempfile::tempdir().unwrap();
    let empty = tempfile::tempdir().unwrap();
    let store = tempfile::tempdir().unwrap();
    let online = [("HF_ENDPOINT", hub.url()), ("HF_HOME", home.path().to_str().unwrap())];
    ok(&haema(
        store.path(),
        &online,
        &["add", "--items", "The user drives a red car"],
        None,
    ));
    // The cache is gone (another machine, a cleaned disk): the import still lands.
    let missing = [("HF_HUB_OFFLINE", "1"), ("HF_HOME", empty.path().to_str().unwrap())];
    let file = store.path().join("more.jsonl");
    std::fs::write(&file, "\"I am allergic to peanuts\"\n").unwrap();
    ok(&haema(
        store.path(),
        &missing,
        &["import", file.to_str().unwrap()],
        None,
    ));
    let (hits, _) = run(
        store.path(),
        &online,
        &["search", "food allergy", "-n", "1", "--mode", "vector", "--json"],
    );
    assert_eq!(hits[0]["content"], "I am allergic to peanuts");
}
