//! Models from the Hugging Face Hub, in the cache `huggingface_hub` keeps (so Python tools
//! and haema share downloads).
//!
//! [`Hub::cached`] finds a complete snapshot without any network; [`Hub::fetch`] asks the
//! Hub what each file is at a revision (`HEAD {endpoint}/{repo}/resolve/{revision}/{file}`)
//! and downloads what the cache lacks: into `blobs/<etag>.incomplete` (resumed with `Range`
//! after a cut), checked against the etag (sha256 for LFS files, the git blob sha1 for
//! others), renamed to `blobs/<etag>` and linked from `snapshots/<commit>/<file>`, under a
//! per-blob lock that `huggingface_hub` takes too. See `cache.rs` for the layout.

mod cache;
mod download;
mod env;
mod error;
mod fetch;
mod lock;
mod metadata;
mod progress;
mod verify;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

pub use env::DEFAULT_ENDPOINT;
pub use error::HubError;

/// The revision fetched when none is named: the Hub's default branch.
pub const DEFAULT_REVISION: &str = "main";
/// How long to wait for a connection to the Hub.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a transfer may go without receiving a byte.
pub const READ_STALL_TIMEOUT: Duration = Duration::from_secs(15);

/// A file of a model repository.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ModelFile {
    /// Path in the repository, `/`-separated.
    pub name: &'static str,
    /// Whether the model is unusable without it. An optional file the repository lacks is
    /// skipped (and remembered in `.no_exist/`).
    pub required: bool,
}

/// The files of a sentence-transformers BERT model.
pub const SENTENCE_TRANSFORMER_FILES: &[ModelFile] = &[
    ModelFile {
        name: "config.json",
        required: true,
    },
    ModelFile {
        name: "tokenizer.json",
        required: true,
    },
    ModelFile {
        name: "model.safetensors",
        required: true,
    },
    ModelFile {
        name: "modules.json",
        required: false,
    },
    ModelFile {
        name: "1_Pooling/config.json",
        required: false,
    },
    ModelFile {
        name: "sentence_bert_config.json",
        required: false,
    },
    ModelFile {
        name: "config_sentence_transformers.json",
        required: false,
    },
];

/// Where a [`Hub::fetch`] stands. Reported when a file starts, as its bytes arrive (at most
/// every 256 KiB or 100 ms) and when it is done (`files_done` then counts it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchProgress {
    /// The file under way, as named in the repository.
    pub file: String,
    /// Its bytes on disk (including any resumed from an earlier attempt).
    pub bytes_done: u64,
    /// Its size, when the Hub said it.
    pub bytes_total: Option<u64>,
    /// Files done: downloaded, found in the cache, or skipped as absent.
    pub files_done: usize,
    /// Files asked for.
    pub files_total: usize,
}

/// A model repository in the cache.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CachedModel {
    /// `org/name`.
    pub name: String,
    /// Bytes in its `blobs/` (each stored once, however many snapshots link it; includes
    /// unfinished downloads).
    pub bytes: u64,
    /// Its snapshot folders, sorted.
    pub snapshots: Vec<PathBuf>,
    /// Whether a snapshot holds every required file asked about.
    pub complete: bool,
}

/// The Hugging Face Hub and the local cache of its models.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use haema_core::provider::hub::{DEFAULT_ENDPOINT, DEFAULT_REVISION, Hub, HubError, SENTENCE_TRANSFORMER_FILES};
/// let cache = tempfile::tempdir()?; // Hub::from_env() uses the cache huggingface_hub uses
/// let hub = Hub::new(DEFAULT_ENDPOINT, cache.path().to_path_buf(), true); // offline: no request
/// let model = "sentence-transformers/all-MiniLM-L6-v2";
/// assert!(hub.cached(model, DEFAULT_REVISION, SENTENCE_TRANSFORMER_FILES).is_none());
/// assert!(hub.list(SENTENCE_TRANSFORMER_FILES)?.is_empty());
/// let fetched = hub.fetch(model, DEFAULT_REVISION, SENTENCE_TRANSFORMER_FILES, &|p| eprintln!("{}", p.file)).await;
/// assert!(matches!(fetched, Err(HubError::Offline { .. })));
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct Hub {
    endpoint: String,
    cache: PathBuf,
    offline: bool,
    connect_timeout: Duration,
    read_stall_timeout: Duration,
    /// Built on the first fetch, so that cache lookups cost no TLS set-up.
    clients: OnceLock<Result<Clients, String>>,
}

/// `head` does not follow redirects (the metadata is on the first answer); `get` does.
#[derive(Debug, Clone)]
struct Clients {
    head: reqwest::Client,
    get: reqwest::Client,
}

impl Hub {
    /// The Hub and cache the environment names, by `huggingface_hub`'s rules: `HF_ENDPOINT`
    /// (default `https://huggingface.co`); `HF_HUB_CACHE`, else `$HF_HOME/hub`, else
    /// `$XDG_CACHE_HOME/huggingface/hub`, else `~/.cache/huggingface/hub`; `HF_HUB_OFFLINE`
    /// (or `TRANSFORMERS_OFFLINE`) set to `1`, `true`, `yes` or `on`.
    pub fn from_env() -> Result<Self, HubError> {
        let home = directories::BaseDirs::new().map(|b| b.home_dir().to_path_buf());
        let settings = env::settings_from(|name| std::env::var(name).ok(), home.as_deref())?;
        Ok(Self::new(settings.endpoint, settings.cache, settings.offline))
    }

    /// A Hub at `endpoint` (such as `https://huggingface.co`) with its cache in `cache`;
    /// `offline` forbids any request.
    pub fn new(endpoint: impl Into<String>, cache: PathBuf, offline: bool) -> Self {
        Self {
            endpoint: endpoint.into().trim_end_matches('/').to_owned(),
            cache,
            offline,
            connect_timeout: CONNECT_TIMEOUT,
            read_stall_timeout: READ_STALL_TIMEOUT,
            clients: OnceLock::new(),
        }
    }

    /// Other timeouts than [`CONNECT_TIMEOUT`] and [`READ_STALL_TIMEOUT`].
    #[must_use]
    pub fn with_timeouts(mut self, connect: Duration, read_stall: Duration) -> Self {
        self.connect_timeout = connect;
        self.read_stall_timeout = read_stall;
        self.clients = OnceLock::new();
        self
    }

    /// The cache folder (`…/huggingface/hub`).
    pub fn cache_dir(&self) -> &Path {
        &self.cache
    }

    /// The Hub's base URL, without a trailing `/`.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// Whether requests are forbidden.
    pub fn is_offline(&self) -> bool {
        self.offline
    }

    /// The cache folder of `repo`: `<cache>/models--org--name` (it may not exist).
    pub fn repo_dir(&self, repo: &str) -> PathBuf {
        self.cache.join(cache::folder_name(repo))
    }

    /// The snapshot folder holding every required file of `files`, without any network:
    /// the commit `refs/<revision>` names first, then any other snapshot (newest first).
    pub fn cached(&self, repo: &str, revision: &str, files: &[ModelFile]) -> Option<PathBuf> {
        cache::check_relative_path(revision, "revision").ok()?;
        cache::RepoCache::new(&self.cache, repo)
            .ok()?
            .complete_snapshot(revision, files)
    }

    /// Every model repository in the cache, by name; `complete` says whether one of its
    /// snapshots has every required file of `files`. An absent cache folder lists nothing.
    pub fn list(&self, files: &[ModelFile]) -> Result<Vec<CachedModel>, HubError> {
        cache::list_models(&self.cache, files)
    }

    fn clients(&self) -> Result<&Clients, HubError> {
        let built = self.clients.get_or_init(|| {
            let builder = || {
                reqwest::Client::builder()
                    .user_agent(concat!("haema/", env!("CARGO_PKG_VERSION")))
                    .connect_timeout(self.connect_timeout)
                    .read_timeout(self.read_stall_timeout)
            };
            let head = builder().redirect(reqwest::redirect::Policy::none()).build();
            let get = builder().redirect(reqwest::redirect::Policy::limited(10)).build();
            match (head, get) {
                (Ok(head), Ok(get)) => Ok(Clients { head, get }),
                (Err(e), _) | (_, Err(e)) => Err(metadata::describe(&e)),
            }
        });
        built
            .as_ref()
            .map_err(|reason| HubError::Client { reason: reason.clone() })
    }
}
