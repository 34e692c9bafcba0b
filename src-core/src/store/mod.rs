//! The store: where a memory's rows and core.md are kept.
//!
//! [`backend`] is the boundary: the [`Reader`] and [`Writer`] traits the engine works
//! through and the [`Backend`] that runs them. [`sqlite`] is the embedded backend (one
//! SQLite file with sqlite-vec and FTS5 beside core.md) and holds every SQL statement of
//! the crate. [`Store`] is what the engine holds: a backend behind the boundary, with
//! `FnOnce` helpers around its object-safe methods.

mod access_log;
pub(crate) mod backend;
pub(crate) mod core_copy;
pub(crate) mod core_write;
pub(crate) mod files;
pub(crate) mod filter_terms;
pub(crate) mod forgetting;
mod made_by;
pub(crate) mod mentions;
pub(crate) mod places;
#[cfg(feature = "postgres")]
pub(crate) mod postgres;
mod scoped;
#[cfg(test)]
mod spellings;
pub(crate) mod sqlite;
pub(crate) mod term_choice;
mod work_lock;

use std::path::{Path, PathBuf};
use std::sync::Arc;

pub(crate) use backend::{Backend, Pool, Reader, Writer};
pub(crate) use work_lock::WorkLock;

use crate::error::{Error, Result};

/// Whose rows a [`Store`] handle sees.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Scope {
    /// Every row: a store without scopes, or the engine's own work while opening.
    Whole,
    /// One user's rows only ([`scoped`]).
    User(Arc<str>),
    /// None: a store that keeps users apart, used without saying whose memories.
    Refused,
}

/// An open store.
#[derive(Debug)]
pub struct Store {
    backend: Arc<dyn Backend>,
    dir: PathBuf,
    /// What opening changed that a person should know (permissions tightened).
    notes: Vec<String>,
    scope: Scope,
    /// The agent key this handle writes for: every changeset it makes records it.
    agent_key: Option<Arc<str>>,
    /// Access statistics on their way to the store, shared by every handle on it.
    access: Arc<access_log::AccessLog>,
}

/// The last handle on a store writes the access statistics it still holds (best effort:
/// a failure loses a few counts, never a memory).
impl Drop for Store {
    fn drop(&mut self) {
        if Arc::strong_count(&self.access) == 1 {
            let _ = self.flush_access();
        }
    }
}

impl Store {
    /// Opens (creating when needed) the store in folder `dir`.
    pub fn open(dir: &Path) -> Result<Self> {
        let (backend, notes) = open_backend(dir)?;
        Ok(Self {
            backend,
            dir: dir.to_path_buf(),
            notes,
            scope: Scope::Whole,
            agent_key: None,
            access: Arc::default(),
        })
    }

    /// Holds off every other process's vector work on this store (see
    /// [`Backend::lock_vector_work`]); blocks while waiting, so call it off the async threads.
    pub(crate) fn lock_vector_work(&self, wait: bool) -> Result<Option<WorkLock>> {
        self.backend.lock_vector_work(&self.dir, wait)
    }

    /// The same store seen as `scope` says (sharing its connections).
    pub(crate) fn with_scope(&self, scope: Scope) -> Self {
        Self {
            backend: Arc::clone(&self.backend),
            dir: self.dir.clone(),
            notes: self.notes.clone(),
            scope,
            agent_key: self.agent_key.clone(),
            access: Arc::clone(&self.access),
        }
    }

    /// The same store, writing for the agent holding key `name`: every changeset made
    /// through the handle records it ([`made_by`]).
    pub(crate) fn with_agent_key(&self, name: &str) -> Self {
        let mut store = self.with_scope(self.scope.clone());
        store.agent_key = Some(Arc::from(name));
        store
    }

    /// Notes that these memories were returned now; true when a flush should be scheduled
    /// ([`Store::flush_access`]).
    pub(crate) fn note_access(&self, ids: impl IntoIterator<Item = crate::types::MemoryId>) -> bool {
        self.access.note(ids, crate::types::now_ms())
    }

    /// Writes the access statistics noted so far, in one transaction (kept for the next
    /// flush when it fails). Access counts are no one's text: written whatever the scope.
    pub(crate) fn flush_access(&self) -> Result<()> {
        flush_access(&*self.backend, &self.access)
    }

    /// What a timer needs to flush the access statistics later without keeping the store
    /// open: when every handle has gone first, the last one flushed them.
    pub(crate) fn access_flusher(&self) -> impl FnOnce() -> Result<()> + Send + 'static {
        let (backend, log) = (Arc::downgrade(&self.backend), Arc::downgrade(&self.access));
        move || match (backend.upgrade(), log.upgrade()) {
            (Some(backend), Some(log)) => flush_access(&*backend, &log),
            _ => Ok(()),
        }
    }

    /// A memory's access statistics with the notes not yet written.
    pub(crate) fn access_with_pending(
        &self,
        id: &crate::types::MemoryId,
        stored: Option<crate::types::AccessStats>,
    ) -> crate::types::AccessStats {
        self.access.with_pending(id, stored)
    }

    /// Whose rows this handle sees.
    pub(crate) fn scope(&self) -> &Scope {
        &self.scope
    }

    fn allowed(&self) -> Result<()> {
        match self.scope {
            Scope::Refused => Err(Error::UserRequired),
            Scope::Whole | Scope::User(_) => Ok(()),
        }
    }

    /// What opening changed that a person should know: files of the store that were
    /// readable by others and are now private.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// Adds notes for the person, said when the store was opened.
    pub(crate) fn add_notes(&mut self, notes: impl IntoIterator<Item = String>) {
        self.notes.extend(notes);
    }

    /// Where the store is, as people are shown it: its folder, or a PostgreSQL store's URL
    /// (without a password).
    pub fn location(&self) -> String {
        self.backend.address().unwrap_or_else(|| self.dir.display().to_string())
    }

    /// The store folder: its settings (`haema.toml`) and lock files live there.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Runs read-only work, seeing only what the handle's scope lets through.
    pub(crate) fn read<T>(&self, f: impl FnOnce(&dyn Reader) -> Result<T>) -> Result<T> {
        match &self.scope {
            Scope::Whole => self.backend.read(f),
            Scope::User(user) => self.backend.read(|inner| f(&scoped::Scoped { inner, user })),
            Scope::Refused => Err(Error::UserRequired),
        }
    }

    /// Runs `f` in one transaction that commits only if `f` succeeds: all of it lands or
    /// none does. It sees and writes only what the handle's scope lets through, and each
    /// changeset it makes records the agent key the handle writes for.
    pub(crate) fn write<T>(&self, f: impl FnOnce(&dyn Writer) -> Result<T>) -> Result<T> {
        let Some(agent_key) = self.agent_key.as_deref() else {
            return self.write_scoped(f);
        };
        self.write_scoped(|inner| f(&made_by::MadeBy { inner, agent_key }))
    }

    /// [`Store::write`] through the handle's scope only.
    fn write_scoped<T>(&self, f: impl FnOnce(&dyn Writer) -> Result<T>) -> Result<T> {
        match &self.scope {
            Scope::Whole => self.backend.write(f),
            Scope::User(user) => self.backend.write(|inner| f(&scoped::Scoped { inner, user })),
            Scope::Refused => Err(Error::UserRequired),
        }
    }

    /// A number that changes when another process commits: poll it to notice their
    /// changes.
    pub fn data_version(&self) -> Result<i64> {
        self.backend.change_counter()
    }

    /// The text of core.md; an error when there is none.
    pub(crate) fn read_core(&self) -> Result<String> {
        self.allowed()?;
        self.backend.read_core()?.ok_or_else(|| {
            let missing = std::io::Error::from(std::io::ErrorKind::NotFound);
            Error::io("read", self.dir.join("core.md"), missing)
        })
    }

    /// The text of core.md; `None` when there is none yet.
    pub(crate) fn core_text(&self) -> Result<Option<String>> {
        self.allowed()?;
        self.backend.read_core()
    }

    /// Replaces core.md atomically.
    pub(crate) fn write_core(&self, text: &str) -> Result<()> {
        self.allowed()?;
        self.backend.write_core(text)
    }

    /// Leaves no copy of text removed by earlier commits in the store's files; false when
    /// another process kept it from finishing.
    pub(crate) fn scrub(&self) -> Result<bool> {
        self.backend.scrub()
    }

    /// Where core.md is a file people may edit, if it is one.
    pub(crate) fn core_file(&self) -> Option<PathBuf> {
        self.backend.core_file()
    }
}

/// The backend of the store in `dir`: the PostgreSQL store a link folder names (see
/// [`places::LINK_FILE`]), else the SQLite store of the folder.
fn open_backend(dir: &Path) -> Result<(Arc<dyn Backend>, Vec<String>)> {
    #[cfg(feature = "postgres")]
    if let Some(address) = postgres::address::from_link(dir)? {
        let (backend, notes) = postgres::PgStore::open(address)?;
        return Ok((Arc::new(backend), notes));
    }
    #[cfg(not(feature = "postgres"))]
    if dir.join(places::LINK_FILE).is_file() {
        return Err(Error::InvalidArgument(format!(
            "{} links to a PostgreSQL store, and this haema was built without PostgreSQL (the `postgres` feature)",
            dir.display()
        )));
    }
    let (backend, notes) = sqlite::SqliteStore::open(dir)?;
    Ok((Arc::new(backend), notes))
}

/// Writes the access statistics `log` holds through `backend` (kept for the next flush when
/// it fails).
fn flush_access(backend: &dyn Backend, log: &access_log::AccessLog) -> Result<()> {
    let entries = log.take();
    if entries.is_empty() {
        return Ok(());
    }
    let written = backend.record_access(&entries);
    if written.is_err() {
        log.put_back(entries);
    }
    written
}

/// The `FnOnce` face of a backend's object-safe methods.
impl dyn Backend + '_ {
    /// Runs read-only work.
    pub(crate) fn read<T>(&self, f: impl FnOnce(&dyn Reader) -> Result<T>) -> Result<T> {
        let mut once = Some(f);
        let mut out = None;
        self.read_with(&mut |reader| {
            if let Some(f) = once.take() {
                out = Some(f(reader)?);
            }
            Ok(())
        })?;
        out.ok_or_else(|| Error::Internal("the store did not run a read".into()))
    }

    /// Runs `f` in one transaction that commits only if `f` succeeds: all of it lands or
    /// none does.
    pub(crate) fn write<T>(&self, f: impl FnOnce(&dyn Writer) -> Result<T>) -> Result<T> {
        let mut once = Some(f);
        let mut out = None;
        self.write_with(&mut |writer| {
            if let Some(f) = once.take() {
                out = Some(f(writer)?);
            }
            Ok(())
        })?;
        out.ok_or_else(|| Error::Internal("the store did not run a write".into()))
    }
}

closed_set! {
    /// The keys of the store's `meta` table: what a store records about itself.
    pub(crate) enum MetaKey ("store record") {
        /// The embedder its vectors are made with (`none` for a store searched by words).
        Embedder = "embedder",
        /// The length of its vectors.
        Dims = "dims",
        /// The last memory timestamp handed out (timestamps strictly increase).
        LastTimestamp = "last_timestamp_ms",
        /// The embedder a `reembed` in progress switches to.
        ReembedTarget = "reembed_target",
        /// The local model a store searched by words waits for.
        EmbedderWanted = "embedder_wanted",
        /// Some memories were written without vectors (the embedder was missing).
        VectorsBehind = "vectors_behind",
        /// The core version core.md still owes (a write a crash interrupted).
        CorePendingWrite = "core_pending_write",
        /// Changes whenever the vector codes are rebuilt.
        VectorCodesGeneration = "vector_codes_generation",
        /// The layout of the vector codes.
        VectorCodesLayout = "vector_codes_layout",
        /// The mean the vector codes are centred on.
        VectorCentre = "vector_centre",
        /// A forget committed and its scrub (removing old copies of the bytes) is not done.
        ScrubPending = "scrub_pending",
        /// `per_user` once the store has kept users apart: it never goes back by itself.
        Scope = "scope",
        /// Moves on every commit but those of access statistics (what a watch follows).
        ChangeStamp = "change_stamp",
    }
}
