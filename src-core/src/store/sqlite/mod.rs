//! The embedded backend: one SQLite file (`memory.db`, with sqlite-vec and FTS5) and
//! `core.md` in a store folder.
//!
//! All SQL of the crate lives below this module; the engine reaches it only through
//! [`super::backend`].

mod access_stats;
mod agent_keys;
mod agent_state;
mod boundary;
pub(crate) mod changesets;
pub(crate) mod core_versions;
mod embedded;
mod exact_distances;
mod filter;
mod forget;
pub(crate) mod fts;
pub(crate) mod fts_terms;
mod latest_counts;
pub(crate) mod memories;
mod migrations;
mod purge;
mod side;
mod values;
pub(crate) mod vector_codes;
pub(crate) mod vector_index;
pub(crate) mod vectors;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};

use super::backend::{Backend, Reader, Writer};
use super::{MetaKey, files};
use crate::error::{Error, Result};
use crate::types::MemoryId;
use boundary::Boundary;
use fts_terms::TermStats;
use side::SideReader;
use vector_index::VectorIndex;

/// How long a writer waits for another process's write lock before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

/// Whether a file can be created in `dir` (a read-only mount, or another user's folder,
/// says no; root on a writable disk always can).
fn writable(dir: &Path) -> bool {
    tempfile::Builder::new()
        .prefix(".haema-write-test-")
        .tempfile_in(dir)
        .is_ok()
}

/// Refuses to start an empty database in a folder that was a store: `memory.db` missing or
/// empty while core.md or a write-ahead log with content is there. SQLite would take the
/// empty file for a new store and everything in it would look gone.
fn refuse_lost_database(dir: &Path, db_path: &Path) -> Result<()> {
    let size = |path: &Path| std::fs::metadata(path).ok().map(|m| m.len());
    let db = size(db_path);
    if db.is_some_and(|n| n > 0) {
        return Ok(());
    }
    let used = dir.join("core.md").exists() || size(&dir.join("memory.db-wal")).is_some_and(|n| n > 0);
    if !used {
        return Ok(());
    }
    let what = if db.is_some() {
        "is empty (0 bytes)"
    } else {
        "is missing"
    };
    Err(Error::InvalidState(format!(
        "{} {what}, but {} holds a store (its core.md or log is there): haema will not start an empty store over it. \
         Put memory.db back from a backup (or import an export of the store into a new folder), \
         or move the folder away to start afresh",
        db_path.display(),
        dir.display()
    )))
}

/// An open store folder.
#[derive(Debug)]
pub(crate) struct SqliteStore {
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
    /// What [`Backend::change_counter`] saw last.
    seen: Mutex<Seen>,
}

/// The last `data_version` and change stamp seen, and the counter reported for them.
#[derive(Debug, Default)]
struct Seen {
    version: Option<i64>,
    stamp: Option<String>,
    reported: i64,
}

impl SqliteStore {
    /// Opens (creating when needed) the store in `dir`: the folder and `memory.db` with its
    /// migrations applied.
    pub(crate) fn open(dir: &Path) -> Result<(Self, Vec<String>)> {
        let db_path = dir.join("memory.db");
        if db_path.is_file() && !writable(dir) {
            return Self::open_read_only(dir, &db_path);
        }
        let mut notes = super::files::make_private(dir)?;
        vectors::register();
        refuse_lost_database(dir, &db_path)?;
        if !db_path.exists() {
            // Made private before SQLite opens it: its -wal and -shm files take its mode.
            super::files::create_private(&db_path).map_err(|e| Error::io("create", &db_path, e))?;
        }
        let mut conn = Connection::open(&db_path)?;
        // A store of a newer haema is refused before anything is written to it.
        let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        if version > migrations::SCHEMA_VERSION {
            return Err(Error::SchemaTooNew {
                found: version,
                supported: migrations::SCHEMA_VERSION,
            });
        }
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
        // The log and shared-memory files SQLite made for an older, looser store.
        notes.extend(super::files::make_private(dir)?);
        let core = dir.join("core.md");
        // A folder in core.md's place: commands that need no core.md still work, and those
        // that read it say once what is wrong.
        if !super::files::is_folder(&core)
            && let Some((_, Some(note))) = super::files::read_core_lossy(&core)?
        {
            notes.push(note);
        }
        let store = Self {
            side: OnceLock::new(),
            conn: Mutex::new(conn),
            vector_index: Mutex::default(),
            term_stats: Arc::default(),
            dir: dir.to_path_buf(),
            seen: Mutex::default(),
        };
        Ok((store, notes))
    }

    /// Opens a store whose folder cannot be written (another user's, a backup on read-only
    /// media): reading works; any write fails with a clear error (see `values.rs`). SQLite
    /// reads a logged database read-only when its log files are there, and an immutable
    /// one (nothing beside it to create) otherwise.
    fn open_read_only(dir: &Path, db_path: &Path) -> Result<(Self, Vec<String>)> {
        vectors::register();
        let logged = ["-wal", "-shm"].iter().all(|s| {
            let mut p = db_path.as_os_str().to_owned();
            p.push(s);
            Path::new(&p).exists()
        });
        let uri = format!(
            "file:{}?{}",
            db_path
                .to_string_lossy()
                .replace('%', "%25")
                .replace('?', "%3f")
                .replace('#', "%23"),
            if logged { "mode=ro" } else { "immutable=1" }
        );
        let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY
            | rusqlite::OpenFlags::SQLITE_OPEN_URI
            | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(&uri, flags)?;
        configure(&conn, 8000)?;
        let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        if version != migrations::SCHEMA_VERSION {
            return Err(Error::InvalidState(format!(
                "the store at {} is read-only and was made by {} haema (schema {version}, this one reads {}): \
                 copy the folder somewhere you can write and open the copy",
                dir.display(),
                if version < migrations::SCHEMA_VERSION {
                    "an older"
                } else {
                    "a newer"
                },
                migrations::SCHEMA_VERSION
            )));
        }
        prepare_connection(&conn)?;
        let store = Self {
            side: OnceLock::new(),
            conn: Mutex::new(conn),
            vector_index: Mutex::default(),
            term_stats: Arc::default(),
            dir: dir.to_path_buf(),
            seen: Mutex::default(),
        };
        let note = format!(
            "the store at {} is read-only: it can be searched and read, not changed",
            dir.display()
        );
        Ok((store, vec![note]))
    }

    fn lock(&self) -> MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn boundary<'a>(&'a self, conn: &'a Connection) -> Boundary<'a> {
        Boundary {
            conn,
            index: &self.vector_index,
            term_stats: &self.term_stats,
            side: &self.side,
            db_path: self.dir.join("memory.db"),
        }
    }

    /// Runs `f` on the connection with the vector codes at hand (the benches of the coarse
    /// pass).
    #[cfg(feature = "bench")]
    pub(crate) fn with_vector_index<T>(&self, f: impl FnOnce(&Connection, &mut VectorIndex) -> Result<T>) -> Result<T> {
        let conn = self.lock();
        let mut index = self.vector_index.lock().unwrap_or_else(PoisonError::into_inner);
        f(&conn, &mut index)
    }
}

impl Backend for SqliteStore {
    fn read_with(&self, work: &mut dyn FnMut(&dyn Reader) -> Result<()>) -> Result<()> {
        let conn = self.lock();
        work(&self.boundary(&conn))
    }

    /// One `BEGIN IMMEDIATE` transaction: it holds the store's write lock from the start
    /// (other processes wait up to the busy timeout).
    fn write_with(&self, work: &mut dyn FnMut(&dyn Writer) -> Result<()>) -> Result<()> {
        let mut conn = self.lock();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        work(&self.boundary(&tx))?;
        tx.execute(
            "INSERT INTO meta (key, value) VALUES (?1, '1')
             ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)",
            [MetaKey::ChangeStamp.as_str()],
        )?;
        tx.commit()?;
        Ok(())
    }

    fn record_access(&self, entries: &[(MemoryId, u64, i64)]) -> Result<()> {
        let mut conn = self.lock();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        access_stats::record(&tx, entries)?;
        tx.commit()?;
        Ok(())
    }

    /// SQLite's `data_version` (it changes when another connection commits), held still
    /// while the store's change stamp stays: a commit of access statistics alone is no
    /// change to show.
    fn change_counter(&self) -> Result<i64> {
        let conn = self.lock();
        let version: i64 = conn.query_row("PRAGMA data_version", [], |r| r.get(0))?;
        let mut seen = self.seen.lock().unwrap_or_else(PoisonError::into_inner);
        if seen.version == Some(version) {
            return Ok(seen.reported);
        }
        let stamp: Option<String> = conn
            .query_row(
                "SELECT value FROM meta WHERE key = ?1",
                [MetaKey::ChangeStamp.as_str()],
                |r| r.get(0),
            )
            .optional()?;
        if seen.version.is_none() || seen.stamp != stamp {
            seen.reported = version;
        }
        seen.version = Some(version);
        seen.stamp = stamp;
        Ok(seen.reported)
    }

    /// core.md as text; bytes that are not UTF-8 never block the store (see
    /// [`files::read_core_lossy`]: they are kept in a copy first).
    fn read_core(&self) -> Result<Option<String>> {
        Ok(files::read_core_lossy(&self.dir.join("core.md"))?.map(|(text, _)| text))
    }

    fn write_core(&self, text: &str) -> Result<()> {
        files::write_atomically(&self.dir.join("core.md"), text)
    }

    fn core_file(&self) -> Option<PathBuf> {
        Some(self.dir.join("core.md"))
    }

    fn scrub(&self) -> Result<bool> {
        forget::scrub(&self.lock())
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

/// Reads a meta value.
fn meta(conn: &Connection, key: MetaKey) -> Result<Option<String>> {
    Ok(conn
        .prepare_cached("SELECT value FROM meta WHERE key = ?1")?
        .query_row([key.as_str()], |r| r.get(0))
        .optional()?)
}

/// Writes a meta value.
fn set_meta(conn: &Connection, key: MetaKey, value: &str) -> Result<()> {
    conn.execute(
        "INSERT INTO meta (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        params![key.as_str(), value],
    )?;
    Ok(())
}

/// Removes a meta value.
fn delete_meta(conn: &Connection, key: MetaKey) -> Result<()> {
    conn.execute("DELETE FROM meta WHERE key = ?1", [key.as_str()])?;
    Ok(())
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
    /// The store's boundary holds: no module outside a backend's folder (`store/sqlite/`,
    /// `store/postgres/`) names SQL in its code, bar the reader of HAEMA's own database (a
    /// foreign file being imported, opened read-only); and nothing outside `store/` reaches into a
    /// backend but the benches of its inner pieces.
    #[test]
    fn no_sql_outside_the_store() {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let allowed = ["store/sqlite/", "store/postgres/", "transfer/haema_store.rs"];
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
                // Code only: an example in a doc comment may build a foreign file to import.
                let text: String = std::fs::read_to_string(&path)
                    .unwrap()
                    .lines()
                    .filter(|line| !line.trim_start().starts_with("//"))
                    .collect::<Vec<_>>()
                    .join("\n");
                let sql = ["rusqlite", "tokio_postgres", ".execute(", "query_row(", "query_one("];
                if sql.iter().any(|s| text.contains(s)) {
                    offenders.push(relative.clone());
                }
                let outside_store = !relative.starts_with("store/") && relative != "eval/bench.rs";
                if outside_store && text.contains("sqlite::") {
                    offenders.push(relative);
                }
            }
        }
        assert!(offenders.is_empty(), "SQL outside the backends: {offenders:?}");
    }
}
