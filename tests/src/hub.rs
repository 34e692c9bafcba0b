//! A Hugging Face Hub on 127.0.0.1: one model repository ([`FAKE_REPO`] at [`FAKE_COMMIT`],
//! also reachable as revision `main`) answered the way huggingface.co answers
//! `HEAD`/`GET /{repo}/resolve/{revision}/{file}`:
//!
//! - LFS files (over 1 MB, or `*.safetensors`): 302 to `{cdn}/lfs/{sha256}` (the same
//!   server on a second port, another origin as a CDN is) with
//!   `X-Linked-Etag: "<sha256>"`, `X-Linked-Size`, `X-Repo-Commit` (and the pointer's own
//!   `ETag`, which a client must not take for the file's);
//! - other files: 200 with `ETag: "<git blob sha1>"` and `X-Repo-Commit`;
//! - absent files: 404 with `X-Error-Code: EntryNotFound` (and `RevisionNotFound`,
//!   `RepoNotFound` for other revisions and repositories);
//! - `Range: bytes=N-` answered with 206 (416 past the end).
//!
//! Faults to switch on: cut or stall the connection after N bytes of a file (once), corrupt
//! a file's bytes, ignore `Range`, delay a file's body. Every request is recorded.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use haema_core::provider::hub::{Hub, HubError, SENTENCE_TRANSFORMER_FILES};
use sha1::Sha1;
use sha2::{Digest, Sha256};
use tokio::io::{AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

use crate::http::{RequestHead, bind};

/// The repository the fake Hub serves.
pub const FAKE_REPO: &str = "sentence-transformers/all-MiniLM-L6-v2";
/// Its only commit.
pub const FAKE_COMMIT: &str = "c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00";

/// [`FAKE_REPO`] fetched through `hub` (revision `main`, a sentence-transformers model's
/// files): the snapshot folder.
pub async fn fetch_fake_repo(hub: &Hub) -> Result<PathBuf, HubError> {
    hub.fetch(FAKE_REPO, "main", SENTENCE_TRANSFORMER_FILES, &|_| {}).await
}
/// Files over this size are served as LFS files.
const LFS_THRESHOLD: usize = 1_000_000;

/// A small sentence-transformers-shaped repository (not a working model): `config.json`,
/// `tokenizer.json`, a 3 MB `model.safetensors` of pseudo-random bytes (an LFS file),
/// `modules.json`, `1_Pooling/config.json` and a `README.md`; no
/// `sentence_bert_config.json` or `config_sentence_transformers.json`.
pub fn small_model_files() -> Vec<(String, Vec<u8>)> {
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
        ("model.safetensors", weights),
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

/// One request the fake Hub received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HubRequest {
    /// `HEAD` or `GET`.
    pub method: String,
    /// The path asked for.
    pub path: String,
    /// The `Range` header, if any.
    pub range: Option<String>,
    /// The repository file it concerned (for `/lfs/…` too), if any.
    pub file: Option<String>,
    /// The status answered.
    pub status: u16,
}

impl HubRequest {
    /// Whether this request delivered (part of) `file`'s content.
    pub fn fetched_content_of(&self, file: &str) -> bool {
        self.method == "GET" && self.file.as_deref() == Some(file) && (self.status == 200 || self.status == 206)
    }
}

struct RepoFile {
    bytes: Arc<Vec<u8>>,
    sha256: String,
    git_sha1: String,
    lfs: bool,
}

/// Where a body stops: the connection closes, or (stalled) stays open without a byte more.
#[derive(Debug, Clone, Copy)]
struct Interruption {
    offset: u64,
    stall: bool,
}

#[derive(Default)]
struct Faults {
    interrupt: HashMap<String, Interruption>,
    corrupt: HashSet<String>,
    body_delay: HashMap<String, Duration>,
    ignore_range: bool,
}

struct State {
    files: BTreeMap<String, RepoFile>,
    faults: Faults,
    requests: Vec<HubRequest>,
}

/// The fake Hub. Clones share the server.
#[derive(Clone)]
pub struct FakeHub {
    state: Arc<Mutex<State>>,
    base: String,
    /// Where LFS files are redirected: another port, so another origin.
    cdn: String,
}

impl FakeHub {
    /// Serves `files` (path in the repository, content).
    pub async fn start(files: Vec<(String, Vec<u8>)>) -> Self {
        let files = files
            .into_iter()
            .map(|(name, bytes)| {
                let lfs = bytes.len() > LFS_THRESHOLD || name.ends_with(".safetensors");
                let file = RepoFile {
                    sha256: hex(&Sha256::digest(&bytes)),
                    git_sha1: git_sha1(&bytes),
                    bytes: Arc::new(bytes),
                    lfs,
                };
                (name, file)
            })
            .collect();
        let (hub_listener, base) = bind().await;
        let (cdn_listener, cdn) = bind().await;
        let hub = Self {
            state: Arc::new(Mutex::new(State {
                files,
                faults: Faults::default(),
                requests: Vec::new(),
            })),
            base,
            cdn,
        };
        for listener in [hub_listener, cdn_listener] {
            let server = hub.clone();
            tokio::spawn(async move {
                while let Ok((stream, _)) = listener.accept().await {
                    let server = server.clone();
                    tokio::spawn(async move {
                        let _ = server.serve(stream).await;
                    });
                }
            });
        }
        hub
    }

    /// Serves every file under `dir` (such as [`crate::minilm_dir`]).
    pub async fn serve_dir(dir: &Path) -> Self {
        let mut files = Vec::new();
        collect_files(dir, "", &mut files);
        Self::start(files).await
    }

    /// `http://127.0.0.1:PORT`: the Hub endpoint.
    pub fn url(&self) -> &str {
        &self.base
    }

    /// haema's Hub client for this server, online, with its cache in `cache`.
    pub fn client(&self, cache: &Path) -> Hub {
        Hub::new(self.url(), cache.to_path_buf(), false)
    }

    /// The sha256 of `file` (the etag of LFS files).
    pub fn sha256(&self, file: &str) -> String {
        self.with_file(file, |f| f.sha256.clone())
    }

    /// The git blob id of `file` (the etag of other files).
    pub fn git_sha1(&self, file: &str) -> String {
        self.with_file(file, |f| f.git_sha1.clone())
    }

    /// The etag a client should name the blob of `file` by.
    pub fn etag(&self, file: &str) -> String {
        self.with_file(file, |f| if f.lfs { f.sha256.clone() } else { f.git_sha1.clone() })
    }

    /// The content of `file`.
    pub fn content(&self, file: &str) -> Arc<Vec<u8>> {
        self.with_file(file, |f| Arc::clone(&f.bytes))
    }

    /// The next body of `file` stops after its byte `offset` and the connection closes.
    pub fn cut_after(&self, file: &str, offset: u64) {
        let cut = Interruption { offset, stall: false };
        self.lock().faults.interrupt.insert(file.to_owned(), cut);
    }

    /// The next body of `file` stops after its byte `offset`, and the connection stays open
    /// and silent for a minute.
    pub fn stall_after(&self, file: &str, offset: u64) {
        let stall = Interruption { offset, stall: true };
        self.lock().faults.interrupt.insert(file.to_owned(), stall);
    }

    /// Bodies of `file` have one byte flipped (headers unchanged).
    pub fn corrupt(&self, file: &str) {
        self.lock().faults.corrupt.insert(file.to_owned());
    }

    /// Bodies of `file` start after `delay`.
    pub fn delay_body(&self, file: &str, delay: Duration) {
        self.lock().faults.body_delay.insert(file.to_owned(), delay);
    }

    /// `Range` headers are ignored: every body is whole, with 200.
    pub fn ignore_range(&self) {
        self.lock().faults.ignore_range = true;
    }

    /// Every request so far.
    pub fn requests(&self) -> Vec<HubRequest> {
        self.lock().requests.clone()
    }

    /// How many requests delivered (part of) `file`'s content.
    pub fn content_fetches(&self, file: &str) -> usize {
        self.lock()
            .requests
            .iter()
            .filter(|r| r.fetched_content_of(file))
            .count()
    }

    fn with_file<T>(&self, file: &str, f: impl FnOnce(&RepoFile) -> T) -> T {
        match self.lock().files.get(file) {
            Some(found) => f(found),
            None => panic!("the fake Hub has no file {file}"),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    async fn serve(&self, stream: TcpStream) -> std::io::Result<()> {
        let mut reader = BufReader::new(stream);
        while let Some(head) = RequestHead::read(&mut reader).await? {
            let range = head.header("range").map(str::to_owned);
            let RequestHead { method, path, .. } = head;
            let answer = self.answer(&method, &path, range.as_deref());
            self.lock().requests.push(HubRequest {
                method: method.clone(),
                path,
                range,
                file: answer.file.clone(),
                status: answer.status,
            });
            if !answer.write(reader.get_mut(), method == "HEAD").await? {
                return Ok(());
            }
        }
        Ok(())
    }

    fn answer(&self, method: &str, path: &str, range: Option<&str>) -> Answer {
        let mut state = self.lock();
        let path = path.split('?').next().unwrap_or_default();
        if let Some(sha) = path.strip_prefix("/lfs/") {
            let found = state
                .files
                .iter()
                .find(|(_, f)| f.sha256 == sha)
                .map(|(n, _)| n.clone());
            return match found {
                Some(name) => content_answer(&mut state, &name, method, range, Vec::new()),
                None => Answer::status(404),
            };
        }
        let Some((repo, rest)) = path.trim_start_matches('/').split_once("/resolve/") else {
            return Answer::status(404);
        };
        let commit = ("X-Repo-Commit".to_owned(), FAKE_COMMIT.to_owned());
        if repo != FAKE_REPO {
            return Answer::status(404).header("X-Error-Code", "RepoNotFound");
        }
        let (revision, file) = rest.split_once('/').unwrap_or((rest, ""));
        let revision = percent_decode(revision);
        if revision != "main" && revision != FAKE_COMMIT {
            return Answer::status(404).header("X-Error-Code", "RevisionNotFound");
        }
        let file = percent_decode(file);
        let Some(found) = state.files.get(&file) else {
            return Answer::status(404)
                .header("X-Error-Code", "EntryNotFound")
                .header(&commit.0, &commit.1);
        };
        if found.lfs {
            let mut answer = Answer::status(302)
                .header("Location", &format!("{}/lfs/{}", self.cdn, found.sha256))
                .header("X-Linked-Etag", &format!("\"{}\"", found.sha256))
                .header("X-Linked-Size", &found.bytes.len().to_string())
                .header("ETag", &format!("\"{}\"", git_sha1(found.sha256.as_bytes())))
                .header(&commit.0, &commit.1);
            answer.file = Some(file);
            return answer;
        }
        let extra = vec![commit];
        content_answer(&mut state, &file, method, range, extra)
    }
}

/// A file's content (whole or the range asked for) with its faults.
fn content_answer(
    state: &mut State,
    file: &str,
    method: &str,
    range: Option<&str>,
    extra: Vec<(String, String)>,
) -> Answer {
    let Some(found) = state.files.get(file) else {
        return Answer::status(404);
    };
    let mut bytes = Arc::clone(&found.bytes);
    let etag = if found.lfs { &found.sha256 } else { &found.git_sha1 };
    let len = bytes.len() as u64;
    let mut answer = Answer::status(200).header("ETag", &format!("\"{etag}\""));
    answer.headers.extend(extra);
    answer.file = Some(file.to_owned());
    let mut start = 0u64;
    if let Some(from) = range.filter(|_| !state.faults.ignore_range).and_then(range_start) {
        if from >= len {
            answer.status = 416;
            answer
                .headers
                .push(("Content-Range".to_owned(), format!("bytes */{len}")));
            return answer;
        }
        start = from;
        answer.status = 206;
        answer
            .headers
            .push(("Content-Range".to_owned(), format!("bytes {from}-{}/{len}", len - 1)));
    }
    if method == "GET" {
        if state.faults.corrupt.contains(file) && !bytes.is_empty() {
            let mut changed = bytes.as_ref().clone();
            let middle = changed.len() / 2;
            changed[middle] ^= 0xff;
            bytes = Arc::new(changed);
        }
        answer.interrupt = state.faults.interrupt.remove(file);
        answer.delay = state.faults.body_delay.get(file).copied();
    }
    answer.body = Some((bytes, start));
    answer
}

/// An answer about to be written.
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    /// The content and the offset the body starts at.
    body: Option<(Arc<Vec<u8>>, u64)>,
    file: Option<String>,
    /// Stop the body at this offset of the content.
    interrupt: Option<Interruption>,
    delay: Option<Duration>,
}

impl Answer {
    fn status(status: u16) -> Self {
        Self {
            status,
            headers: Vec::new(),
            body: None,
            file: None,
            interrupt: None,
            delay: None,
        }
    }

    fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }

    /// Writes the answer; `false` when the connection was cut.
    async fn write(self, stream: &mut TcpStream, head_only: bool) -> std::io::Result<bool> {
        if let Some(delay) = self.delay {
            tokio::time::sleep(delay).await;
        }
        let (content, start) = self.body.unwrap_or((Arc::new(Vec::new()), 0));
        let start = usize::try_from(start).unwrap_or(usize::MAX).min(content.len());
        let body = &content[start..];
        let mut head = format!("HTTP/1.1 {} X\r\ncontent-length: {}\r\n", self.status, body.len());
        for (k, v) in &self.headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str("\r\n");
        stream.write_all(head.as_bytes()).await?;
        if head_only {
            stream.flush().await?;
            return Ok(true);
        }
        if let Some(stop) = self.interrupt {
            let end = usize::try_from(stop.offset)
                .unwrap_or(usize::MAX)
                .clamp(start, content.len());
            stream.write_all(&content[start..end]).await?;
            stream.flush().await?;
            if stop.stall {
                tokio::time::sleep(Duration::from_secs(60)).await;
            }
            stream.shutdown().await?;
            return Ok(false);
        }
        stream.write_all(body).await?;
        stream.flush().await?;
        Ok(true)
    }
}

/// `bytes=N-` or `bytes=N-M` → N.
fn range_start(range: &str) -> Option<u64> {
    range.strip_prefix("bytes=")?.split_once('-')?.0.trim().parse().ok()
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex_pair = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
        match (bytes[i], hex_pair.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn collect_files(dir: &Path, prefix: &str, out: &mut Vec<(String, Vec<u8>)>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
    for entry in entries.flatten() {
        let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
        let path = entry.path();
        if path.is_dir() {
            collect_files(&path, &format!("{name}/"), out);
        } else {
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            out.push((name, bytes));
        }
    }
}

/// The git blob id of `content`: sha1 of `blob <len>\0` + content.
fn git_sha1(content: &[u8]) -> String {
    let mut hasher = Sha1::new();
    hasher.update(format!("blob {}\0", content.len()).as_bytes());
    hasher.update(content);
    hex(&hasher.finalize())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
