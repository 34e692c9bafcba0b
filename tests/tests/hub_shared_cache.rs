//! Several fetches into one cache at once (tasks with their own `Hub`, and processes), and
//! the real all-MiniLM-L6-v2 downloaded from a [`FakeHub`] then loaded by name by the local
//! embedder in a process whose `HF_HUB_CACHE` points at that cache (environment variables
//! are per process, so these run in child processes of this test binary).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use haema_core::provider::hub::{Hub, SENTENCE_TRANSFORMER_FILES};
use haema_tests::{FAKE_COMMIT, FAKE_REPO, FakeHub, fetch_fake_repo, minilm_dir, small_model_files};

const MODEL: &str = "model.safetensors";

fn snapshot(cache: &Path) -> PathBuf {
    cache
        .join("models--sentence-transformers--all-MiniLM-L6-v2/snapshots")
        .join(FAKE_COMMIT)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_fetches_at_once_download_each_blob_once() {
    let server = FakeHub::start(small_model_files()).await;
    // Both get past their HEADs while the first body is still on its way.
    server.delay_body(MODEL, Duration::from_millis(500));
    let cache = tempfile::tempdir().unwrap();
    let (a, b) = (server.client(cache.path()), server.client(cache.path()));
    let (a, b) = tokio::join!(
        tokio::spawn(async move { fetch_fake_repo(&a).await }),
        tokio::spawn(async move { fetch_fake_repo(&b).await })
    );
    let (a, b) = (a.unwrap().unwrap(), b.unwrap().unwrap());
    assert_eq!(a, b);
    assert_eq!(std::fs::read(a.join(MODEL)).unwrap(), *server.content(MODEL));
    assert_eq!(server.content_fetches(MODEL), 1, "{:#?}", server.requests());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_at_once_download_each_blob_once() {
    let server = FakeHub::start(small_model_files()).await;
    server.delay_body(MODEL, Duration::from_millis(500));
    let cache = tempfile::tempdir().unwrap();
    let env = [
        ("HUB_TEST_URL", server.url()),
        ("HUB_TEST_CACHE", cache.path().to_str().unwrap()),
    ];
    let (a, b) = tokio::join!(child("fetch", &env), child("fetch", &env));
    expect_child_ok(a);
    expect_child_ok(b);
    let dir = snapshot(cache.path());
    assert_eq!(std::fs::read(dir.join(MODEL)).unwrap(), *server.content(MODEL));
    for file in [
        "config.json",
        "tokenizer.json",
        MODEL,
        "modules.json",
        "1_Pooling/config.json",
    ] {
        assert_eq!(server.content_fetches(file), 1, "{file}: {:#?}", server.requests());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_real_model_downloads_and_the_local_embedder_finds_it_by_name() {
    let Some(model_dir) = minilm_dir() else { return };
    let server = FakeHub::serve_dir(&model_dir).await;
    let cache = tempfile::tempdir().unwrap();
    let dir = fetch_fake_repo(&server.client(cache.path())).await.unwrap();
    for file in SENTENCE_TRANSFORMER_FILES {
        let source = model_dir.join(file.name);
        if source.is_file() {
            assert_eq!(
                std::fs::read(dir.join(file.name)).unwrap(),
                std::fs::read(&source).unwrap(),
                "{}",
                file.name
            );
        }
    }
    let env = [
        ("HF_HUB_CACHE", cache.path().to_str().unwrap()),
        ("HF_HUB_OFFLINE", "1"),
    ];
    expect_child_ok(child("load-and-embed", &env).await);
}

/// Runs [`child_process`] in a new process of this test binary as `role`.
async fn child(role: &str, env: &[(&str, &str)]) -> std::process::Output {
    let mut command = Command::new(std::env::current_exe().unwrap());
    command
        .args([
            "--exact",
            "hub_shared_cache::child_process",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("HUB_TEST_ROLE", role)
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for name in [
        "HF_ENDPOINT",
        "HF_HOME",
        "HF_HUB_CACHE",
        "HF_HUB_OFFLINE",
        "HUGGINGFACE_HUB_CACHE",
    ] {
        if !env.iter().any(|(k, _)| *k == name) {
            command.env_remove(name);
        }
    }
    let running = command.spawn().unwrap();
    tokio::task::spawn_blocking(move || running.wait_with_output().unwrap())
        .await
        .unwrap()
}

fn expect_child_ok(output: std::process::Output) {
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success() && stdout.contains("CHILD-OK"),
        "child failed:\n{stdout}\n{stderr}"
    );
}

/// Not a test of its own: the body of [`child`] processes, chosen by `HUB_TEST_ROLE`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn child_process() {
    let Ok(role) = std::env::var("HUB_TEST_ROLE") else {
        return;
    };
    match role.as_str() {
        "fetch" => {
            let url = std::env::var("HUB_TEST_URL").unwrap();
            let cache = PathBuf::from(std::env::var("HUB_TEST_CACHE").unwrap());
            fetch_fake_repo(&Hub::new(url, cache, false)).await.unwrap();
        }
        "load-and-embed" => {
            use haema_core::provider::Embedder;
            let embedder = haema_core::provider::local::LocalEmbedder::load(FAKE_REPO, 8).unwrap();
            let vectors = embedder
                .embed_document(&["The user drinks green tea.".to_owned()])
                .await
                .unwrap();
            assert_eq!(vectors[0].len(), 384);
        }
        other => panic!("unknown role {other}"),
    }
    println!("CHILD-OK");
}
