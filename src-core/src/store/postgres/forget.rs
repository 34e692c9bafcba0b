//! Forgetting in PostgreSQL: a memory's text blanked and its vectors removed, the deletes
//! of a purge (what each removes, and in which order, is [`crate::store::forgetting`]'s),
//! the scrub that rewrites the tables so no old row version keeps the text; and the access
//! statistics.

use std::collections::HashMap;

use super::client::Conn;
use super::{memories, vectors};
use crate::error::Result;
use crate::types::{AccessStats, ChangesetId, MemoryId, MemoryRecord};

pub(super) fn superseded_by(conn: &Conn, changeset: ChangesetId) -> Result<Vec<(i64, MemoryRecord)>> {
    memories::select(
        conn,
        "m.superseded_by = $1 AND m.status <> 'forgotten'",
        &[&changeset.get()],
    )
}

/// Removes memory `rowid`'s vector, live and staged.
pub(super) fn remove_vectors(conn: &Conn, rowid: i64) -> Result<()> {
    for table in [vectors::TABLE, vectors::STAGING] {
        if vectors::table_exists(conn, table)? {
            conn.execute(
                &format!("DELETE FROM {} WHERE rowid = $1", vectors::qualified(conn, table)),
                &[&rowid],
            )?;
        }
    }
    Ok(())
}

/// Blanks memory `rowid`'s text, source and metadata and makes its status `forgotten`.
pub(super) fn blank(conn: &Conn, rowid: i64, ts: i64) -> Result<()> {
    conn.execute(
        "UPDATE memories SET content = '', source = NULL, metadata = NULL, status = 'forgotten', updated_at_ms = $2
         WHERE rowid = $1",
        &[&rowid, &ts],
    )?;
    Ok(())
}

/// Blanks the text of every item, of any changeset, that names one of `memories`.
pub(super) fn blank_items_naming(conn: &Conn, memories: &[MemoryId]) -> Result<()> {
    let ids: Vec<&str> = memories.iter().map(MemoryId::as_str).collect();
    conn.execute(
        "UPDATE changeset_items SET content = '' WHERE memory_id = ANY($1::text[])",
        &[&ids],
    )?;
    Ok(())
}

/// Deletes user `user_id`'s changesets and their items; references to them from what stays
/// are cleared first. Returns how many changesets.
pub(super) fn delete_changesets_of(conn: &Conn, user_id: &str) -> Result<usize> {
    let owned = "SELECT id FROM changesets WHERE user_id = $1";
    for clear in [
        format!("UPDATE changesets SET reverts_id = NULL WHERE reverts_id IN ({owned})"),
        format!("UPDATE changesets SET reverted_by_id = NULL WHERE reverted_by_id IN ({owned})"),
        format!("UPDATE core_versions SET changeset_id = NULL WHERE changeset_id IN ({owned})"),
        format!("UPDATE memories SET superseded_by = NULL WHERE superseded_by IN ({owned})"),
        format!("UPDATE memories SET changeset_id = NULL WHERE changeset_id IN ({owned})"),
        format!("DELETE FROM changeset_items WHERE changeset_id IN ({owned})"),
    ] {
        conn.execute(&clear, &[&user_id])?;
    }
    let deleted = conn.execute("DELETE FROM changesets WHERE user_id = $1", &[&user_id])?;
    Ok(usize::try_from(deleted).unwrap_or(usize::MAX))
}

/// Deletes user `user_id`'s memories, in any status; returns how many.
pub(super) fn delete_memories_of(conn: &Conn, user_id: &str) -> Result<usize> {
    let deleted = conn.execute("DELETE FROM memories WHERE user_id = $1", &[&user_id])?;
    Ok(usize::try_from(deleted).unwrap_or(usize::MAX))
}

/// Rewrites every table that holds text (`VACUUM FULL`), so the old versions of rows a
/// forget changed are gone from the tables' files. False when another connection held a
/// table too long (calling it again later finishes it). The server's write-ahead log and
/// its backups are the administrator's: they keep old text until they are recycled.
pub(super) fn scrub(conn: &Conn) -> Result<bool> {
    let mut tables: Vec<String> = [
        "memories",
        "changesets",
        "changeset_items",
        "core_versions",
        "core_file",
        "agent_state",
        "agent_state_history",
        "term_counts",
        "postings",
    ]
    .iter()
    .map(|t| vectors::qualified(conn, t))
    .collect();
    for table in [vectors::TABLE, vectors::STAGING] {
        if vectors::table_exists(conn, table)? {
            tables.push(vectors::qualified(conn, table));
        }
    }
    conn.batch("SET lock_timeout = '10s'")?;
    let done = conn.batch(&format!("VACUUM (FULL) {}", tables.join(", ")));
    conn.batch("RESET lock_timeout")?;
    match done {
        Ok(()) => Ok(true),
        Err(e) if e.to_string().contains("lock timeout") => Ok(false),
        Err(e) => Err(e),
    }
}

/// Adds `(memory, hits, last_ms)` returns to the access statistics.
pub(super) fn record_access(conn: &Conn, entries: &[(MemoryId, u64, i64)]) -> Result<()> {
    for (id, hits, last_ms) in entries {
        conn.execute(
            "INSERT INTO memory_access (memory_rowid, hits, last_ms)
             SELECT rowid, $2, $3 FROM memories WHERE id = $1
             ON CONFLICT (memory_rowid) DO UPDATE
             SET hits = memory_access.hits + excluded.hits, last_ms = greatest(memory_access.last_ms, excluded.last_ms)",
            &[&id.as_str(), &i64::try_from(*hits).unwrap_or(i64::MAX), last_ms],
        )?;
    }
    Ok(())
}

/// Every memory's recorded returns, `(memory, hits, last_ms)`, in row order.
pub(super) fn all_access_stats(conn: &Conn) -> Result<Vec<(MemoryId, u64, i64)>> {
    conn.query(
        "SELECT m.id, a.hits, a.last_ms FROM memory_access a JOIN memories m ON m.rowid = a.memory_rowid
         ORDER BY a.memory_rowid",
        &[],
    )?
    .iter()
    .map(|r| {
        let hits: i64 = r.try_get(1)?;
        Ok((
            MemoryId::from(r.try_get::<_, String>(0)?),
            u64::try_from(hits).unwrap_or(0),
            r.try_get(2)?,
        ))
    })
    .collect()
}

/// The access statistics of these memories (rows never returned are left out).
pub(super) fn access_stats(conn: &Conn, rowids: &[i64]) -> Result<HashMap<i64, AccessStats>> {
    conn.query(
        "SELECT memory_rowid, hits, last_ms FROM memory_access WHERE memory_rowid = ANY($1::bigint[])",
        &[&rowids],
    )?
    .iter()
    .map(|r| {
        let hits: i64 = r.try_get(1)?;
        Ok((
            r.try_get(0)?,
            AccessStats {
                access_count: u64::try_from(hits).unwrap_or(0),
                last_accessed_ms: Some(r.try_get(2)?),
            },
        ))
    })
    .collect()
}
