//! The real `haema` binary: the CLI contract scripts rely on.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use haema_tests::FakeOpenAi;
use serde_json::{Value, json};

/// Runs `haema --store DIR ARGS` with only the given environment.
fn haema(store: &Path, env: &[(&str, &str)], args: &[&str], stdin: Option<&str>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_haema"));
    cmd.env_clear()
        .arg("--store")
        .arg(store)
        .args(args)
        .envs(env.iter().copied());
    cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.unwrap_or("").as_bytes()).unwrap();
    drop(input);
    child.wait_with_output().unwrap()
}

fn ok(output: &Output) -> String {
    assert!(
        output.status.success(),
        "exit {:?}\nstdout: {}\nstderr: {}",
        output.status.code(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn json_of(output: &Output) -> Value {
    serde_json::from_str(&ok(output)).unwrap()
}

/// The `content` of every row of a JSON array.
fn contents(rows: &Value) -> Vec<String> {
    rows.as_array()
        .unwrap()
        .iter()
        .map(|r| r["content"].as_str().unwrap().to_owned())
        .collect()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn openai_env(base: &str) -> Vec<(&'static str, String)> {
    vec![
        ("HAEMA_LLM", "openai".into()),
        ("HAEMA_LLM_BASE_URL", base.to_owned()),
        ("HAEMA_LLM_MODEL", "gpt-test".into()),
        ("HAEMA_EMBEDDER", "openai".into()),
        ("HAEMA_EMBED_BASE_URL", base.to_owned()),
        ("HAEMA_EMBED_MODEL", "hash-test".into()),
        ("HAEMA_EMBED_DIMS", "64".into()),
        ("HAEMA_MERGE_DISTANCE_CUTOFF", "0.6".into()),
    ]
}

fn refs<'a>(env: &'a [(&'static str, String)]) -> Vec<(&'static str, &'a str)> {
    env.iter().map(|(k, v)| (*k, v.as_str())).collect()
}

#[test]
fn add_latest_search_json_contract_without_providers() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path();
    let added = json_of(&haema(
        store,
        &[],
        &["add", "--items", "Ana likes green tea", "Ana lives in Busan", "--json"],
        None,
    ));
    assert_eq!(added["status"], "committed");
    assert!(added["changeset"].as_i64().unwrap() > 0);
    let from_stdin = json_of(&haema(
        store,
        &[],
        &["add", "-", "--json"],
        Some("Ana's cat is called Miso\n"),
    ));
    assert_eq!(from_stdin["status"], "committed");
    let empty = json_of(&haema(store, &[], &["add", "   ", "--json"], None));
    assert_eq!(empty, json!({"changeset": null, "status": "noop", "warnings": []}));

    let latest = json_of(&haema(store, &[], &["latest", "--json"], None));
    let rows = latest.as_array().unwrap();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["content"], "Ana's cat is called Miso");
    assert!(rows[0]["id"].is_string() && rows[0]["timestamp_ms"].is_i64());
    let page = json_of(&haema(
        store,
        &[],
        &["latest", "--begin", "2", "--count", "1", "--json"],
        None,
    ));
    assert_eq!(page[0]["content"], rows[1]["content"]);
    assert_eq!(
        json_of(&haema(store, &[], &["latest", "--count", "0", "--json"], None)),
        json!([])
    );

    let hits = json_of(&haema(store, &[], &["search", "cat Miso", "-n", "2", "--json"], None));
    assert_eq!(hits[0]["content"], "Ana's cat is called Miso");
    assert!(hits[0]["id"].is_string() && hits[0]["score"].is_f64());
    assert_eq!(hits[0]["found_by"], "lexical");
    let lexical = haema(store, &[], &["search", "tea", "--mode", "vector", "--json"], None);
    assert!(
        stderr(&lexical).contains("lexical"),
        "a store without an embedder says so"
    );
    assert_eq!(
        json_of(&haema(store, &[], &["search", "tea", "-n", "0", "--json"], None)),
        json!([])
    );
}

#[test]
fn exit_codes_and_one_sentence_errors() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path();
    let begin = haema(store, &[], &["latest", "--begin", "0"], None);
    assert_eq!(begin.status.code(), Some(2));
    assert!(stderr(&begin).contains("begin must be >= 1"));
    let missing = haema(store, &[], &["review", "approve", "42"], None);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        stderr(&missing).contains("no changeset with id 42"),
        "{}",
        stderr(&missing)
    );
    assert_eq!(
        haema(store, &[], &["core", "lock", "NOPE"], None).status.code(),
        Some(2)
    );
    assert_eq!(
        haema(store, &[], &["search", "x", "--mode", "fuzzy"], None)
            .status
            .code(),
        Some(2)
    );
    assert_eq!(haema(store, &[], &["frobnicate"], None).status.code(), Some(2));
    let id = json_of(&haema(store, &[], &["add", "--items", "one", "--json"], None))["changeset"]
        .as_i64()
        .unwrap()
        .to_string();
    let twice = haema(store, &[], &["review", "approve", &id], None);
    assert_eq!(twice.status.code(), Some(1));
    assert!(
        stderr(&twice).contains("committed and cannot be approved"),
        "{}",
        stderr(&twice)
    );
    let bad_env = haema(store, &[("HAEMA_REVIEW", "sometimes")], &["status"], None);
    assert_eq!(bad_env.status.code(), Some(1));
    assert!(
        stderr(&bad_env).contains("HAEMA_REVIEW") && stderr(&bad_env).contains("auto, review or guarded"),
        "{}",
        stderr(&bad_env)
    );
    for out in [&begin, &missing, &twice, &bad_env] {
        assert!(out.stdout.is_empty(), "errors go to stderr only");
    }
}

#[test]
fn keys_in_the_settings_file_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("haema.toml"),
        "[llm]\nprovider = \"openai\"\napi_key = \"sk-secret\"\n",
    )
    .unwrap();
    let out = haema(dir.path(), &[], &["status"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("environment only"), "{}", stderr(&out));
    assert!(!stderr(&out).contains("sk-secret"), "the key is never printed");
}

#[test]
fn core_sections_set_lock_and_history() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path();
    ok(&haema(
        store,
        &[],
        &["core", "set", "user", "--file", "-"],
        Some("- Name: Ana\n- Prefers short answers.\n"),
    ));
    let sections = json_of(&haema(store, &[], &["core", "sections", "--json"], None));
    assert_eq!(
        sections,
        json!({"SOUL": "", "TOOLS": "", "RULE": "", "USER": "- Name: Ana\n- Prefers short answers."})
    );
    assert!(ok(&haema(store, &[], &["core", "show"], None)).contains("# USER\n\n- Name: Ana"));
    ok(&haema(store, &[], &["core", "lock", "USER"], None));
    assert!(ok(&haema(store, &[], &["core", "sections"], None)).contains("# USER  (locked)"));
    ok(&haema(store, &[], &["core", "unlock", "USER"], None));
    let broken = haema(
        store,
        &[],
        &["core", "set", "SOUL", "--file", "-"],
        Some("# RULE\nsneaky"),
    );
    assert_eq!(broken.status.code(), Some(1));
    assert!(stderr(&broken).contains("not allowed"), "{}", stderr(&broken));
    let history = json_of(&haema(store, &[], &["core", "history", "--json"], None));
    assert_eq!(history.as_array().unwrap().len(), 2);
    let first = history[1]["id"].as_i64().unwrap().to_string();
    ok(&haema(store, &[], &["core", "restore", &first], None));
    assert_eq!(
        json_of(&haema(store, &[], &["core", "sections", "--json"], None))["USER"],
        ""
    );
    let no_file = haema(
        store,
        &[],
        &["core", "set", "USER", "--file", "/nonexistent/file.md"],
        None,
    );
    assert_eq!(no_file.status.code(), Some(2));
}

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
    let vector = haema_core::provider::fake::HashEmbedder::new(64).vector("the user likes green tea a lot");
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
    let lexical = haema(&store, &[], &["status"], None);
    assert_eq!(lexical.status.code(), Some(1), "the store now needs its embedder");
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

#[test]
fn config_shows_sources_and_masks_keys() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("haema.toml"), "review = \"review\"\n").unwrap();
    let env = [
        ("HAEMA_LLM", "openai"),
        ("HAEMA_LLM_BASE_URL", "http://127.0.0.1:1/v1"),
        ("HAEMA_LLM_API_KEY", "sk-secret-value-9876"),
    ];
    let report = json_of(&haema(dir.path(), &env, &["config", "--json"], None));
    let find = |key: &str| {
        report["settings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["key"] == key)
            .unwrap()
            .clone()
    };
    assert_eq!(
        (find("review")["value"].as_str(), find("review")["source"].as_str()),
        (Some("review"), Some("file"))
    );
    assert_eq!(find("llm.provider")["source"], "env");
    assert_eq!(find("llm.api_key")["value"], "sk-…9876");
    assert_eq!(find("merge.top_k")["source"], "default");
    assert!(!report.to_string().contains("secret-value"));
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

    let empty_cache = tempfile::tempdir().unwrap();
    let out = haema(
        store.path(),
        &[
            ("HAEMA_EMBEDDER", "local"),
            ("HF_HUB_CACHE", empty_cache.path().to_str().unwrap()),
        ],
        &["status"],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("models--sentence-transformers--all-MiniLM-L6-v2") && err.contains("download"),
        "{err}"
    );
}
