//! Importing a store of the Python library HAEMA: its `core.md`, the memories in
//! `latest.sqlite3` (ids, documents, timestamps, deleted flags) and, where present, the
//! documents in Chroma's `db/chroma.sqlite3`. The files are only read.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags};
use serde::Serialize;

use crate::error::{Error, Result};
use crate::transfer::ImportItem;
use crate::types::ChangesetId;

/// What was found in a HAEMA store folder.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HaemaStore {
    /// core.md as written by HAEMA, if the folder has one.
    pub core: Option<String>,
    /// Live memories (in latest.sqlite3 and not deleted, or in Chroma), oldest first.
    pub memories: Vec<ImportItem>,
    /// Memories HAEMA replaced (deleted rows of latest.sqlite3 that Chroma no longer has).
    pub replaced: usize,
    /// Live memories only Chroma had (a HAEMA write interrupted before latest.sqlite3).
    pub only_in_chroma: usize,
    /// Things the reader could not use, said plainly.
    pub warnings: Vec<String>,
}

/// What happened to HAEMA's core.md.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CoreImport {
    /// It became this store's core (a new version).
    Imported,
    /// This store's core already says the same.
    Same,
    /// This store already has its own core; it was kept and HAEMA's was not applied.
    KeptYours,
    /// The folder has no core.md.
    Missing,
}

/// What importing a HAEMA store did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HaemaReport {
    /// Memories added.
    pub added: usize,
    /// Memories already in this store (an earlier import).
    pub skipped: usize,
    /// The changeset that holds them.
    pub changeset: Option<ChangesetId>,
    /// Memories HAEMA had replaced: history there, not memories; not imported.
    pub replaced_not_imported: usize,
    /// Memories found only in Chroma (imported).
    pub only_in_chroma: usize,
    /// What happened to core.md.
    pub core: CoreImport,
    /// Memories held for review (see [`crate::ItemsReport::held`]).
    pub held: usize,
    /// The pending changeset that holds them.
    pub pending: Option<ChangesetId>,
    /// The secrets replaced by markers, by kind.
    pub secrets: crate::secrets::SecretTally,
    /// Things to know.
    pub warnings: Vec<String>,
}

/// True when `dir` looks like a HAEMA store (its `latest.sqlite3` or `db/chroma.sqlite3`).
pub fn is_haema_store(dir: &Path) -> bool {
    dir.join("latest.sqlite3").is_file() || dir.join("db").join("chroma.sqlite3").is_file()
}

/// Whether the database at `path` uses a write-ahead log (its header says so, or a log
/// file lies beside it): SQLite would create `-wal` and `-shm` files beside it to read it.
fn uses_wal(path: &Path) -> bool {
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    if Path::new(&wal).exists() {
        return true;
    }
    let mut header = [0u8; 20];
    std::fs::File::open(path)
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut header))
        .is_ok_and(|()| header[18] == 2 || header[19] == 2)
}

/// A connection that never writes to the source folder (a HAEMA store may be in use, or
/// on read-only media): a database without a log is opened immutable, read-only; one with
/// a log is copied, with its log, to a temporary folder and read there.
fn open_read_only(path: &Path) -> Result<(Connection, Option<PathBuf>)> {
    if !uses_wal(path) {
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX | OpenFlags::SQLITE_OPEN_URI;
        let uri = format!(
            "file:{}?immutable=1",
            path.to_string_lossy()
                .replace('%', "%25")
                .replace('?', "%3f")
                .replace('#', "%23")
        );
        if let Ok(conn) = Connection::open_with_flags(&uri, flags)
            && conn
                .query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get::<_, i64>(0))
                .is_ok()
        {
            return Ok((conn, None));
        }
    }
    let copy = std::env::temp_dir().join(format!("haema-import-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&copy).map_err(|e| Error::io("create folder", &copy, e))?;
    let name = path
        .file_name()
        .map_or_else(|| "db.sqlite3".into(), |n| n.to_os_string());
    for suffix in ["", "-wal"] {
        let mut from = path.as_os_str().to_owned();
        from.push(suffix);
        let mut to = copy.join(&name).into_os_string();
        to.push(suffix);
        if Path::new(&from).is_file() {
            std::fs::copy(&from, &to).map_err(|e| Error::io("copy", Path::new(&from), e))?;
        }
    }
    let conn = Connection::open(copy.join(&name))?;
    Ok((conn, Some(copy)))
}

/// Runs `read` on a read-only connection to `path` (see [`open_read_only`]) and removes
/// any temporary copy afterwards.
fn with_read_only<T>(
    path: &Path,
    read: impl FnOnce(&Connection) -> rusqlite::Result<T>,
) -> Result<rusqlite::Result<T>> {
    let (conn, copy) = open_read_only(path)?;
    let result = read(&conn);
    drop(conn);
    if let Some(copy) = copy {
        let _ = std::fs::remove_dir_all(copy);
    }
    Ok(result)
}

struct Row {
    document: String,
    timestamp_ms: Option<i64>,
    deleted: bool,
}

fn read_latest(path: &Path) -> Result<BTreeMap<String, Row>> {
    let rows = with_read_only(path, |conn| -> rusqlite::Result<BTreeMap<String, Row>> {
        let mut stmt = conn.prepare("SELECT id, document, timestamp_ms, deleted FROM latest_memories")?;
        let rows = stmt.query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                Row {
                    document: r.get(1)?,
                    timestamp_ms: r.get::<_, Option<i64>>(2)?.filter(|t| *t > 0),
                    deleted: r.get::<_, Option<i64>>(3)?.unwrap_or(0) != 0,
                },
            ))
        })?;
        rows.collect()
    })?;
    rows.map_err(|e| {
        Error::InvalidArgument(format!(
            "{} is not a HAEMA latest.sqlite3 (no readable latest_memories table: {e})",
            path.display()
        ))
    })
}

/// Documents of Chroma's `memory` collection: id → (document, timestamp_ms).
fn read_chroma(path: &Path) -> Result<BTreeMap<String, (String, Option<i64>)>> {
    let rows = with_read_only(
        path,
        |conn| -> rusqlite::Result<BTreeMap<String, (String, Option<i64>)>> {
            let mut stmt = conn.prepare(
                "SELECT e.embedding_id,
                    MAX(CASE WHEN m.key = 'chroma:document' THEN m.string_value END),
                    MAX(CASE WHEN m.key = 'timestamp_ms' THEN m.int_value END)
             FROM embeddings e
             JOIN embedding_metadata m ON m.id = e.id
             JOIN segments s ON s.id = e.segment_id
             JOIN collections c ON c.id = s.collection
             WHERE c.name = 'memory'
             GROUP BY e.id",
            )?;
            let rows = stmt.query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, Option<String>>(1)?,
                    r.get::<_, Option<i64>>(2)?,
                ))
            })?;
            let mut out = BTreeMap::new();
            for row in rows {
                let (id, document, ts) = row?;
                if let Some(document) = document {
                    out.insert(id, (document, ts.filter(|t| *t > 0)));
                }
            }
            Ok(out)
        },
    )?;
    rows.map_err(|e| {
        Error::InvalidArgument(format!(
            "{} is not a Chroma database this version can read: {e}",
            path.display()
        ))
    })
}

/// Reads a HAEMA store folder.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # let haema = tempfile::tempdir()?; // a HAEMA store: its latest.sqlite3 (and core.md, db/chroma.sqlite3)
/// # let db = rusqlite::Connection::open(haema.path().join("latest.sqlite3"))?;
/// # db.execute_batch("CREATE TABLE latest_memories (id TEXT, document TEXT, timestamp_ms INTEGER, deleted INTEGER);
/// #     INSERT INTO latest_memories VALUES ('m1', 'The user runs on Sundays.', 1700000000000, 0);")?; drop(db);
/// use haema_core::{is_haema_store, read_haema_store};
/// assert!(is_haema_store(haema.path()));
/// let found = read_haema_store(haema.path())?; // only reads
/// assert_eq!(found.memories[0].content, "The user runs on Sundays.");
/// assert!(found.core.is_none()); // this one has no core.md
/// # Ok(()) }
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] when the folder has neither `latest.sqlite3` nor
/// `db/chroma.sqlite3`, or `latest.sqlite3` is not HAEMA's.
pub fn read_haema_store(dir: &Path) -> Result<HaemaStore> {
    if !is_haema_store(dir) {
        return Err(Error::InvalidArgument(format!(
            "{} is not a HAEMA store: it has neither latest.sqlite3 nor db/chroma.sqlite3",
            dir.display()
        )));
    }
    let mut found = HaemaStore::default();
    let latest_path = dir.join("latest.sqlite3");
    let latest = if latest_path.is_file() {
        read_latest(&latest_path)?
    } else {
        found
            .warnings
            .push("no latest.sqlite3: memories come from Chroma only".into());
        BTreeMap::new()
    };
    let chroma_path = dir.join("db").join("chroma.sqlite3");
    let chroma = if chroma_path.is_file() {
        match read_chroma(&chroma_path) {
            Ok(rows) => rows,
            Err(e) => {
                found
                    .warnings
                    .push(format!("{e}; memories come from latest.sqlite3 only"));
                BTreeMap::new()
            }
        }
    } else {
        BTreeMap::new()
    };
    let mut live: Vec<(Option<i64>, String)> = Vec::new();
    let mut seen = HashSet::new();
    for (id, row) in &latest {
        if !row.deleted || chroma.contains_key(id) {
            seen.insert(id.clone());
            live.push((row.timestamp_ms, row.document.clone()));
        } else {
            found.replaced += 1;
        }
    }
    for (id, (document, ts)) in &chroma {
        if seen.insert(id.clone()) {
            found.only_in_chroma += 1;
            live.push((*ts, document.clone()));
        }
    }
    live.sort_by_key(|(ts, _)| ts.unwrap_or(0));
    found.memories = live
        .into_iter()
        .map(|(timestamp_ms, content)| ImportItem {
            content,
            timestamp_ms,
            ..ImportItem::default()
        })
        .collect();
    match std::fs::read_to_string(dir.join("core.md")) {
        Ok(text) => found.core = Some(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(Error::io("read", dir.join("core.md"), e)),
    }
    Ok(found)
}
