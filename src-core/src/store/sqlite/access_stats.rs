//! The `memory_access` table: how often each memory was returned, and when last.

use std::collections::HashMap;

use rusqlite::{Connection, params};

use crate::error::Result;
use crate::types::{AccessStats, MemoryId};

/// Adds `hits` returns at `last_ms` to each memory named (memories no longer in the store
/// are skipped).
pub(crate) fn record(conn: &Connection, entries: &[(MemoryId, u64, i64)]) -> Result<()> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO memory_access (memory_rowid, hits, last_ms)
         SELECT rowid, ?2, ?3 FROM memories WHERE id = ?1
         ON CONFLICT (memory_rowid) DO UPDATE SET hits = hits + excluded.hits, last_ms = max(last_ms, excluded.last_ms)",
    )?;
    for (id, hits, last_ms) in entries {
        stmt.execute(params![id, i64::try_from(*hits).unwrap_or(i64::MAX), last_ms])?;
    }
    Ok(())
}

/// Every memory's recorded returns, `(memory, hits, last_ms)`, in row order.
pub(crate) fn all(conn: &Connection) -> Result<Vec<(MemoryId, u64, i64)>> {
    let mut stmt = conn.prepare(
        "SELECT m.id, a.hits, a.last_ms FROM memory_access a JOIN memories m ON m.rowid = a.memory_rowid
         ORDER BY a.memory_rowid",
    )?;
    let rows = stmt.query_map([], |r| {
        let hits: i64 = r.get(1)?;
        Ok((r.get(0)?, u64::try_from(hits).unwrap_or(0), r.get(2)?))
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The recorded statistics of memories by row; rows never returned are left out.
pub(crate) fn of_rows(conn: &Connection, rowids: &[i64]) -> Result<HashMap<i64, AccessStats>> {
    let mut stmt = conn.prepare_cached("SELECT hits, last_ms FROM memory_access WHERE memory_rowid = ?1")?;
    let mut out = HashMap::with_capacity(rowids.len());
    for &rowid in rowids {
        let mut rows = stmt.query([rowid])?;
        if let Some(row) = rows.next()? {
            let hits: i64 = row.get(0)?;
            out.insert(
                rowid,
                AccessStats {
                    access_count: u64::try_from(hits).unwrap_or(0),
                    last_accessed_ms: Some(row.get(1)?),
                },
            );
        }
    }
    Ok(out)
}
