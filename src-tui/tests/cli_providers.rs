//! The real `haema` binary with providers on 127.0.0.1: review over HTTP, several
//! processes, a killed process, re-embedding, doctor and the local embedder.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::process::{Command, Stdio};

use common::*;
use haema_tests::FakeOpenAi;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn review_approve_reject_revert_over_http() {
    let fake = FakeOpenAi::start(64).await;
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().to_path_buf();
    let mut env = openai_env(&fake.base_url());
    env.push(("HAEMA_REVIEW", "review".into()));
    let env = refs(&env);

    fake.answer(
        "pre_split",
        json!({"contents": ["Ana likes green tea.", "Ana lives in Busan."]}),
    );
    let first = json_of(&haema(
        &store,
        &env,
        &["add", "I like green tea and I live in Busan", "--json"],
        None,
    ));
    assert_eq!(first["status"], "pending");
    assert_eq!(
        json_of(&haema(&store, &env, &["latest", "--json"], None)),
        json!([]),
        "pending memories are invisible"
    );
    let pending = json_of(&haema(&store, &env, &["review", "list", "--json"], None));
    assert_eq!(pending[0]["id"], first["changeset"]);
    assert_eq!(pending[0]["status"], "pending");
    assert_eq!(pending[0]["proposed"][1]["content"], "Ana lives in Busan.");
    let id = first["changeset"].as_i64().unwrap().to_string();
    assert!(ok(&haema(&store, &env, &["review", "show", &id], None)).contains("+ Ana likes green tea."));
    ok(&haema(&store, &env, &["review", "approve", &id], None));
    let hits = json_of(&haema(&store, &env, &["search", "green tea", "--json"], None));
    assert_eq!(hits[0]["content"], "Ana likes green tea.");
    assert_eq!(hits[0]["found_by"], "both");

    fake.answer(
        "reconstruct",
        json!({"memories": ["Ana likes black tea now."], "coverage": "complete"}),
    );
    let merge = json_of(&haema(
        &store,
        &env,
        &["add", "--items", "Ana likes black tea now, not green tea", "--json"],
        None,
    ));
    let merge_id = merge["changeset"].as_i64().unwrap().to_string();
    let shown = ok(&haema(&store, &env, &["review", "show", &merge_id], None));
    assert!(
        shown.contains("− Ana likes green tea.") && shown.contains("+ Ana likes black tea now."),
        "{shown}"
    );
    ok(&haema(&store, &env, &["review", "approve", &merge_id], None));
    let latest = contents(&json_of(&haema(&store, &env, &["latest", "--json"], None)));
    assert!(
        latest.contains(&"Ana likes black tea now.".to_owned()) && !latest.contains(&"Ana likes green tea.".to_owned()),
        "{latest:?}"
    );

    ok(&haema(&store, &env, &["revert", &merge_id], None));
    let latest = contents(&json_of(&haema(&store, &env, &["latest", "--json"], None)));
    assert!(
        latest.contains(&"Ana likes green tea.".to_owned()) && !latest.contains(&"Ana likes black tea now.".to_owned()),
        "{latest:?}"
    );

    let rejected = json_of(&haema(
        &store,
        &env,
        &["add", "--items", "Ana might move to Seoul", "--json"],
        None,
    ));
    let rejected_id = rejected["changeset"].as_i64().unwrap().to_string();
    ok(&haema(&store, &env, &["review", "reject", &rejected_id], None));
    let history = json_of(&haema(&store, &env, &["history", "--json"], None));
    let statuses: Vec<&str> = history
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, vec!["rejected", "committed", "reverted", "committed"]);
    assert_eq!(history[1]["kind"], "revert");
    assert_eq!(
        json_of(&haema(&store, &env, &["review", "list", "--json"], None)),
        json!([])
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reopening_with_another_embedding_dimension_names_reembed() {
    let fake = FakeOpenAi::start(64).await;
    let dir = tempfile::tempdir().unwrap();
    let env = openai_env(&fake.base_url());
    ok(&haema(dir.path(), &refs(&env), &["add", "--items", "a fact"], None));
    let mut other = env.clone();
    other.retain(|(k, _)| *k != "HAEMA_EMBED_DIMS");
    other.push(("HAEMA_EMBED_DIMS", "32".into()));
    let out = haema(dir.path(), &refs(&other), &["search", "fact"], None);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("64 dims") && err.contains("32 dims") && err.contains("haema reembed"),
        "{err}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_adding_at_once_lose_nothing() {
    let fake = FakeOpenAi::start(64).await;
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().to_path_buf();
    let env = openai_env(&fake.base_url());
    ok(&haema(&store, &refs(&env), &["status"], None));
    let writers: Vec<_> = ["left", "right"]
        .into_iter()
        .map(|tag| {
            let (store, env) = (store.clone(), env.clone());
            std::thread::spawn(move || {
                for i in 0..8 {
                    let fact = format!("process {tag} learned fact {i}");
                    let out = json_of(&haema(&store, &refs(&env), &["add", "--items", &fact, "--json"], None));
                    assert_eq!(out["status"], "committed", "{out}");
                }
            })
        })
        .collect();
    for w in writers {
        w.join().unwrap();
    }
    let latest = json_of(&haema(
        &store,
        &refs(&env),
        &["latest", "--count", "100", "--json"],
        None,
    ));
    let contents: Vec<&str> = latest
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["content"].as_str().unwrap())
        .collect();
    assert_eq!(contents.len(), 16, "{contents:?}");
    for tag in ["left", "right"] {
        for i in 0..8 {
            assert!(contents.contains(&format!("process {tag} learned fact {i}").as_str()));
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_process_killed_mid_add_leaves_the_store_as_it_was() {
    let fake = FakeOpenAi::start(64).await;
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().to_path_buf();
    let mut env = openai_env(&fake.base_url());
    env.push(("HAEMA_REVIEW", "auto".into()));
    ok(&haema(
        &store,
        &refs(&env),
        &["add", "--items", "the user likes green tea"],
        None,
    ));
    let before = json_of(&haema(&store, &refs(&env), &["latest", "--json"], None));

    // The query embedding is answered, the reconstruction hangs; the process is killed then.
    let vector = haema_core::fake::HashEmbedder::new(64).vector("the user likes green tea a lot");
    fake.server()
        .push(haema_tests::Reply::json(&haema_tests::embeddings(&[vector])));
    fake.server().push(
        haema_tests::Reply::json(&haema_tests::chat_completion("{}")).delayed(std::time::Duration::from_secs(30)),
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_haema"))
        .env_clear()
        .envs(refs(&env))
        .arg("--store")
        .arg(&store)
        .args(["add", "--items", "the user likes green tea a lot"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while fake
        .server()
        .received()
        .iter()
        .filter(|r| r.path.ends_with("/chat/completions"))
        .count()
        < 3
    {
        assert!(std::time::Instant::now() < deadline, "the add never reached the LLM");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();

    assert_eq!(
        json_of(&haema(&store, &refs(&env), &["latest", "--json"], None)),
        before
    );
    let history = json_of(&haema(&store, &refs(&env), &["history", "--json"], None));
    assert_eq!(history.as_array().unwrap().len(), 1, "no half-made changeset");
    let again = json_of(&haema(
        &store,
        &refs(&env),
        &["add", "--items", "the user likes green tea a lot", "--json"],
        None,
    ));
    assert_eq!(again["status"], "committed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reembed_gives_a_lexical_store_vectors() {
    let fake = FakeOpenAi::start(64).await;
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().to_path_buf();
    ok(&haema(
        &store,
        &[],
        &[
            "add",
            "--items",
            "Ana's cat is called Miso",
            "The server runs Debian",
            "--json",
        ],
        None,
    ));
    let base = fake.base_url();
    let args = [
        "reembed",
        "--embedder",
        "openai",
        "--base-url",
        &base,
        "--model",
        "hash-test",
        "--dims",
        "64",
        "--json",
    ];
    let report = json_of(&haema(&store, &[], &args, None));
    assert_eq!(report["from"], "none");
    assert_eq!(report["to"], "openai:hash-test");
    assert_eq!(
        (report["dims"].as_u64(), report["embedded"].as_u64()),
        (Some(64), Some(2))
    );
    let env = openai_env(&base);
    let hits = json_of(&haema(
        &store,
        &refs(&env),
        &["search", "Ana's cat is called Miso", "--mode", "vector", "--json"],
        None,
    ));
    assert_eq!(hits[0]["content"], "Ana's cat is called Miso");
    assert_eq!(hits[0]["found_by"], "vector");
    assert_eq!(report["settings_written"], true);
    let toml = std::fs::read_to_string(store.join("haema.toml")).unwrap();
    assert!(
        toml.contains("[embedder]") && toml.contains("provider = \"openai\"") && toml.contains("dims = 64"),
        "{toml}"
    );
    // Later commands find the embedder in haema.toml without any environment.
    let hits = json_of(&haema(
        &store,
        &[],
        &["search", "The server runs Debian", "--mode", "vector", "--json"],
        None,
    ));
    assert_eq!(hits[0]["content"], "The server runs Debian");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn doctor_makes_one_real_call_per_provider() {
    let fake = FakeOpenAi::start(64).await;
    let dir = tempfile::tempdir().unwrap();
    let env = openai_env(&fake.base_url());
    let checks = json_of(&haema(dir.path(), &refs(&env), &["doctor", "--json"], None));
    let names: Vec<&str> = checks
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, vec!["store", "core.md", "embedder", "llm"]);
    assert!(checks.as_array().unwrap().iter().all(|c| c["ok"] == true), "{checks}");
    let paths: Vec<String> = fake.server().received().iter().map(|r| r.path.clone()).collect();
    assert_eq!(paths, vec!["/v1/embeddings", "/v1/chat/completions"]);

    let refused = haema_tests::ScriptedServer::start().await;
    refused.push(haema_tests::Reply::status(
        401,
        r#"{"error":{"message":"Incorrect API key provided"}}"#,
    ));
    let mut bad = openai_env(&fake.base_url());
    bad.retain(|(k, _)| *k != "HAEMA_LLM_BASE_URL");
    bad.push(("HAEMA_LLM_BASE_URL", format!("{}/v1", refused.url())));
    let out = haema(dir.path(), &refs(&bad), &["doctor"], None);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("FAIL llm") && text.contains("Incorrect API key") && text.contains("ok   embedder"),
        "{text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn doctor_words_the_way_out_of_a_missing_model_and_of_a_mismatch_itself() {
    let home = tempfile::tempdir().unwrap();
    let fresh = tempfile::tempdir().unwrap();
    let env = [("HF_HOME", home.path().to_str().unwrap())];
    let out = haema(fresh.path(), &env, &["doctor"], None);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.starts_with("FAIL embedder"))
        .unwrap_or_default();
    assert!(
        line.contains("`sentence-transformers/all-MiniLM-L6-v2` is not downloaded")
            && line
                .contains("; download it while online with `haema model fetch sentence-transformers/all-MiniLM-L6-v2`")
            && !line.contains("misconfigured"),
        "{text}"
    );
    let out = haema(fresh.path(), &env, &["doctor", "--json"], None);
    let checks: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let embedder = &checks[2];
    assert_eq!(
        embedder["problem"],
        json!({"kind": "model_not_downloaded", "model": "sentence-transformers/all-MiniLM-L6-v2"})
    );
    assert!(!embedder["detail"].as_str().unwrap().contains("haema "), "{embedder}");
    assert!(checks[0].get("problem").is_none(), "a check that passed has none");

    let fake = FakeOpenAi::start(64).await;
    let dir = tempfile::tempdir().unwrap();
    let openai = openai_env(&fake.base_url());
    ok(&haema(
        dir.path(),
        &refs(&openai),
        &["add", "--items", "Ana likes tea"],
        None,
    ));
    let out = haema(dir.path(), &[("HAEMA_EMBEDDER", "none")], &["doctor"], None);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("FAIL embedder  none is configured but the store's vectors are by openai:hash-test; configure the original embedder again, or run `haema reembed`"),
        "{text}"
    );
    let out = haema(dir.path(), &[("HAEMA_EMBEDDER", "none")], &["doctor", "--json"], None);
    let checks: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(checks[2]["problem"], json!({"kind": "embedder_mismatch"}));
}

/// `HAEMA_EMBEDDER=local` with no model loads all-MiniLM-L6-v2 from the Hugging Face cache.
#[test]
fn the_local_embedder_loads_from_the_hugging_face_cache() {
    let Some(model) = haema_tests::minilm_dir() else { return };
    let cache = tempfile::tempdir().unwrap();
    let snapshot = cache
        .path()
        .join("models--sentence-transformers--all-MiniLM-L6-v2/snapshots/0123abcd");
    std::fs::create_dir_all(&snapshot).unwrap();
    std::fs::create_dir_all(
        cache
            .path()
            .join("models--sentence-transformers--all-MiniLM-L6-v2/refs"),
    )
    .unwrap();
    std::fs::write(
        cache
            .path()
            .join("models--sentence-transformers--all-MiniLM-L6-v2/refs/main"),
        "0123abcd",
    )
    .unwrap();
    for file in [
        "config.json",
        "tokenizer.json",
        "model.safetensors",
        "modules.json",
        "sentence_bert_config.json",
    ] {
        std::os::unix::fs::symlink(model.join(file), snapshot.join(file)).unwrap();
    }
    std::os::unix::fs::symlink(model.join("1_Pooling"), snapshot.join("1_Pooling")).unwrap();
    let store = tempfile::tempdir().unwrap();
    let cache_dir = cache.path().to_str().unwrap();
    let env = [("HAEMA_EMBEDDER", "local"), ("HF_HUB_CACHE", cache_dir)];
    ok(&haema(
        store.path(),
        &env,
        &[
            "add",
            "--items",
            "The user drinks green tea every morning",
            "The server runs Debian 12",
        ],
        None,
    ));
    let hits = json_of(&haema(
        store.path(),
        &env,
        &[
            "search",
            "what does the user drink?",
            "-n",
            "1",
            "--mode",
            "vector",
            "--json",
        ],
        None,
    ));
    assert_eq!(hits[0]["content"], "The user drinks green tea every morning");
    let status = json_of(&haema(store.path(), &env, &["status", "--json"], None));
    assert_eq!(status["dims"], 384);

    // Without the model (a cache emptied, offline) the store keeps its vectors and answers
    // by words, saying why in one line; what is added meanwhile catches up later.
    let empty_cache = tempfile::tempdir().unwrap();
    let offline = [
        ("HAEMA_EMBEDDER", "local"),
        ("HF_HUB_CACHE", empty_cache.path().to_str().unwrap()),
    ];
    let out = haema(store.path(), &offline, &["search", "green tea", "--json"], None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("sentence-transformers/all-MiniLM-L6-v2") && err.contains("haema model fetch"),
        "{err}"
    );
    let hits: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(hits[0]["found_by"], "lexical");
    ok(&haema(
        store.path(),
        &offline,
        &["add", "--items", "The user owns a grey cat"],
        None,
    ));
    let hits = json_of(&haema(
        store.path(),
        &env,
        &[
            "search",
            "which pet does the user have?",
            "-n",
            "1",
            "--mode",
            "vector",
            "--json",
        ],
        None,
    ));
    assert_eq!(
        hits[0]["content"], "The user owns a grey cat",
        "caught up on the next open with the model"
    );
}
