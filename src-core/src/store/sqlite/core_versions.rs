//! The `core_versions` and `core_locks` tables.

use std::collections::BTreeSet;

use rusqlite::{Connection, OptionalExtension, params};

use crate::error::Result;
use crate::types::{ChangesetId, CoreAuthor, CoreVersion, CoreVersionId, Section};

fn from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<CoreVersion> {
    Ok(CoreVersion {
        id: r.get(0)?,
        content: r.get(1)?,
        author: r.get(2)?,
        changeset_id: r.get(3)?,
        created_at_ms: r.get(4)?,
    })
}

/// Records a version of core.md and returns its id.
pub(crate) fn insert(
    conn: &Connection,
    content: &str,
    author: CoreAuthor,
    changeset_id: Option<ChangesetId>,
    ts: i64,
) -> Result<CoreVersionId> {
    conn.execute(
        "INSERT INTO core_versions (content, author, changeset_id, created_at_ms) VALUES (?1, ?2, ?3, ?4)",
        params![content, author, changeset_id, ts],
    )?;
    Ok(CoreVersionId::from(conn.last_insert_rowid()))
}

/// The newest version.
pub(crate) fn latest(conn: &Connection) -> Result<Option<CoreVersion>> {
    Ok(conn
        .query_row(
            "SELECT id, content, author, changeset_id, created_at_ms FROM core_versions ORDER BY id DESC LIMIT 1",
            [],
            from_row,
        )
        .optional()?)
}

/// One version.
pub(crate) fn get(conn: &Connection, id: CoreVersionId) -> Result<Option<CoreVersion>> {
    Ok(conn
        .query_row(
            "SELECT id, content, author, changeset_id, created_at_ms FROM core_versions WHERE id = ?1",
            [id],
            from_row,
        )
        .optional()?)
}

/// All versions, newest first.
pub(crate) fn list(conn: &Connection) -> Result<Vec<CoreVersion>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, content, author, changeset_id, created_at_ms FROM core_versions ORDER BY id DESC",
    )?;
    let rows = stmt.query_map([], from_row)?;
    Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
}

/// Locked sections.
pub(crate) fn locks(conn: &Connection) -> Result<BTreeSet<Section>> {
    let mut stmt = conn.prepare_cached("SELECT section FROM core_locks")?;
    let sections = stmt.query_map([], |r| r.get::<_, Section>(0))?;
    Ok(sections.collect::<rusqlite::Result<BTreeSet<_>>>()?)
}

/// Locks or unlocks a section.
pub(crate) fn set_lock(conn: &Connection, section: Section, locked: bool, ts: i64) -> Result<()> {
    if locked {
        conn.execute(
            "INSERT OR IGNORE INTO core_locks (section, locked_at_ms) VALUES (?1, ?2)",
            params![section, ts],
        )?;
    } else {
        conn.execute("DELETE FROM core_locks WHERE section = ?1", [section])?;
    }
    Ok(())
}

/// Removes every version (an import into a new store brings its own history).
pub(crate) fn delete_all(conn: &Connection) -> Result<()> {
    conn.execute("DELETE FROM core_versions", [])?;
    Ok(())
}

/// Inserts a version exactly as recorded (for import).
pub(crate) fn restore(conn: &Connection, v: &CoreVersion) -> Result<()> {
    conn.execute(
        "INSERT INTO core_versions (id, content, author, changeset_id, created_at_ms) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![v.id, v.content, v.author, v.changeset_id, v.created_at_ms],
    )?;
    Ok(())
}
