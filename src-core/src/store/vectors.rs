//! sqlite-vec: registration (the crate's one `unsafe` block) and the `memory_vectors` table.
//!
//! The table is a `vec0` virtual table keyed by `memories.rowid`, with cosine distance and
//! an `active` metadata column so that KNN skips superseded memories while their vectors
//! stay for a revert.

use std::sync::Once;

use rusqlite::{Connection, OptionalExtension, params};

use crate::Result;

static REGISTER: Once = Once::new();

/// Registers sqlite-vec as an auto extension for every connection opened afterwards.
pub(crate) fn register() {
    REGISTER.call_once(|| {
        #[allow(unsafe_code)]
        // SAFETY: `sqlite3_vec_init` is sqlite-vec's extension entry point with the
        // signature SQLite expects of an auto extension (`int(sqlite3*, char**, const
        // sqlite3_api_routines*)`); the sqlite-vec crate declares it without arguments, so
        // it is passed through a pointer cast. It is registered once, before any connection.
        unsafe {
            let init: rusqlite::auto_extension::RawAutoExtension =
                std::mem::transmute(sqlite_vec::sqlite3_vec_init as *const ());
            // Registration fails only when SQLite is out of memory; the first vec0 query
            // would then report "no such module: vec0".
            let _ = rusqlite::auto_extension::register_auto_extension(init);
        }
    });
}

/// The live vector table.
pub(crate) const TABLE: &str = "memory_vectors";
/// The table `haema reembed` fills before it replaces the live one.
pub(crate) const STAGING: &str = "memory_vectors_next";

/// Whether the vector table exists.
pub(crate) fn exists(conn: &Connection) -> Result<bool> {
    table_exists(conn, TABLE)
}

/// Whether a vector table of this name exists.
pub(crate) fn table_exists(conn: &Connection, table: &str) -> Result<bool> {
    Ok(conn
        .query_row("SELECT 1 FROM sqlite_master WHERE name = ?1", [table], |_| Ok(()))
        .optional()?
        .is_some())
}

/// Creates the vector table for `dims`-long vectors.
pub(crate) fn create(conn: &Connection, dims: usize) -> Result<()> {
    create_table(conn, TABLE, dims)
}

/// Creates a vector table of this name (one of [`TABLE`], [`STAGING`]).
pub(crate) fn create_table(conn: &Connection, table: &str, dims: usize) -> Result<()> {
    conn.execute_batch(&format!(
        "CREATE VIRTUAL TABLE {table} USING vec0(embedding float[{dims}] distance_metric=cosine, active integer)"
    ))?;
    Ok(())
}

/// Drops the vector table.
pub(crate) fn drop(conn: &Connection) -> Result<()> {
    drop_table(conn, TABLE)
}

/// Drops a vector table of this name (one of [`TABLE`], [`STAGING`]).
pub(crate) fn drop_table(conn: &Connection, table: &str) -> Result<()> {
    conn.execute_batch(&format!("DROP TABLE IF EXISTS {table}"))?;
    Ok(())
}

/// Stores a vector in the staging table.
pub(crate) fn insert_staged(conn: &Connection, rowid: i64, vector: &[f32], active: bool) -> Result<()> {
    conn.execute(
        "INSERT INTO memory_vectors_next (rowid, embedding, active) VALUES (?1, ?2, ?3)",
        params![rowid, to_blob(vector), i64::from(active)],
    )?;
    Ok(())
}

/// Up to `limit` memories (active or superseded) that have no staged vector yet:
/// `(rowid, content, active)`, in rowid order.
pub(crate) fn unstaged(conn: &Connection, limit: usize) -> Result<Vec<(i64, String, bool)>> {
    without_vector(conn, STAGING, limit)
}

/// Up to `limit` memories (active or superseded) that have no vector in the live table:
/// `(rowid, content, active)`, in rowid order.
pub(crate) fn missing(conn: &Connection, limit: usize) -> Result<Vec<(i64, String, bool)>> {
    without_vector(conn, TABLE, limit)
}

/// Up to `limit` memories (active or superseded) without a vector in `table` (one of
/// [`TABLE`], [`STAGING`]).
fn without_vector(conn: &Connection, table: &str, limit: usize) -> Result<Vec<(i64, String, bool)>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT m.rowid, m.content, m.status = 'active' FROM memories m
         WHERE m.status IN ('active', 'superseded') AND m.rowid NOT IN (SELECT rowid FROM {table})
         ORDER BY m.rowid LIMIT ?1"
    ))?;
    let rows = stmt.query_map([i64::try_from(limit).unwrap_or(i64::MAX)], |r| {
        Ok((r.get(0)?, r.get(1)?, r.get(2)?))
    })?;
    Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
}

/// How many memories (active or superseded) have no vector in the live table.
pub(crate) fn missing_count(conn: &Connection) -> Result<usize> {
    let n: i64 = conn.query_row(
        "SELECT count(*) FROM memories m
         WHERE m.status IN ('active', 'superseded') AND m.rowid NOT IN (SELECT rowid FROM memory_vectors)",
        [],
        |r| r.get(0),
    )?;
    Ok(usize::try_from(n).unwrap_or(0))
}

/// Whether memory `rowid` still lacks a live vector: `Some(active)` if it does (and is active
/// or superseded), `None` otherwise.
pub(crate) fn still_missing(conn: &Connection, rowid: i64) -> Result<Option<bool>> {
    Ok(conn
        .query_row(
            "SELECT m.status = 'active' FROM memories m
             WHERE m.rowid = ?1 AND m.status IN ('active', 'superseded')
               AND m.rowid NOT IN (SELECT rowid FROM memory_vectors WHERE rowid = ?1)",
            [rowid],
            |r| r.get(0),
        )
        .optional()?)
}

/// Stores the vector of memory `rowid` in the live table, active or not.
pub(crate) fn insert_with_status(conn: &Connection, rowid: i64, vector: &[f32], active: bool) -> Result<()> {
    conn.execute(
        "INSERT INTO memory_vectors (rowid, embedding, active) VALUES (?1, ?2, ?3)",
        params![rowid, to_blob(vector), i64::from(active)],
    )?;
    Ok(())
}

/// Number of memories (active or superseded) and how many of them are staged.
pub(crate) fn staging_progress(conn: &Connection) -> Result<(usize, usize)> {
    let total: i64 = conn.query_row(
        "SELECT count(*) FROM memories WHERE status IN ('active', 'superseded')",
        [],
        |r| r.get(0),
    )?;
    let staged: i64 = conn.query_row(
        "SELECT count(*) FROM memories WHERE status IN ('active', 'superseded') AND rowid IN (SELECT rowid FROM memory_vectors_next)",
        [],
        |r| r.get(0),
    )?;
    Ok((
        usize::try_from(total).unwrap_or(0),
        usize::try_from(staged).unwrap_or(0),
    ))
}

/// Replaces the live table by the staging table: the live table is re-created with the
/// staging table's dimension and filled from it, with each memory's current status.
pub(crate) fn promote_staging(conn: &Connection, dims: usize) -> Result<()> {
    drop_table(conn, TABLE)?;
    create_table(conn, TABLE, dims)?;
    conn.execute_batch(
        "INSERT INTO memory_vectors (rowid, embedding, active)
           SELECT v.rowid, v.embedding, m.status = 'active' FROM memory_vectors_next v JOIN memories m ON m.rowid = v.rowid",
    )?;
    drop_table(conn, STAGING)
}

/// Little-endian f32 bytes, the format vec0 reads.
pub(crate) fn to_blob(vector: &[f32]) -> Vec<u8> {
    vector.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Stores the vector of memory `rowid` as active.
pub(crate) fn insert(conn: &Connection, rowid: i64, vector: &[f32]) -> Result<()> {
    conn.execute(
        "INSERT INTO memory_vectors (rowid, embedding, active) VALUES (?1, ?2, 1)",
        params![rowid, to_blob(vector)],
    )?;
    Ok(())
}

/// Marks the vector of memory `rowid` active or not; returns false when it has none.
pub(crate) fn set_active(conn: &Connection, rowid: i64, active: bool) -> Result<bool> {
    Ok(conn.execute(
        "UPDATE memory_vectors SET active = ?2 WHERE rowid = ?1",
        params![rowid, i64::from(active)],
    )? > 0)
}

/// The `k` active memories nearest to `query`: `(rowid, cosine distance)`, nearest first.
pub(crate) fn nearest(conn: &Connection, query: &[f32], k: usize) -> Result<Vec<(i64, f64)>> {
    if k == 0 {
        return Ok(Vec::new());
    }
    let mut stmt = conn.prepare_cached(
        "SELECT rowid, distance FROM memory_vectors WHERE embedding MATCH ?1 AND k = ?2 AND active = 1 ORDER BY distance",
    )?;
    let rows = stmt.query_map(params![to_blob(query), i64::try_from(k).unwrap_or(i64::MAX)], |r| {
        Ok((r.get(0)?, r.get(1)?))
    })?;
    Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knn_skips_inactive_vectors() {
        register();
        let conn = Connection::open_in_memory().unwrap();
        create(&conn, 2).unwrap();
        insert(&conn, 1, &[1.0, 0.0]).unwrap();
        insert(&conn, 2, &[0.9, 0.1]).unwrap();
        insert(&conn, 3, &[0.0, 1.0]).unwrap();
        let hits = nearest(&conn, &[1.0, 0.0], 2).unwrap();
        assert_eq!(hits.iter().map(|h| h.0).collect::<Vec<_>>(), vec![1, 2]);
        assert!(hits[0].1.abs() < 1e-6);
        assert!(set_active(&conn, 1, false).unwrap());
        let hits = nearest(&conn, &[1.0, 0.0], 2).unwrap();
        assert_eq!(hits.iter().map(|h| h.0).collect::<Vec<_>>(), vec![2, 3]);
        assert!(!set_active(&conn, 99, false).unwrap());
    }
}
