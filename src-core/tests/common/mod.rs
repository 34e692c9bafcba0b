//! Shared fixtures: a store in a temporary folder with deterministic providers.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use haema_core::fake::{HashEmbedder, ScriptedLlm};
use haema_core::{Memory, ReviewPolicy, Settings};

pub const DIMS: usize = 64;

pub struct Fixture {
    pub dir: tempfile::TempDir,
    pub memory: Memory,
    pub llm: Arc<ScriptedLlm>,
    pub embedder: Arc<HashEmbedder>,
}

pub fn settings(review: ReviewPolicy) -> Settings {
    // The hash embedder's distances are coarser than a real model's.
    let merge = haema_core::config::MergeSettings {
        distance_cutoff: 0.6,
        ..Default::default()
    };
    Settings {
        review,
        merge,
        ..Default::default()
    }
}

/// A folder for a new store: a plain one, or, when `HAEMA_TEST_POSTGRES` names a server
/// (`.ci/run` starts one), the link folder of a new schema there, so that the same tests
/// run on both backends.
pub fn store_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    if let Ok(url) = std::env::var("HAEMA_TEST_POSTGRES") {
        let schema = format!("t_{}", &uuid_like()[..16]);
        let separator = if url.contains('?') { '&' } else { '?' };
        haema_core::link_postgres_store(dir.path(), &format!("{url}{separator}schema={schema}")).unwrap();
    }
    dir
}

fn uuid_like() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos(),
    );
    format!("{:016x}{:016x}", hasher.finish(), std::process::id())
}

/// Whether the tests run on PostgreSQL (see [`store_dir`]).
pub fn on_postgres() -> bool {
    std::env::var_os("HAEMA_TEST_POSTGRES").is_some()
}

pub async fn fixture(review: ReviewPolicy) -> Fixture {
    fixture_in(store_dir(), review).await
}

/// A store in a folder whatever the backend of the run: for tests of the folder's files
/// (core.md edited by hand, the bytes left on disk).
pub async fn folder_fixture(review: ReviewPolicy) -> Fixture {
    fixture_in(tempfile::tempdir().unwrap(), review).await
}

async fn fixture_in(dir: tempfile::TempDir, review: ReviewPolicy) -> Fixture {
    let llm = Arc::new(ScriptedLlm::new());
    let embedder = Arc::new(HashEmbedder::new(DIMS));
    let memory = Memory::open_with(dir.path(), settings(review), Some(llm.clone()), Some(embedder.clone()))
        .await
        .unwrap();
    Fixture {
        dir,
        memory,
        llm,
        embedder,
    }
}

/// A store with no LLM (memories are stored as given).
pub async fn fixture_without_llm(review: ReviewPolicy) -> Fixture {
    fixture_without_llm_in(store_dir(), review).await
}

/// [`fixture_without_llm`] in a folder whatever the backend of the run.
pub async fn folder_fixture_without_llm(review: ReviewPolicy) -> Fixture {
    fixture_without_llm_in(tempfile::tempdir().unwrap(), review).await
}

async fn fixture_without_llm_in(dir: tempfile::TempDir, review: ReviewPolicy) -> Fixture {
    let llm = Arc::new(ScriptedLlm::new());
    let embedder = Arc::new(HashEmbedder::new(DIMS));
    let memory = Memory::open_with(dir.path(), settings(review), None, Some(embedder.clone()))
        .await
        .unwrap();
    Fixture {
        dir,
        memory,
        llm,
        embedder,
    }
}

pub fn items(texts: &[&str]) -> Vec<String> {
    texts.iter().map(|t| (*t).to_owned()).collect()
}

pub async fn latest(memory: &Memory) -> Vec<String> {
    memory.get_latest(1, 100).await.unwrap()
}

/// Opens the fixture's store a second time, with another review policy and the same providers.
pub async fn reopen(f: &Fixture, review: ReviewPolicy) -> Memory {
    Memory::open_with(
        f.dir.path(),
        settings(review),
        Some(f.llm.clone()),
        Some(f.embedder.clone()),
    )
    .await
    .unwrap()
}

/// A line of a corpus file (`tests/data/`) with `\n`, `\t` and `\u{XXXX}` decoded.
pub fn decode(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        let tail = &rest[at + 1..];
        if let Some(t) = tail.strip_prefix('n') {
            out.push('\n');
            rest = t;
        } else if let Some(t) = tail.strip_prefix('t') {
            out.push('\t');
            rest = t;
        } else if let Some(t) = tail.strip_prefix("u{") {
            let end = t.find('}').unwrap();
            out.push(char::from_u32(u32::from_str_radix(&t[..end], 16).unwrap()).unwrap());
            rest = &t[end + 1..];
        } else {
            // `\u003c` and the like are part of the text.
            out.push('\\');
            rest = tail;
        }
    }
    out.push_str(rest);
    out
}

/// Every file under `dir` that holds one of `needles`, with the needle.
pub fn files_holding(dir: &std::path::Path, needles: &[&str]) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            for entry in std::fs::read_dir(&path).unwrap() {
                stack.push(entry.unwrap().path());
            }
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        for needle in needles {
            if bytes.windows(needle.len()).any(|w| w == needle.as_bytes()) {
                found.push((path.display().to_string(), (*needle).to_owned()));
            }
        }
    }
    found
}
