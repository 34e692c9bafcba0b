//! The store: one SQLite file (`memory.db`, with sqlite-vec and FTS5) and `core.md`.
//!
//! All SQL of the crate lives below this module. The rest of the engine calls the small
//! interface of [`Store`] and the table modules, so another backend can replace it.

pub(crate) mod changesets;
pub(crate) mod core_versions;
pub(crate) mod files;
pub(crate) mod fts;
pub(crate) mod fts_terms;
mod latest_counts;
pub(crate) mod memories;
mod migrations;
pub(crate) mod places;
mod side;
mod values;
pub(crate) mod vector_codes;
pub(crate) mod vector_index;
pub(crate) mod vectors;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, Transaction, TransactionBehavior, params};

use crate::{Error, Result};
use fts_terms::TermStats;
use side::SideReader;
use vector_index::VectorIndex;

/// A write transaction: what the engine's write steps receive from [`Store::write`].
pub(crate) type Tx<'a> = Transaction<'a>;

/// A read connection: what read steps receive from [`Store::read`].
pub(crate) type Conn = Connection;

/// How long a writer waits for another process's write lock before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

/// An open store folder.
#[derive(Debug)]
pub struct Store {
    /// A second connection for the full-text half of a hybrid search, which runs on its own
    /// thread beside the vector half; opened by the first hybrid search (`None` when it
    /// could not be). First, so that it closes before `conn`.
    side: OnceLock<Option<SideReader>>,
    conn: Mutex<Connection>,
    /// The vector codes for the coarse pass, locked only while `conn` is.
    vector_index: Mutex<VectorIndex>,
    /// Query term statistics for full-text search, on either connection.
    term_stats: Arc<Mutex<TermStats>>,
    dir: PathBuf,
}

/// What a search reads with: the store's connection and vector codes, the term statistics,
/// and the second connection when it is open.
pub(crate) struct SearchReaders<'a> {
    pub conn: &'a Connection,
    pub index: &'a mut VectorIndex,
    pub term_stats: &'a Arc<Mutex<TermStats>>,
    pub side: Option<&'a SideReader>,
}

impl Store {
    /// Opens (creating when needed) the store in `dir`: the folder, `memory.db` with its
    /// migrations applied, and `core.md` from the template.
    pub fn open(dir: &Path) -> Result<Self> {
        std::fs::create_dir_all(dir).map_err(|e| Error::io("create folder", dir, e))?;
        vectors::register();
        let db_path = dir.join("memory.db");
        let mut conn = Connection::open(&db_path)?;
        // 8 KB pages hold five 384-d float vectors where 4 KB pages hold two: 2.7 -> 2.3 KB
        // on disk per memory. Only a new database takes it (an existing one keeps its size).
        conn.pragma_update(None, "page_size", 8192i64)?;
        conn.pragma_update(None, "journal_mode", "wal")?;
        conn.pragma_update(None, "foreign_keys", "on")?;
        configure(&conn, 8000)?;
        migrations::migrate(&mut conn)?;
        vectors::convert_from_vec0(&mut conn)?;
        vectors::upgrade_codes(&mut conn)?;
        prepare_connection(&conn)?;
        Ok(Self {
            side: OnceLock::new(),
            conn: Mutex::new(conn),
            vector_index: Mutex::default(),
            term_stats: Arc::default(),
            dir: dir.to_path_buf(),
        })
    }

    /// The store folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Path of core.md.
    pub fn core_path(&self) -> PathBuf {
        self.dir.join("core.md")
    }

    fn lock(&self) -> MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Runs read-only work on the connection.
    pub(crate) fn read<T>(&self, f: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
        f(&self.lock())
    }

    /// Runs read-only work that may search vectors ([`vectors::nearest`]).
    pub(crate) fn read_with_vectors<T>(&self, f: impl FnOnce(&Connection, &mut VectorIndex) -> Result<T>) -> Result<T> {
        let conn = self.lock();
        let mut index = self.vector_index.lock().unwrap_or_else(PoisonError::into_inner);
        f(&conn, &mut index)
    }

    /// Runs a search ([`crate::search::run`]). `with_side` asks for the second connection
    /// (a hybrid search); when it cannot be opened the search runs on the one connection.
    pub(crate) fn read_for_search<T>(
        &self,
        with_side: bool,
        f: impl FnOnce(SearchReaders<'_>) -> Result<T>,
    ) -> Result<T> {
        let conn = self.lock();
        let mut index = self.vector_index.lock().unwrap_or_else(PoisonError::into_inner);
        let side = with_side
            .then(|| {
                // Only speed depends on it: when it cannot be opened, searches run on `conn`.
                self.side
                    .get_or_init(|| SideReader::open(&self.dir.join("memory.db")).ok())
                    .as_ref()
            })
            .flatten();
        f(SearchReaders {
            conn: &conn,
            index: &mut index,
            term_stats: &self.term_stats,
            side,
        })
    }

    /// Runs `f` in one `BEGIN IMMEDIATE` transaction: it holds the store's write lock from
    /// the start (other processes wait up to the busy timeout) and commits only if `f`
    /// succeeds.
    pub(crate) fn write<T>(&self, f: impl FnOnce(&Transaction<'_>) -> Result<T>) -> Result<T> {
        let mut conn = self.lock();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let value = f(&tx)?;
        tx.commit()?;
        Ok(value)
    }

    /// SQLite's `data_version`: changes when another connection commits.
    pub fn data_version(&self) -> Result<i64> {
        Ok(self.lock().query_row("PRAGMA data_version", [], |r| r.get(0))?)
    }
}

/// The settings of every connection: how long a writer waits for another process's write
/// lock, durability, and a page cache of `cache_kib` KiB.
fn configure(conn: &Connection, cache_kib: i64) -> Result<()> {
    conn.busy_timeout(BUSY_TIMEOUT)?;
    conn.pragma_update(None, "synchronous", "normal")?;
    // No memory map: mapped pages count as resident memory (fault-around pulls in far
    // more than a query touches), and the kernel page cache serves reads as fast here.
    conn.pragma_update(None, "mmap_size", 0i64)?;
    conn.pragma_update(None, "cache_size", -cache_kib)?;
    Ok(())
}

/// What every connection needs once, before its first search: the `rarray` table function
/// (vector re-ranking) and the temporary tables of query term counts.
fn prepare_connection(conn: &Connection) -> Result<()> {
    rusqlite::vtab::array::load_module(conn)?;
    conn.execute_batch(fts_terms::SETUP)?;
    Ok(())
}

/// Rowids as the value of an `rarray(?)` parameter.
pub(crate) fn rowid_array(rowids: &[i64]) -> std::rc::Rc<Vec<rusqlite::types::Value>> {
    std::rc::Rc::new(rowids.iter().map(|&r| rusqlite::types::Value::Integer(r)).collect())
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
    }
}

/// Reads a meta value.
pub(crate) fn meta(conn: &Connection, key: MetaKey) -> Result<Option<String>> {
    Ok(conn
        .query_row("SELECT value FROM meta WHERE key = ?1", [key.as_str()], |r| r.get(0))
        .optional()?)
}

/// Writes a meta value.
pub(crate) fn set_meta(conn: &Connection, key: MetaKey, value: &str) -> Result<()> {
    conn.execute(
        "INSERT INTO meta (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        params![key.as_str(), value],
    )?;
    Ok(())
}

/// Removes a meta value.
pub(crate) fn delete_meta(conn: &Connection, key: MetaKey) -> Result<()> {
    conn.execute("DELETE FROM meta WHERE key = ?1", [key.as_str()])?;
    Ok(())
}

/// Wall-clock time in Unix ms.
pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// The next memory timestamp: now, or one more than the last one handed out by any
/// process, whichever is later. Must run inside a write transaction.
pub(crate) fn next_timestamp(tx: &Transaction<'_>) -> Result<i64> {
    let last: i64 = meta(tx, MetaKey::LastTimestamp)?
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let ts = now_ms().max(last + 1);
    set_meta(tx, MetaKey::LastTimestamp, &ts.to_string())?;
    Ok(ts)
}

/// An in-memory database with the store's schema, for unit tests.
#[cfg(test)]
pub(crate) fn memory_db() -> Connection {
    vectors::register();
    let mut conn = Connection::open_in_memory().expect("in-memory database");
    migrations::migrate(&mut conn).expect("migrations");
    prepare_connection(&conn).expect("connection set-up");
    conn
}

#[cfg(test)]
mod boundary_tests {
    /// The store's boundary holds: no module outside `store/` names SQLite, bar the error
    /// type (which wraps SQLite's errors) and the reader of HAEMA's own database (a foreign
    /// file being imported, opened read-only).
    #[test]
    fn no_sql_outside_the_store() {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let allowed = ["store/", "error.rs", "transfer/haema_store.rs"];
        let mut offenders = Vec::new();
        let mut folders = vec![src.clone()];
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(&folder).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    folders.push(path);
                    continue;
                }
                let relative = path.strip_prefix(&src).unwrap().to_string_lossy().replace('\\', "/");
                if allowed.iter().any(|a| relative.starts_with(a)) || !relative.ends_with(".rs") {
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap();
                if text.contains("rusqlite") || text.contains(".execute(") || text.contains("query_row(") {
                    offenders.push(relative);
                }
            }
        }
        assert!(offenders.is_empty(), "SQL outside store/: {offenders:?}");
    }
}
