//! Forgetting in SQLite: removing a memory's text, vectors and full-text entry, rewriting
//! recorded text, and the scrub that leaves no old copy in any file of the store.

use rusqlite::{Connection, OptionalExtension, params};

use super::{fts, memories, vector_codes, vectors};
use crate::error::Result;
use crate::types::{ChangesetId, MemoryRecord, MemoryStatus};

/// Memories (any status but forgotten) that changeset `changeset` replaced.
pub(crate) fn superseded_by(conn: &Connection, changeset: ChangesetId) -> Result<Vec<(i64, MemoryRecord)>> {
    memories::select(conn, "superseded_by = ?1 AND status != 'forgotten'", [changeset])
}

/// Memories (any status but forgotten) whose text, source or metadata holds `phrase` (in
/// any form, as whole words), oldest first.
pub(crate) fn containing(conn: &Connection, phrase: &str) -> Result<Vec<(i64, MemoryRecord)>> {
    let Some(needle) = crate::text::Phrase::new(phrase) else {
        return Ok(Vec::new());
    };
    // Every text is read once: forgetting is rare, and the text is compared folded
    // (normalised, case-folded, invisible characters dropped), which SQL cannot do.
    let all = memories::select(conn, "status != 'forgotten'", [])?;
    Ok(all
        .into_iter()
        .filter(|(_, m)| crate::store::mentions::record_mentions(m, &needle))
        .collect())
}

/// Forgets memory `rowid`: out of the full-text index and the vectors (live and staged),
/// its text, source and metadata blanked and its status `forgotten` (its type, importance
/// and the ids of who wrote it and for whom stay: they hold no text of the memory). The row stays, so ids and history still
/// point at something.
pub(crate) fn forget_memory(conn: &Connection, rowid: i64, ts: i64) -> Result<()> {
    let Some((content, status)) = conn
        .query_row("SELECT content, status FROM memories WHERE rowid = ?1", [rowid], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, MemoryStatus>(1)?))
        })
        .optional()?
    else {
        return Ok(());
    };
    if status == MemoryStatus::Active {
        fts::delete(conn, rowid, &content)?;
    }
    if vectors::exists(conn)? {
        vector_codes::erase(conn, rowid)?;
        conn.execute("DELETE FROM vectors WHERE rowid = ?1", [rowid])?;
    }
    if vectors::table_exists(conn, vectors::STAGING)? {
        conn.execute(&format!("DELETE FROM {} WHERE rowid = ?1", vectors::STAGING), [rowid])?;
    }
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
