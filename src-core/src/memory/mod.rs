//! [`Memory`]: the public API of the engine, HAEMA's contract plus review, history and revert.

mod access;
mod agent_changes;
mod agent_keys;
mod agent_state;
mod apply;
mod capture;
mod core_sections;
mod deferred;
mod edit;
mod export;
mod forget;
mod forget_review;
mod history;
mod import;
mod import_items;
mod info;
mod insight;
mod lineage;
mod open;
mod recall;
mod redact;
mod review;
mod scope;
mod searching;
mod status;
mod vector_recall;
mod watch;
mod write;

pub use capture::{CAPTURE_AGENT, CaptureCursor, CaptureOutcome};
pub use deferred::EmbeddingBacklog;
pub use info::StoreInfo;
use info::store_info;
pub use insight::{ANCESTRY_LIMIT, ActivityEvent, ActivityWho, Ancestry, AncestryNode, MadeBy, WeekSummary};
pub use lineage::Lineage;
pub use open::{CLIENT_EMBEDDER_PREFIX, LexicalReason, OpenOptions, OpenProgress};
pub use status::StoreStatus;
pub use vector_recall::VectorRecall;
pub use watch::StoreWatch;

use std::path::Path;
use std::sync::Arc;

use crate::config::Settings;
use crate::error::Missing;
use crate::error::{Error, Result};
use crate::provider::{Embedder, Llm};
use crate::store::Store;
use crate::types::{LatestOptions, LatestStart, MemoryId, MemoryRecord};

/// Shared state behind a [`Memory`] handle.
pub(crate) struct Inner {
    pub(crate) store: Arc<Store>,
    pub(crate) settings: Settings,
    pub(crate) llm: Option<Arc<dyn Llm>>,
    pub(crate) embedder: Option<Arc<dyn Embedder>>,
    /// Why the store answers by words alone for now (`None` when it has vectors).
    pub(crate) lexical: Option<LexicalReason>,
    /// The background making of vectors deferred by adds, shared by every handle on the store.
    pub(crate) embed_worker: Arc<deferred::EmbedWorker>,
}

/// An open memory store. Cheap to clone; `Send + Sync`; every method is async and runs
/// database work off the async threads.
///
/// [`Memory::open`] opens a store with the providers its settings name (an LLM that merges
/// related memories, an embedder for search by meaning). [`Memory::open_with`] takes the
/// providers as given: with none, as here, memories are stored as given and found by their
/// words, with nothing downloaded and no network.
///
/// ```
/// use haema_core::{Memory, ReviewPolicy, Settings};
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let dir = tempfile::tempdir()?;
/// let settings = Settings { review: ReviewPolicy::Auto, ..Settings::default() };
/// let memory = Memory::open_with(dir.path(), settings, None, None).await?;
/// memory.add("The user prefers green tea.").await?;
/// assert_eq!(memory.search("green tea", 3).await?, ["The user prefers green tea."]);
///
/// // The block an agent puts in its prompt: core.md, the newest and the relevant memories.
/// let recall = memory.recall("Which tea does the user like?", 500).await?;
/// assert!(recall.text.contains("green tea"));
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct Memory {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Memory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Memory")
            .field("dir", &self.inner.store.dir())
            .finish_non_exhaustive()
    }
}

impl Memory {
    /// A handle sharing this one's providers, vector worker and connections, over another
    /// view of the store (a user's) or with other settings (an agent key's review policy).
    pub(crate) fn sibling(&self, store: Arc<Store>, settings: Settings) -> Self {
        Self {
            inner: Arc::new(Inner {
                store,
                settings,
                llm: self.inner.llm.clone(),
                embedder: self.inner.embedder.clone(),
                lexical: self.inner.lexical.clone(),
                embed_worker: Arc::clone(&self.inner.embed_worker),
            }),
        }
    }
}

impl Memory {
    /// Opens the store in `dir` with the providers its settings describe. A store without an
    /// `[embedder]` setting uses the local model, downloaded from the Hugging Face Hub on first
    /// use; when it cannot be had the store works by words alone ([`Memory::lexical_reason`])
    /// and memories get their vectors on a later open. See [`Memory::open_with_options`].
    ///
    /// ```no_run
    /// # async fn demo() -> haema_core::Result<()> {
    /// use haema_core::{Memory, Settings, store_dir_for};
    /// let dir = store_dir_for("work".as_ref())?; // ~/.local/share/haema/work on Linux
    /// let memory = Memory::open(&dir, Settings::load(&dir)?).await?;
    /// # Ok(()) }
    /// ```
    pub async fn open(dir: impl AsRef<Path>, settings: Settings) -> Result<Self> {
        let options = OpenOptions {
            download: true,
            catch_up: true,
            progress: None,
        };
        Self::open_with_options(dir, settings, options).await
    }

    /// [`Memory::open`], choosing whether a missing model is downloaded and missing vectors
    /// are made now, and how their progress is told (see [`OpenOptions`] for an example).
    pub async fn open_with_options(dir: impl AsRef<Path>, settings: Settings, options: OpenOptions) -> Result<Self> {
        settings.validate()?;
        let llm = settings.build_llm()?;
        let dir = dir.as_ref().to_path_buf();
        let (store, resolved) = open::open_store(&dir, &settings, &options).await?;
        let scope = settings.scope;
        let store = tokio::task::spawn_blocking(move || -> Result<Arc<Store>> {
            let notes = finish_interrupted(&store)?;
            let mut store = scope::settle(&store, scope)?;
            store.add_notes(notes);
            Ok(Arc::new(store))
        })
        .await
        .map_err(|e| Error::Internal(e.to_string()))??;
        let memory = Self {
            inner: Arc::new(Inner {
                store,
                settings,
                llm,
                embedder: resolved.embedder,
                lexical: resolved.lexical,
                embed_worker: Arc::default(),
            }),
        };
        if memory.embeds_later() {
            memory.catch_up_in_background();
        }
        Ok(memory)
    }

    /// Opens the store in `dir` with the given providers (`None`: no LLM / lexical only).
    ///
    /// Checks, as HAEMA's constructor does, that the dimension, `merge.top_k` and the
    /// cutoff are in range, and, beyond HAEMA, that the embedder is the one the store's
    /// vectors were made with. The example on [`Memory`] opens a store this way; the one on
    /// [`Embedder`] gives it an embedder of its own.
    pub async fn open_with(
        dir: impl AsRef<Path>,
        settings: Settings,
        llm: Option<Arc<dyn Llm>>,
        embedder: Option<Arc<dyn Embedder>>,
    ) -> Result<Self> {
        settings.validate()?;
        if let Some(e) = &embedder
            && e.dims() == 0
        {
            return Err(Error::Config("the embedding dimension must be greater than 0".into()));
        }
        let dir = dir.as_ref().to_path_buf();
        let embedder_identity = embedder.as_ref().map(|e| (e.id(), e.dims()));
        let scope = settings.scope;
        let store = tokio::task::spawn_blocking(move || -> Result<Arc<Store>> {
            let store = Store::open(&dir)?;
            open::check(&store, embedder_identity)?;
            let notes = finish_interrupted(&store)?;
            let mut store = scope::settle(&store, scope)?;
            store.add_notes(notes);
            Ok(Arc::new(store))
        })
        .await
        .map_err(|e| Error::Internal(e.to_string()))??;
        let lexical = embedder.is_none().then_some(LexicalReason::NoEmbedder);
        let memory = Self {
            inner: Arc::new(Inner {
                store,
                settings,
                llm,
                embedder,
                lexical,
                embed_worker: Arc::default(),
            }),
        };
        if memory.embeds_later() {
            memory.catch_up_in_background();
        }
        Ok(memory)
    }

    /// Counts of the store in `dir` without opening providers or checking the embedder:
    /// for listing stores. Its settings file gives the review policy (the default when it
    /// cannot be read).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// # memory.add("A fact.").await?;
    /// let info = haema_core::Memory::peek(dir.path()).await?;
    /// println!("{}: {} memories, {} to review", info.dir.display(), info.active, info.pending_changesets);
    /// assert_eq!((info.active, info.embedder.as_str(), info.dims), (1, "none", 0)); // lexical-only
    /// # Ok(()) }
    /// ```
    pub async fn peek(dir: impl AsRef<Path>) -> Result<StoreInfo> {
        let dir = dir.as_ref().to_path_buf();
        tokio::task::spawn_blocking(move || {
            let review = Settings::load(&dir).map(|s| s.review).unwrap_or_default();
            let store = Store::open(&dir)?;
            store.read(|conn| store_info(conn, &dir, &store.location(), None, review, None))
        })
        .await
        .map_err(|e| Error::Internal(e.to_string()))?
    }

    /// Runs blocking store work on the blocking pool.
    pub(crate) async fn blocking<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Inner) -> Result<T> + Send + 'static,
    ) -> Result<T> {
        let inner = Arc::clone(&self.inner);
        tokio::task::spawn_blocking(move || f(&inner))
            .await
            .map_err(|e| Error::Internal(e.to_string()))?
    }

    /// The store folder.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// use haema_core::ReviewPolicy;
    /// assert_eq!(memory.dir(), dir.path());
    /// assert_eq!(memory.settings().review, ReviewPolicy::Guarded); // the default policy
    /// assert!(memory.lexical_reason().is_some()); // no embedder: searched by words
    /// # Ok(()) }
    /// ```
    pub fn dir(&self) -> &Path {
        self.inner.store.dir()
    }

    /// Where the store is, as people are shown it: its folder, or a PostgreSQL store's URL
    /// without a password.
    pub fn location(&self) -> String {
        self.inner.store.location()
    }

    /// The settings in force.
    pub fn settings(&self) -> &Settings {
        &self.inner.settings
    }

    /// Why the store answers by words alone for now; `None` when search uses vectors.
    pub fn lexical_reason(&self) -> Option<&LexicalReason> {
        self.inner.lexical.as_ref()
    }

    /// Counts and identities of the store (the example on [`Memory::peek`] reads them).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// memory.add("The user is vegetarian.").await?;
    /// let info = memory.info().await?;
    /// assert_eq!((info.active, info.pending_changesets, info.dims), (1, 0, 0));
    /// # Ok(()) }
    /// ```
    pub async fn info(&self) -> Result<StoreInfo> {
        let user = self.user().map(str::to_owned);
        self.blocking(|inner| {
            let llm = inner.llm.as_ref().map(|l| l.id());
            let mut info = inner.store.read(|conn| {
                store_info(
                    conn,
                    inner.store.dir(),
                    &inner.store.location(),
                    llm,
                    inner.settings.review,
                    user,
                )
            })?;
            info.lexical_reason = inner.lexical.clone();
            Ok(info)
        })
        .await
    }

    /// A number that changes when another process commits (SQLite's `data_version`): poll
    /// it to refresh a view, or use [`Memory::watch`].
    pub async fn data_version(&self) -> Result<i64> {
        self.blocking(|inner| inner.store.data_version()).await
    }

    /// The newest active memories as text: `begin` is 1-based (1 = newest).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// memory.add(vec!["Met Ana at the station.".to_string(), "Ana likes jazz.".to_string()]).await?;
    /// assert_eq!(memory.get_latest(1, 10).await?, ["Ana likes jazz.", "Met Ana at the station."]);
    /// assert_eq!(memory.get_latest(2, 10).await?, ["Met Ana at the station."]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// `begin < 1` is [`Error::InvalidArgument`]. `count <= 0` returns an empty list.
    pub async fn get_latest(&self, begin: i64, count: i64) -> Result<Vec<String>> {
        Ok(self
            .get_latest_records(begin, count)
            .await?
            .into_iter()
            .map(|m| m.content)
            .collect())
    }

    /// [`Memory::get_latest`] with ids and timestamps.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// memory.add(vec!["one".to_string(), "two".to_string()]).await?;
    /// let newest = &memory.get_latest_records(1, 1).await?[0];
    /// println!("{} ({}, id {})", newest.content, newest.timestamp, newest.id);
    /// # Ok(()) }
    /// ```
    pub async fn get_latest_records(&self, begin: i64, count: i64) -> Result<Vec<MemoryRecord>> {
        self.latest_records(count, &LatestOptions::begin(begin)).await
    }

    /// A page of `count` latest memories as `options` say: from the `begin`-th newest or
    /// just after a memory a page before ended with (keyset paging for long lists), among
    /// the memories that pass a filter (type, importance, source, writer, user, metadata,
    /// time).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// use haema_core::{LatestOptions, LatestStart, MemoryAttributes, MemoryFilter};
    /// let about_ana = MemoryAttributes { user_id: Some("ana".into()), ..Default::default() };
    /// memory.add_with(vec!["Ana likes jazz.".to_string(), "Ana runs.".to_string()], about_ana).await?;
    /// memory.add("Bo likes folk.").await?;
    /// let anas = LatestOptions { filter: MemoryFilter { user_id: Some("ana".into()), ..Default::default() }, ..Default::default() };
    /// let first = memory.latest_records(1, &anas).await?;
    /// assert_eq!(first[0].content, "Ana runs.");
    /// let next = LatestOptions { start: LatestStart::after(&first[0]), ..anas };
    /// assert_eq!(memory.latest_records(10, &next).await?[0].content, "Ana likes jazz.");
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// A `begin` below 1 or a filter out of range is [`Error::InvalidArgument`]. A `count` of
    /// 0 or less returns an empty list.
    pub async fn latest_records(&self, count: i64, options: &LatestOptions) -> Result<Vec<MemoryRecord>> {
        let filter = options.filter.clone().checked()?;
        if let LatestStart::Begin(begin) = options.start
            && begin < 1
        {
            return Err(Error::InvalidArgument("begin must be >= 1".into()));
        }
        if count <= 0 {
            return Ok(Vec::new());
        }
        let count = usize::try_from(count).unwrap_or(usize::MAX);
        let start = options.start.clone();
        self.blocking(move |inner| {
            inner.store.read(|conn| match &start {
                LatestStart::Begin(begin) => {
                    conn.memories()
                        .latest(usize::try_from(begin - 1).unwrap_or(usize::MAX), count, &filter)
                }
                LatestStart::After { timestamp_ms, id } => {
                    conn.memories().latest_before(*timestamp_ms, id, count, &filter)
                }
            })
        })
        .await
    }

    /// What opening the store changed that a person should know (its folder or files were
    /// readable by others and are now private, secrets typed into core.md by hand were
    /// replaced, a forget's scrub is still to finish); empty most of the time.
    pub fn open_notes(&self) -> Vec<String> {
        self.inner.store.notes().to_vec()
    }

    /// One memory by id, in any status (see the example on [`Memory::add`]).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// let id = memory.add("The user is vegetarian.").await?.memory_ids.remove(0);
    /// let record = memory.memory(&id).await?;
    /// assert_eq!(record.content, "The user is vegetarian.");
    /// # Ok(()) }
    /// ```
    pub async fn memory(&self, id: &MemoryId) -> Result<MemoryRecord> {
        let id = id.clone();
        self.blocking(move |inner| {
            inner
                .store
                .read(|conn| conn.memories().by_id(&id))?
                .map(|(_, m)| m)
                .ok_or(Error::NotFound(Missing::Memory(id)))
        })
        .await
    }
}

/// Finishes what a crash may have interrupted before a store is used: a core.md write
/// (and an edit made outside, recorded as a version) and a forget's scrub. Returns notes:
/// when a hand edit of core.md held secrets (replaced), and when the scrub could not finish
/// (the forget itself is done, reading and writing work without it: a full disk has no room
/// for the copy it makes, and the next open tries again).
fn finish_interrupted(store: &Store) -> Result<Vec<String>> {
    let mut notes: Vec<String> = crate::store::core_write::recover(store)?.into_iter().collect();
    notes.extend(forget::finish_scrub(store).err().map(|e| {
        format!(
            "old copies of forgotten text are still in the store's files: the scrub could not finish ({}); it is tried again at the next open",
            forget::cause(&e)
        )
    }));
    Ok(notes)
}
