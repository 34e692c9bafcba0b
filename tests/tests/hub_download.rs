//! Downloads from a Hugging Face Hub on 127.0.0.1 ([`FakeHub`]) into a real cache folder:
//! the layout huggingface_hub makes, resumes, hash checks, offline mode, concurrent
//! fetches (tasks and processes) and absent optional files. Most tests use small generated
//! files so that they never skip; one serves the real all-MiniLM-L6-v2 and embeds with it.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::Duration;

use haema_core::provider::hub::{FetchProgress, Hub, HubError, SENTENCE_TRANSFORMER_FILES};
use haema_tests::{FAKE_COMMIT, FAKE_REPO, FakeHub, HubRequest, minilm_dir};

const MODEL: &str = "model.safetensors";
const REPO_DIR: &str = "models--sentence-transformers--all-MiniLM-L6-v2";

/// A small model repository: the required files, two of the optional ones (the other two
/// are absent), and a 3 MB weights file of pseudo-random bytes.
fn small_repo() -> Vec<(String, Vec<u8>)> {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let weights: Vec<u8> = (0..3_000_000)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state.to_le_bytes()[0]
        })
        .collect();
    let tokenizer: String = (0..20_000).map(|i| format!("tok{i} ")).collect();
    [
        ("config.json", br#"{"hidden_size": 8}"#.to_vec()),
        ("tokenizer.json", tokenizer.into_bytes()),
        (MODEL, weights),
        ("modules.json", b"[]".to_vec()),
        (
            "1_Pooling/config.json",
            br#"{"pooling_mode_mean_tokens": true}"#.to_vec(),
        ),
        ("README.md", b"not asked for".to_vec()),
    ]
    .into_iter()
    .map(|(name, bytes)| (name.to_owned(), bytes))
    .collect()
}

const PRESENT: [&str; 5] = [
    "config.json",
    "tokenizer.json",
    MODEL,
    "modules.json",
    "1_Pooling/config.json",
];
const ABSENT: [&str; 2] = ["sentence_bert_config.json", "config_sentence_transformers.json"];

fn hub(server: &FakeHub, cache: &Path) -> Hub {
    Hub::new(server.url(), cache.to_path_buf(), false)
}

async fn fetch(hub: &Hub) -> Result<PathBuf, HubError> {
    hub.fetch(FAKE_REPO, "main", SENTENCE_TRANSFORMER_FILES, &|_| {}).await
}

fn repo_dir(cache: &Path) -> PathBuf {
    cache.join(REPO_DIR)
}

fn blob_names(cache: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(repo_dir(cache).join("blobs")) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn content_fetches(requests: &[HubRequest], file: &str) -> usize {
    requests.iter().filter(|r| r.fetched_content_of(file)).count()
}

#[tokio::test]
async fn a_first_download_lays_out_the_cache_like_huggingface_hub() {
    let server = FakeHub::start(small_repo()).await;
    let cache = tempfile::tempdir().unwrap();
    let seen = Mutex::new(Vec::<FetchProgress>::new());
    let record = |p: &FetchProgress| seen.lock().unwrap().push(p.clone());
    let dir = hub(&server, cache.path())
        .fetch(FAKE_REPO, "main", SENTENCE_TRANSFORMER_FILES, &record)
        .await
        .unwrap();

    let repo = repo_dir(cache.path());
    assert_eq!(dir, repo.join("snapshots").join(FAKE_COMMIT));
    assert_eq!(std::fs::read_to_string(repo.join("refs/main")).unwrap(), FAKE_COMMIT);
    // LFS files are named by sha256, others by git blob id; links are relative.
    assert_eq!(server.etag(MODEL), server.sha256(MODEL));
    assert_eq!(server.etag("config.json"), server.git_sha1("config.json"));
    for file in PRESENT {
        let link = dir.join(file);
        let ups = "../".repeat(file.split('/').count() + 1);
        assert_eq!(
            std::fs::read_link(&link).unwrap(),
            PathBuf::from(format!("{ups}blobs/{}", server.etag(file))),
            "{file}"
        );
        assert_eq!(std::fs::read(&link).unwrap(), *server.content(file), "{file}");
    }
    let mut expected_blobs: Vec<String> = PRESENT.iter().map(|f| server.etag(f)).collect();
    expected_blobs.sort();
    assert_eq!(blob_names(cache.path()), expected_blobs, "no .incomplete left");
    for file in ABSENT {
        assert!(repo.join(".no_exist").join(FAKE_COMMIT).join(file).is_file(), "{file}");
        assert!(!dir.join(file).exists());
    }
    assert!(
        cache
            .path()
            .join(".locks")
            .join(REPO_DIR)
            .join(format!("{}.lock", server.sha256(MODEL)))
            .is_file()
    );
    #[cfg(unix)]
    {
        // Blobs get the mode any new file gets here (the umask applies), as in huggingface_hub.
        use std::os::unix::fs::PermissionsExt;
        let probe = cache.path().join("probe");
        std::fs::write(&probe, b"").unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&repo.join("blobs").join(server.sha256(MODEL))), mode(&probe));
    }

    let seen = seen.into_inner().unwrap();
    let last = seen.last().unwrap();
    assert_eq!((last.files_done, last.files_total), (7, 7));
    let model_reports: Vec<&FetchProgress> = seen.iter().filter(|p| p.file == MODEL).collect();
    assert!(
        model_reports.len() >= 3,
        "start, some bytes, end: {}",
        model_reports.len()
    );
    assert!(model_reports.iter().all(|p| p.bytes_total == Some(3_000_000)));
    assert_eq!(model_reports.last().unwrap().bytes_done, 3_000_000);
    assert!(seen.windows(2).all(|w| w[0].files_done <= w[1].files_done));

    // The same cache, seen without network.
    let offline = Hub::new("http://127.0.0.1:9", cache.path().to_path_buf(), true);
    assert_eq!(
        offline.cached(FAKE_REPO, "main", SENTENCE_TRANSFORMER_FILES),
        Some(dir.clone())
    );
    let listed = offline.list(SENTENCE_TRANSFORMER_FILES).unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].name, FAKE_REPO);
    assert!(listed[0].complete);
    assert_eq!(listed[0].snapshots, vec![dir]);
    let total: usize = PRESENT.iter().map(|f| server.content(f).len()).sum();
    assert_eq!(listed[0].bytes, total as u64);
}

#[tokio::test]
async fn a_second_fetch_sends_only_heads_and_skips_files_known_absent() {
    let server = FakeHub::start(small_repo()).await;
    let cache = tempfile::tempdir().unwrap();
    let hub = hub(&server, cache.path());
    let first = fetch(&hub).await.unwrap();
    let before = server.requests().len();
    let second = fetch(&hub).await.unwrap();
    assert_eq!(first, second);
    let again: Vec<HubRequest> = server.requests().split_off(before);
    assert!(again.iter().all(|r| r.method == "HEAD"), "{again:#?}");
    assert_eq!(
        again.len(),
        PRESENT.len(),
        "one HEAD per present file, none for absent ones: {again:#?}"
    );
    // Files after the first are asked at the commit the first resolved to.
    assert!(again[0].path.contains("/resolve/main/"));
    assert!(
        again[1..]
            .iter()
            .all(|r| r.path.contains(&format!("/resolve/{FAKE_COMMIT}/")))
    );

    // A commit id whose snapshot is settled needs no request at all.
    let before = server.requests().len();
    let pinned = hub
        .fetch(FAKE_REPO, FAKE_COMMIT, SENTENCE_TRANSFORMER_FILES, &|_| {})
        .await
        .unwrap();
    assert_eq!(pinned, first);
    assert_eq!(server.requests().len(), before);
}

#[tokio::test]
async fn a_cut_connection_is_resumed_with_a_range_request() {
    let server = FakeHub::start(small_repo()).await;
    server.cut_after(MODEL, 1_000_000);
    let cache = tempfile::tempdir().unwrap();
    let dir = fetch(&hub(&server, cache.path())).await.unwrap();
    assert_eq!(std::fs::read(dir.join(MODEL)).unwrap(), *server.content(MODEL));
    let gets: Vec<HubRequest> = server
        .requests()
        .into_iter()
        .filter(|r| r.fetched_content_of(MODEL))
        .collect();
    assert_eq!(gets.len(), 2, "{gets:#?}");
    assert_eq!(gets[0].range, None);
    let resumed_at: u64 = gets[1]
        .range
        .as_deref()
        .and_then(|r| r.strip_prefix("bytes="))
        .and_then(|r| r.strip_suffix('-'))
        .and_then(|r| r.parse().ok())
        .unwrap_or_else(|| panic!("the retry carries a range: {gets:#?}"));
    assert!(resumed_at > 0 && resumed_at <= 1_000_000, "{resumed_at}");
    assert_eq!(gets[1].status, 206);
}

#[tokio::test]
async fn a_later_fetch_resumes_an_incomplete_download_and_restarts_if_the_range_is_ignored() {
    let server = FakeHub::start(small_repo()).await;
    let cache = tempfile::tempdir().unwrap();
    let blobs = repo_dir(cache.path()).join("blobs");
    std::fs::create_dir_all(&blobs).unwrap();
    let incomplete = blobs.join(format!("{}.incomplete", server.sha256(MODEL)));
    std::fs::write(&incomplete, &server.content(MODEL)[..123_456]).unwrap();
    let dir = fetch(&hub(&server, cache.path())).await.unwrap();
    assert_eq!(std::fs::read(dir.join(MODEL)).unwrap(), *server.content(MODEL));
    let get = server
        .requests()
        .into_iter()
        .find(|r| r.fetched_content_of(MODEL))
        .unwrap();
    assert_eq!((get.range.as_deref(), get.status), (Some("bytes=123456-"), 206));
    assert!(!incomplete.exists());

    // A server that ignores the range sends the whole file: it must not be appended.
    let server = FakeHub::start(small_repo()).await;
    server.ignore_range();
    let cache = tempfile::tempdir().unwrap();
    let blobs = repo_dir(cache.path()).join("blobs");
    std::fs::create_dir_all(&blobs).unwrap();
    std::fs::write(
        blobs.join(format!("{}.incomplete", server.sha256(MODEL))),
        vec![0u8; 5000],
    )
    .unwrap();
    let dir = fetch(&hub(&server, cache.path())).await.unwrap();
    assert_eq!(std::fs::read(dir.join(MODEL)).unwrap(), *server.content(MODEL));
    let get = server
        .requests()
        .into_iter()
        .find(|r| r.fetched_content_of(MODEL))
        .unwrap();
    assert_eq!((get.range.as_deref(), get.status), (Some("bytes=5000-"), 200));
}

#[tokio::test]
async fn corrupt_bytes_are_refused_and_leave_nothing_in_the_cache() {
    for corrupt in [MODEL, "tokenizer.json"] {
        let server = FakeHub::start(small_repo()).await;
        server.corrupt(corrupt);
        let cache = tempfile::tempdir().unwrap();
        let err = fetch(&hub(&server, cache.path())).await.unwrap_err();
        let HubError::HashMismatch { file, expected, actual } = &err else {
            panic!("{err:?}");
        };
        assert_eq!((file.as_str(), expected), (corrupt, &server.etag(corrupt)));
        assert_ne!(actual, expected);
        let message = err.to_string();
        assert!(
            message.contains(corrupt) && message.contains(expected) && message.contains(actual),
            "{message}"
        );
        let repo = repo_dir(cache.path());
        let blobs = blob_names(cache.path());
        assert!(!blobs.iter().any(|b| b.starts_with(&server.etag(corrupt))), "{blobs:?}");
        assert!(!blobs.iter().any(|b| b.ends_with(".incomplete")), "{blobs:?}");
        assert!(!repo.join("snapshots").join(FAKE_COMMIT).join(corrupt).exists());
        assert!(!repo.join("refs").exists(), "no ref to a snapshot that is not complete");
        assert_eq!(
            Hub::new("", cache.path().to_path_buf(), true).cached(FAKE_REPO, "main", SENTENCE_TRANSFORMER_FILES),
            None
        );
    }
}

#[tokio::test]
async fn offline_sends_no_request() {
    let server = FakeHub::start(small_repo()).await;
    let cache = tempfile::tempdir().unwrap();
    let offline = Hub::new(server.url(), cache.path().to_path_buf(), true);
    let err = fetch(&offline).await.unwrap_err();
    assert!(matches!(err, HubError::Offline { .. }), "{err:?}");
    assert!(err.to_string().contains(FAKE_REPO), "{err}");
    assert!(server.requests().is_empty());

    let dir = fetch(&hub(&server, cache.path())).await.unwrap();
    let before = server.requests().len();
    assert_eq!(fetch(&offline).await.unwrap(), dir);
    assert_eq!(server.requests().len(), before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_fetches_at_once_download_each_blob_once() {
    let server = FakeHub::start(small_repo()).await;
    // Both get past their HEADs while the first body is still on its way.
    server.delay_body(MODEL, Duration::from_millis(500));
    let cache = tempfile::tempdir().unwrap();
    let (a, b) = (hub(&server, cache.path()), hub(&server, cache.path()));
    let (a, b) = tokio::join!(
        tokio::spawn(async move { fetch(&a).await }),
        tokio::spawn(async move { fetch(&b).await })
    );
    let (a, b) = (a.unwrap().unwrap(), b.unwrap().unwrap());
    assert_eq!(a, b);
    assert_eq!(std::fs::read(a.join(MODEL)).unwrap(), *server.content(MODEL));
    let requests = server.requests();
    assert_eq!(content_fetches(&requests, MODEL), 1, "{requests:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_at_once_download_each_blob_once() {
    let server = FakeHub::start(small_repo()).await;
    server.delay_body(MODEL, Duration::from_millis(500));
    let cache = tempfile::tempdir().unwrap();
    let env = [
        ("HUB_TEST_URL", server.url()),
        ("HUB_TEST_CACHE", cache.path().to_str().unwrap()),
    ];
    let (a, b) = tokio::join!(child("fetch", &env), child("fetch", &env));
    expect_child_ok(a);
    expect_child_ok(b);
    let dir = repo_dir(cache.path()).join("snapshots").join(FAKE_COMMIT);
    assert_eq!(std::fs::read(dir.join(MODEL)).unwrap(), *server.content(MODEL));
    let requests = server.requests();
    for file in PRESENT {
        assert_eq!(content_fetches(&requests, file), 1, "{file}: {requests:#?}");
    }
}

#[tokio::test]
async fn an_absent_required_file_is_an_error_and_absent_optional_ones_are_remembered() {
    let files = small_repo()
        .into_iter()
        .filter(|(n, _)| n != "tokenizer.json")
        .collect();
    let server = FakeHub::start(files).await;
    let cache = tempfile::tempdir().unwrap();
    let err = fetch(&hub(&server, cache.path())).await.unwrap_err();
    assert!(
        matches!(&err, HubError::NotFound { repo, file } if repo == FAKE_REPO && file == "tokenizer.json"),
        "{err:?}"
    );
    assert!(!repo_dir(cache.path()).join("refs").exists());

    let server = FakeHub::start(small_repo()).await;
    let cache = tempfile::tempdir().unwrap();
    let hub = hub(&server, cache.path());
    fetch(&hub).await.unwrap();
    let asked = |r: &HubRequest, file: &str| r.path.ends_with(&format!("/{file}"));
    assert!(server.requests().iter().any(|r| asked(r, ABSENT[0])));
    let before = server.requests().len();
    fetch(&hub).await.unwrap();
    assert!(
        !server.requests()[before..]
            .iter()
            .any(|r| ABSENT.iter().any(|f| asked(r, f)))
    );

    let err = hub
        .fetch(
            "sentence-transformers/other",
            "main",
            SENTENCE_TRANSFORMER_FILES,
            &|_| {},
        )
        .await
        .unwrap_err();
    assert!(matches!(err, HubError::RepoNotFound { .. }), "{err:?}");
    let err = hub
        .fetch(FAKE_REPO, "v9", SENTENCE_TRANSFORMER_FILES, &|_| {})
        .await
        .unwrap_err();
    assert!(matches!(err, HubError::RevisionNotFound { .. }), "{err:?}");
}

#[tokio::test]
async fn an_unreachable_hub_names_the_url_and_a_cached_snapshot_stands_in() {
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let cache = tempfile::tempdir().unwrap();
    let closed = format!("http://127.0.0.1:{port}");
    let err = fetch(&Hub::new(&closed, cache.path().to_path_buf(), false))
        .await
        .unwrap_err();
    let HubError::Unreachable { url, reason } = &err else {
        panic!("{err:?}");
    };
    assert!(url.starts_with(&format!("{closed}/{FAKE_REPO}/resolve/main/")), "{url}");
    assert!(!reason.is_empty());

    let server = FakeHub::start(small_repo()).await;
    let dir = fetch(&hub(&server, cache.path())).await.unwrap();
    assert_eq!(
        fetch(&Hub::new(&closed, cache.path().to_path_buf(), false))
            .await
            .unwrap(),
        dir
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_real_model_downloads_and_the_local_embedder_finds_it_by_name() {
    let Some(model_dir) = minilm_dir() else { return };
    let server = FakeHub::serve_dir(&model_dir).await;
    let cache = tempfile::tempdir().unwrap();
    let dir = fetch(&hub(&server, cache.path())).await.unwrap();
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
        .args(["--exact", "child_process", "--nocapture", "--test-threads=1"])
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
            fetch(&Hub::new(url, cache, false)).await.unwrap();
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
