//! Downloads from a Hugging Face Hub on 127.0.0.1 ([`FakeHub`]) into a real cache folder:
//! the layout huggingface_hub makes, resumes, hash checks, offline mode, absent files and
//! answers unlike a Hub, with small generated files (so these tests never skip). Fetches
//! at once and the real model are in `hub_shared_cache.rs`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use haema_core::provider::hub::{FetchProgress, Hub, HubError, SENTENCE_TRANSFORMER_FILES};
use haema_tests::{FAKE_COMMIT, FAKE_REPO, FakeHub, HubRequest, fetch_fake_repo, small_model_files};

const MODEL: &str = "model.safetensors";
const REPO_DIR: &str = "models--sentence-transformers--all-MiniLM-L6-v2";

/// The files of [`small_model_files`] that [`SENTENCE_TRANSFORMER_FILES`] names.
const PRESENT: [&str; 5] = [
    "config.json",
    "tokenizer.json",
    MODEL,
    "modules.json",
    "1_Pooling/config.json",
];
const ABSENT: [&str; 2] = ["sentence_bert_config.json", "config_sentence_transformers.json"];

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

#[tokio::test]
async fn a_first_download_lays_out_the_cache_like_huggingface_hub() {
    let server = FakeHub::start(small_model_files()).await;
    let cache = tempfile::tempdir().unwrap();
    let seen = Mutex::new(Vec::<FetchProgress>::new());
    let record = |p: &FetchProgress| seen.lock().unwrap().push(p.clone());
    let dir = server
        .client(cache.path())
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
    let server = FakeHub::start(small_model_files()).await;
    let cache = tempfile::tempdir().unwrap();
    let hub = server.client(cache.path());
    let first = fetch_fake_repo(&hub).await.unwrap();
    let before = server.requests().len();
    let second = fetch_fake_repo(&hub).await.unwrap();
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
    let server = FakeHub::start(small_model_files()).await;
    server.cut_after(MODEL, 1_000_000);
    let cache = tempfile::tempdir().unwrap();
    let dir = fetch_fake_repo(&server.client(cache.path())).await.unwrap();
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
async fn a_stalled_transfer_times_out_and_resumes() {
    let server = FakeHub::start(small_model_files()).await;
    server.stall_after(MODEL, 500_000);
    let cache = tempfile::tempdir().unwrap();
    let hub = server
        .client(cache.path())
        .with_timeouts(Duration::from_secs(2), Duration::from_secs(1));
    let dir = fetch_fake_repo(&hub).await.unwrap();
    assert_eq!(std::fs::read(dir.join(MODEL)).unwrap(), *server.content(MODEL));
    let ranges: Vec<Option<String>> = server
        .requests()
        .into_iter()
        .filter(|r| r.fetched_content_of(MODEL))
        .map(|r| r.range)
        .collect();
    // The stall is cut by the read timeout and the transfer resumes where it stopped. On a
    // loaded machine a resumed request may itself wait past the timeout before its first
    // byte: it is then resumed again from where it got to, never from the start.
    assert_eq!(ranges.first(), Some(&None), "{ranges:?}");
    assert_eq!(ranges.get(1), Some(&Some("bytes=500000-".to_owned())), "{ranges:?}");
    let resumed_at = |range: &Option<String>| {
        range
            .as_deref()
            .and_then(|r| r.strip_prefix("bytes="))
            .and_then(|r| r.strip_suffix('-'))
            .and_then(|r| r.parse::<u64>().ok())
    };
    assert!(
        ranges[1..]
            .iter()
            .all(|r| resumed_at(r).is_some_and(|at| at >= 500_000)),
        "{ranges:?}"
    );
}

/// Fetches from `server` into a new cache that holds the first bytes of the model,
/// `partial`, as a cut download (`blobs/<sha256>.incomplete`). The model comes out whole and
/// the cut download is gone; returns the Range the model's GET asked for and its status.
async fn fetch_over_a_cut_download(server: &FakeHub, partial: &[u8]) -> (Option<String>, u16) {
    let cache = tempfile::tempdir().unwrap();
    let blobs = repo_dir(cache.path()).join("blobs");
    std::fs::create_dir_all(&blobs).unwrap();
    let incomplete = blobs.join(format!("{}.incomplete", server.sha256(MODEL)));
    std::fs::write(&incomplete, partial).unwrap();
    let dir = fetch_fake_repo(&server.client(cache.path())).await.unwrap();
    assert_eq!(std::fs::read(dir.join(MODEL)).unwrap(), *server.content(MODEL));
    assert!(!incomplete.exists());
    let get = server
        .requests()
        .into_iter()
        .find(|r| r.fetched_content_of(MODEL))
        .unwrap();
    (get.range, get.status)
}

#[tokio::test]
async fn a_later_fetch_resumes_an_incomplete_download_and_restarts_if_the_range_is_ignored() {
    let server = FakeHub::start(small_model_files()).await;
    let head = server.content(MODEL)[..123_456].to_vec();
    assert_eq!(
        fetch_over_a_cut_download(&server, &head).await,
        (Some("bytes=123456-".to_owned()), 206)
    );

    // A server that ignores the range sends the whole file: it must not be appended.
    let server = FakeHub::start(small_model_files()).await;
    server.ignore_range();
    assert_eq!(
        fetch_over_a_cut_download(&server, &[0u8; 5000]).await,
        (Some("bytes=5000-".to_owned()), 200)
    );
}

#[tokio::test]
async fn corrupt_bytes_are_refused_and_leave_nothing_in_the_cache() {
    for corrupt in [MODEL, "tokenizer.json"] {
        let server = FakeHub::start(small_model_files()).await;
        server.corrupt(corrupt);
        let cache = tempfile::tempdir().unwrap();
        let err = fetch_fake_repo(&server.client(cache.path())).await.unwrap_err();
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
    let server = FakeHub::start(small_model_files()).await;
    let cache = tempfile::tempdir().unwrap();
    let offline = Hub::new(server.url(), cache.path().to_path_buf(), true);
    let err = fetch_fake_repo(&offline).await.unwrap_err();
    assert!(matches!(err, HubError::Offline { .. }), "{err:?}");
    assert!(err.to_string().contains(FAKE_REPO), "{err}");
    assert!(server.requests().is_empty());

    let dir = fetch_fake_repo(&server.client(cache.path())).await.unwrap();
    let before = server.requests().len();
    assert_eq!(fetch_fake_repo(&offline).await.unwrap(), dir);
    assert_eq!(server.requests().len(), before);
}

#[tokio::test]
async fn an_absent_required_file_is_an_error_and_absent_optional_ones_are_remembered() {
    let files = small_model_files()
        .into_iter()
        .filter(|(n, _)| n != "tokenizer.json")
        .collect();
    let server = FakeHub::start(files).await;
    let cache = tempfile::tempdir().unwrap();
    let err = fetch_fake_repo(&server.client(cache.path())).await.unwrap_err();
    assert!(
        matches!(&err, HubError::NotFound { repo, file } if repo == FAKE_REPO && file == "tokenizer.json"),
        "{err:?}"
    );
    assert!(!repo_dir(cache.path()).join("refs").exists());

    let server = FakeHub::start(small_model_files()).await;
    let cache = tempfile::tempdir().unwrap();
    let hub = server.client(cache.path());
    fetch_fake_repo(&hub).await.unwrap();
    let asked = |r: &HubRequest, file: &str| r.path.ends_with(&format!("/{file}"));
    assert!(server.requests().iter().any(|r| asked(r, ABSENT[0])));
    let before = server.requests().len();
    fetch_fake_repo(&hub).await.unwrap();
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
    let err = fetch_fake_repo(&Hub::new(&closed, cache.path().to_path_buf(), false))
        .await
        .unwrap_err();
    let HubError::Unreachable { url, reason } = &err else {
        panic!("{err:?}");
    };
    assert!(url.starts_with(&format!("{closed}/{FAKE_REPO}/resolve/main/")), "{url}");
    assert!(!reason.is_empty());

    let server = FakeHub::start(small_model_files()).await;
    let dir = fetch_fake_repo(&server.client(cache.path())).await.unwrap();
    assert_eq!(
        fetch_fake_repo(&Hub::new(&closed, cache.path().to_path_buf(), false))
            .await
            .unwrap(),
        dir
    );
}

#[tokio::test]
async fn answers_unlike_a_hub_are_errors_and_a_longer_body_is_discarded() {
    use haema_core::provider::hub::ModelFile;
    use haema_tests::{Reply, ScriptedServer};
    let files = [ModelFile {
        name: "config.json",
        required: true,
    }];
    let server = ScriptedServer::start().await;
    let cache = tempfile::tempdir().unwrap();
    let hub = Hub::new(server.url(), cache.path().to_path_buf(), false);
    let commit = ("X-Repo-Commit", FAKE_COMMIT);
    let fetch = || hub.fetch(FAKE_REPO, "main", &files, &|_| {});

    server.push(Reply::status(200, "").header("ETag", "\"e1\""));
    let err = fetch().await.unwrap_err();
    assert!(
        matches!(&err, HubError::BadResponse { reason, .. } if reason.contains("X-Repo-Commit")),
        "{err:?}"
    );
    server.push(
        Reply::status(200, "")
            .header("ETag", "\"../../x\"")
            .header(commit.0, commit.1),
    );
    assert!(matches!(fetch().await, Err(HubError::BadResponse { .. })));
    server.push(Reply::status(500, ""));
    assert!(matches!(fetch().await, Err(HubError::Http { status: 500, .. })));

    // More bytes than the Hub announced: the download is thrown away.
    let head = Reply::status(200, "")
        .header("ETag", "\"plain-etag\"")
        .header("X-Linked-Size", "2")
        .header(commit.0, commit.1);
    server.push(head.clone()).push(Reply::status(200, "hello"));
    let err = fetch().await.unwrap_err();
    assert!(
        matches!(
            err,
            HubError::SizeMismatch {
                expected: 2,
                actual: 5,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(blob_names(cache.path()).is_empty());

    // A 503 while downloading is retried.
    let head = Reply::status(200, "")
        .header("ETag", "\"plain-etag\"")
        .header("X-Linked-Size", "5")
        .header(commit.0, commit.1);
    server
        .push(head)
        .push(Reply::status(503, ""))
        .push(Reply::status(200, "hello"));
    let dir = fetch().await.unwrap();
    assert_eq!(std::fs::read(dir.join("config.json")).unwrap(), b"hello");
    let methods: Vec<String> = server.received().into_iter().map(|r| r.method).collect();
    assert_eq!(methods[methods.len() - 3..], ["HEAD", "GET", "GET"]);

    // A redirect on the Hub's own origin (a renamed repository) is followed.
    let moved = format!("/sentence-transformers/renamed/resolve/{FAKE_COMMIT}/moved.json");
    server.push(Reply::status(307, "").header("Location", &moved));
    let head = Reply::status(200, "")
        .header("ETag", "\"other-etag\"")
        .header("X-Linked-Size", "5")
        .header(commit.0, commit.1);
    server.push(head).push(Reply::status(200, "moved"));
    let files = [ModelFile {
        name: "moved.json",
        required: true,
    }];
    let dir = hub.fetch(FAKE_REPO, FAKE_COMMIT, &files, &|_| {}).await;
    let received = server.received();
    assert_eq!(received[received.len() - 2].path, moved);
    assert_eq!(std::fs::read(dir.unwrap().join("moved.json")).unwrap(), b"moved");
}
