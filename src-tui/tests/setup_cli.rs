//! `haema setup` through the real binary, answered on standard input: an AI on this
//! computer (an Ollama-shaped server on 127.0.0.1) chosen from its installed models, tested
//! and saved; another service whose first key is refused and whose second works; and the
//! key kept nowhere when there is no keyring. `haema config set` / `unset` alongside.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use common::*;
use haema_tests::{Reply, ScriptedServer, chat_completion};
use serde_json::json;

fn closed_port() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port())
}

fn file_of(store: &std::path::Path) -> String {
    std::fs::read_to_string(store.join("haema.toml")).unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ai_on_this_computer_is_picked_from_its_models_tested_and_saved() {
    let ollama = ScriptedServer::start().await;
    ollama.push(Reply::json(&json!({"models": [
        {"name": "llama3.1:8b", "size": 4920753328u64, "details": {"family": "llama"}},
        {"name": "nomic-embed-text:latest", "size": 274302450, "details": {"family": "nomic-bert"}},
    ]})));
    ollama.push(Reply::json(&chat_completion("{\"ok\": true}")));
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("mine");
    // This computer, its first text model, then "ask me about everything", search unchanged.
    let out = haema(
        &store,
        &[("HAEMA_OLLAMA_URL", ollama.url())],
        &["setup"],
        Some("2\n1\n2\nn\n"),
    );
    let said = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains(&format!("Ollama at {}: llama3.1:8b", ollama.url())),
        "{said}"
    );
    assert!(said.contains("ok: The AI answered: llama3.1:8b works."), "{said}");
    let file = file_of(&store);
    assert!(file.contains("provider = \"openai\""), "{file}");
    assert!(file.contains(&format!("base_url = \"{}/v1\"", ollama.url())), "{file}");
    assert!(file.contains("model = \"llama3.1:8b\""), "{file}");
    assert!(file.contains("review = \"review\""), "{file}");
    let paths: Vec<String> = ollama.received().iter().map(|r| r.path.clone()).collect();
    assert_eq!(paths, ["/api/tags", "/v1/chat/completions"]);

    // What setup wrote is what `haema config` shows, from the file.
    let config = json_of(&haema(&store, &[], &["config", "--json"], None));
    let line = |key: &str| setting_line(&config, key);
    assert_eq!(
        (
            line("llm.model")["value"].as_str(),
            line("llm.model")["source"].as_str()
        ),
        (Some("llama3.1:8b"), Some("file"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_key_is_told_then_a_right_one_works_and_no_keyring_keeps_it_nowhere() {
    let service = ScriptedServer::start().await;
    service.push(Reply::status(
        401,
        r#"{"error":{"message":"Incorrect API key provided: sk-wrong-0000"}}"#,
    ));
    service.push(Reply::json(&chat_completion("{\"ok\": true}")));
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("mine");
    let base = format!("{}/v1", service.url());
    let answers = format!("5\n{base}\nmixtral\nsk-wrong-0000\ny\n5\n{base}\nmixtral\nsk-right-1111\n1\nn\n");
    let closed = closed_port();
    let out = haema(
        &store,
        &[("HAEMA_OLLAMA_URL", closed.as_str())],
        &["setup"],
        Some(&answers),
    );
    let said = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "{said}");
    assert!(said.contains(&format!("nothing answers at {closed}")), "{said}");
    assert!(said.contains("not yet: The service refused the key."), "{said}");
    assert!(said.contains("ok: The AI answered: mixtral works."), "{said}");
    // Without a Secret Service (this process has no D-Bus session) the key is not kept.
    assert!(said.contains("The key could not be kept"), "{said}");
    let sent = service.received();
    assert_eq!(sent[0].header("authorization"), Some("Bearer sk-wrong-0000"));
    assert_eq!(sent[1].header("authorization"), Some("Bearer sk-right-1111"));
    let file = file_of(&store);
    assert!(
        file.contains(&format!("base_url = \"{base}\"")) && file.contains("model = \"mixtral\""),
        "{file}"
    );
    assert!(!file.contains("sk-"), "{file}");
    assert!(!said.contains("sk-right-1111") && !String::from_utf8_lossy(&out.stdout).contains("sk-right-1111"));
}

#[test]
fn setup_that_runs_out_of_answers_changes_nothing_more() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("mine");
    let closed = closed_port();
    let out = haema(&store, &[("HAEMA_OLLAMA_URL", closed.as_str())], &["setup"], Some(""));
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("standard input ended"));
    assert!(!store.join("haema.toml").exists());
}

#[test]
fn config_set_and_unset_write_the_store_file_and_refuse_keys() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("mine");
    std::fs::create_dir_all(&store).unwrap();
    std::fs::write(store.join("haema.toml"), "# my notes\nreview = \"auto\"\n").unwrap();
    ok(&haema(&store, &[], &["config", "set", "review", "guarded"], None));
    ok(&haema(
        &store,
        &[],
        &["config", "set", "merge.distance_cutoff", "0.3"],
        None,
    ));
    assert_eq!(
        file_of(&store),
        "# my notes\nreview = \"guarded\"\n\n[merge]\ndistance_cutoff = 0.3\n"
    );
    let out = haema(&store, &[], &["config", "set", "review", "sometimes"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("auto, review, guarded"));
    let out = haema(
        &store,
        &[],
        &["config", "set", "llm.api_key", "sk-never-in-a-file"],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("haema setup"));
    ok(&haema(&store, &[], &["config", "unset", "merge.distance_cutoff"], None));
    assert_eq!(file_of(&store), "# my notes\nreview = \"guarded\"\n");
    let out = ok(&haema(&store, &[], &["config", "unset", "llm.api_key"], None));
    assert!(out.contains("no service is configured"), "{out}");
}

/// Choosing the search a store already has makes no vectors again (the rule is the core's
/// `needs_new_vectors`, the one the desktop follows).
#[test]
fn choosing_the_same_search_again_makes_no_new_vectors() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("mine");
    std::fs::create_dir_all(&store).unwrap();
    std::fs::write(store.join("haema.toml"), "[embedder]\nprovider = \"none\"\n").unwrap();
    let added = haema(&store, &[], &["add", "--items", "The user plays the cello"], None);
    assert!(added.status.success(), "{}", String::from_utf8_lossy(&added.stderr));
    let closed = closed_port();
    // No AI, the first review policy, then search: change it, to "by words only" again.
    let out = haema(
        &store,
        &[("HAEMA_OLLAMA_URL", closed.as_str())],
        &["setup"],
        Some("1\n1\ny\n2\n"),
    );
    let said = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "{said}");
    assert!(said.contains("Search finds memories by their words only."), "{said}");
    assert!(!said.contains("Making the search vectors"), "{said}");
}
