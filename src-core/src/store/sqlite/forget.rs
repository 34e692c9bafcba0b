//! Forgetting in SQLite: a memory's text blanked, recorded text rewritten, and the scrub
//! that leaves no old copy in any file of the store (what a forget removes is
//! [`crate::store::forgetting`]'s).

use rusqlite::{Connection, params};

use super::{memories, vector_codes, vectors};
use crate::error::Result;
use crate::types::{ChangesetId, MemoryRecord};

/// Memories (any status but forgotten) that changeset `changeset` replaced.
pub(crate) fn superseded_by(conn: &Connection, changeset: ChangesetId) -> Result<Vec<(i64, MemoryRecord)>> {
    memories::select(conn, "superseded_by = ?1 AND status != 'forgotten'", [changeset])
}

/// Removes memory `rowid`'s vector and its code, and its staged vector, where there are.
pub(crate) fn remove_vectors(conn: &Connection, rowid: i64) -> Result<()> {
    if vectors::exists(conn)? {
        vector_codes::erase(conn, rowid)?;
        conn.execute("DELETE FROM vectors WHERE rowid = ?1", [rowid])?;
    }
    if vectors::table_exists(conn, vectors::STAGING)? {
        conn.execute(&format!("DELETE FROM {} WHERE rowid = ?1", vectors::STAGING), [rowid])?;
    }
    Ok(())
}

/// Blanks memory `rowid`'s text, source and metadata and makes its status `forgotten`.
pub(crate) fn blank(conn: &Connection, rowid: i64, ts: i64) -> Result<()> {
    conn.execute(
        "UPDATE memories SET content = '', source = NULL, metadata = NULL, status = 'forgotten', updated_at_ms = ?2
         WHERE rowid = ?1",
        params![rowid, ts],
    )?;
    Ok(())
}

/// Rewrites the text of a core version in place.
pub(crate) fn rewrite_core_version(conn: &Connection, id: crate::types::CoreVersionId, content: &str) -> Result<()> {
    conn.execute(
        "UPDATE core_versions SET content = ?2 WHERE id = ?1",
        params![id, content],
    )?;
    Ok(())
}

/// Leaves no old copy of removed text in any file of the store: the full-text index is
/// merged into one segment (dropping the entries of removed rows), the database is rebuilt
/// (`VACUUM`: no free page or stale cell keeps old bytes), and the write-ahead log is
/// checkpointed and truncated to nothing. Returns false when another connection kept the
/// log from being emptied (its old frames go at a later scrub).
pub(crate) fn scrub(conn: &Connection) -> Result<bool> {
    conn.execute("INSERT INTO memories_fts (memories_fts) VALUES ('optimize')", [])?;
    conn.execute_batch("VACUUM")?;
    let busy: i64 = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| r.get(0))?;
    Ok(busy == 0)
}
