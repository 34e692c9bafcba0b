//! The float vectors of memories (`vectors`), their sign bits for the coarse pass
//! ([`super::vector_codes`]), and sqlite-vec's registration (the crate's one `unsafe` block).
//!
//! Every memory with a vector has a row here, active or superseded (kept for a revert); only
//! active ones have a code, so only they are found. Nearest-neighbour search is a coarse pass
//! over the codes held in memory ([`super::vector_index`]) re-ranked exactly with these floats.

use crate::store::MetaKey;
use crate::store::backend::Pool;
use std::sync::Once;

use rusqlite::{Connection, OptionalExtension, params};

#[cfg(any(test, feature = "bench"))]
pub(crate) use super::exact_distances::cosine_distance;
pub(crate) use super::exact_distances::{distances, nearest_exact};
use super::vector_codes;
use super::vector_index::{RowMask, VectorIndex};
use crate::error::Result;
use crate::types::MemoryFilter;

static REGISTER: Once = Once::new();

/// Registers sqlite-vec as an auto extension for every connection opened afterwards: its
/// `vec_*` SQL functions read the `vectors.embedding` blobs, and stores written by an
/// earlier haema keep their vectors in a sqlite-vec `vec0` table until they are converted.
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
pub(crate) const TABLE: &str = "vectors";
/// The table `haema reembed` fills before it replaces the live one.
pub(crate) const STAGING: &str = "vectors_next";

/// Whether the vector table exists.
pub(crate) fn exists(conn: &Connection) -> Result<bool> {
    table_exists(conn, TABLE)
}

/// Whether a table of this name exists.
pub(crate) fn table_exists(conn: &Connection, table: &str) -> Result<bool> {
    Ok(conn
        .prepare_cached("SELECT 1 FROM sqlite_master WHERE name = ?1")?
        .query_row([table], |_| Ok(()))
        .optional()?
        .is_some())
}

/// Creates the vector tables (floats and codes).
pub(crate) fn create(conn: &Connection) -> Result<()> {
    create_table(conn, TABLE)?;
    vector_codes::create(conn)
}

/// Creates a float vector table of this name (one of [`TABLE`], [`STAGING`]).
pub(crate) fn create_table(conn: &Connection, table: &str) -> Result<()> {
    conn.execute_batch(&format!(
        "CREATE TABLE IF NOT EXISTS {table} (
             rowid     INTEGER PRIMARY KEY,
             active    INTEGER NOT NULL,
             embedding BLOB    NOT NULL -- little-endian f32, the layout sqlite-vec reads
         ) STRICT"
    ))?;
    Ok(())
}

/// Drops the vector tables.
pub(crate) fn drop(conn: &Connection) -> Result<()> {
    drop_table(conn, TABLE)?;
    vector_codes::drop(conn)
}

/// Drops a float vector table of this name (one of [`TABLE`], [`STAGING`]).
pub(crate) fn drop_table(conn: &Connection, table: &str) -> Result<()> {
    conn.execute_batch(&format!("DROP TABLE IF EXISTS {table}"))?;
    Ok(())
}

/// Stores a vector in the staging table.
pub(crate) fn insert_staged(conn: &Connection, rowid: i64, vector: &[f32], active: bool) -> Result<()> {
    conn.execute(
        "INSERT OR REPLACE INTO vectors_next (rowid, active, embedding) VALUES (?1, ?2, ?3)",
        params![rowid, active, to_blob(vector)],
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

/// Up to `limit` memories (active or superseded) without a vector in `table`.
fn without_vector(conn: &Connection, table: &str, limit: usize) -> Result<Vec<(i64, String, bool)>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT m.rowid, m.content, m.status = 'active' FROM memories m
         WHERE m.status IN ('active', 'superseded') AND NOT EXISTS (SELECT 1 FROM {table} v WHERE v.rowid = m.rowid)
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
         WHERE m.status IN ('active', 'superseded') AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.rowid = m.rowid)",
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
               AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.rowid = ?1)",
            [rowid],
            |r| r.get(0),
        )
        .optional()?)
}

/// Number of memories (active or superseded) and how many of them are staged.
pub(crate) fn staging_progress(conn: &Connection) -> Result<(usize, usize)> {
    let total: i64 = conn.query_row(
        "SELECT count(*) FROM memories WHERE status IN ('active', 'superseded')",
        [],
        |r| r.get(0),
    )?;
    let staged: i64 = conn.query_row(
        "SELECT count(*) FROM memories m WHERE m.status IN ('active', 'superseded')
           AND EXISTS (SELECT 1 FROM vectors_next v WHERE v.rowid = m.rowid)",
        [],
        |r| r.get(0),
    )?;
    Ok((
        usize::try_from(total).unwrap_or(0),
        usize::try_from(staged).unwrap_or(0),
    ))
}

/// Replaces the live table by the staging table, with each memory's current status, and
/// rebuilds the codes from it.
pub(crate) fn promote_staging(conn: &Connection) -> Result<()> {
    drop(conn)?;
    create(conn)?;
    conn.execute_batch(
        "INSERT INTO vectors (rowid, active, embedding)
           SELECT v.rowid, m.status = 'active', v.embedding FROM vectors_next v JOIN memories m ON m.rowid = v.rowid",
    )?;
    drop_table(conn, STAGING)?;
    vector_codes::rebuild(conn)
}

/// Remakes the codes of a store whose codes were made by an earlier haema (plain sign bits),
/// in one transaction.
pub(crate) fn upgrade_codes(conn: &mut Connection) -> Result<()> {
    if !vector_codes::outdated(conn)? {
        return Ok(());
    }
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    // Another process may have done it while this one waited for the lock.
    if vector_codes::outdated(&tx)? {
        vector_codes::rebuild(&tx)?;
    }
    tx.commit()?;
    Ok(())
}

/// Converts a store written by an earlier haema, whose vectors live in a sqlite-vec `vec0`
/// table `memory_vectors`, to the `vectors` table and its codes, in one transaction. A
/// `haema reembed` that was under way starts again.
pub(crate) fn convert_from_vec0(conn: &mut Connection) -> Result<()> {
    let is_vec0 = |conn: &Connection, name: &str| -> Result<bool> {
        let sql: Option<String> = conn
            .query_row("SELECT sql FROM sqlite_master WHERE name = ?1", [name], |r| r.get(0))
            .optional()?;
        Ok(sql.is_some_and(|sql| sql.to_ascii_lowercase().contains("using vec0")))
    };
    if !is_vec0(conn, "memory_vectors")? && !is_vec0(conn, "memory_vectors_next")? {
        return Ok(());
    }
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    if is_vec0(&tx, "memory_vectors")? {
        create(&tx)?;
        tx.execute_batch(
            "INSERT INTO vectors (rowid, active, embedding) SELECT rowid, active, embedding FROM memory_vectors;
             DROP TABLE memory_vectors;",
        )?;
        vector_codes::rebuild(&tx)?;
    }
    if is_vec0(&tx, "memory_vectors_next")? {
        tx.execute_batch("DROP TABLE memory_vectors_next")?;
        super::delete_meta(&tx, MetaKey::ReembedTarget)?;
    }
    tx.commit()?;
    Ok(())
}

/// Little-endian f32 bytes.
pub(crate) fn to_blob(vector: &[f32]) -> Vec<u8> {
    vector.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// The f32 values of a blob written by [`to_blob`].
pub(crate) fn from_blob(blob: &[u8]) -> Vec<f32> {
    blob.chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

/// Every live vector: `(rowid, vector)`, by row.
pub(crate) fn all(conn: &Connection) -> Result<Vec<(i64, Vec<f32>)>> {
    if !exists(conn)? {
        return Ok(Vec::new());
    }
    let mut stmt = conn.prepare_cached("SELECT rowid, embedding FROM vectors ORDER BY rowid")?;
    let rows = stmt.query_map([], |r| Ok((r.get::<_, i64>(0)?, from_blob(&r.get::<_, Vec<u8>>(1)?))))?;
    Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
}

/// Stores the vector of memory `rowid` as active.
pub(crate) fn insert(conn: &Connection, rowid: i64, vector: &[f32]) -> Result<()> {
    insert_with_status(conn, rowid, vector, true)
}

/// Stores the vector of memory `rowid` in the live table, active or not.
pub(crate) fn insert_with_status(conn: &Connection, rowid: i64, vector: &[f32], active: bool) -> Result<()> {
    conn.prepare_cached("INSERT OR REPLACE INTO vectors (rowid, active, embedding) VALUES (?1, ?2, ?3)")?
        .execute(params![rowid, active, to_blob(vector)])?;
    let coder = vector_codes::Coder::load(conn)?;
    let code = active.then(|| coder.code(vector));
    vector_codes::set(conn, rowid, code.as_deref())?;
    if active && !coder.has_centre() {
        centre_when_large_enough(conn)?;
    }
    Ok(())
}

/// Remakes the codes against the vectors' mean once a store without a centre has
/// [`vector_codes::CENTRE_AFTER`] active vectors (once: the rebuild sets the centre).
fn centre_when_large_enough(conn: &Connection) -> Result<()> {
    // Active memories, counted at once, bound the active vectors from above.
    if super::memories::count(
        conn,
        crate::types::MemoryStatus::Active,
        &crate::types::MemoryFilter::default(),
    )? < vector_codes::CENTRE_AFTER
    {
        return Ok(());
    }
    if vector_codes::active_codes(conn)? >= vector_codes::CENTRE_AFTER {
        vector_codes::rebuild(conn)?;
    }
    Ok(())
}

/// Marks the vector of memory `rowid` active or not; returns false when it has none.
pub(crate) fn set_active(conn: &Connection, rowid: i64, active: bool) -> Result<bool> {
    let blob: Option<Vec<u8>> = conn
        .prepare_cached("UPDATE vectors SET active = ?2 WHERE rowid = ?1 RETURNING embedding")?
        .query_row(params![rowid, active], |r| r.get(0))
        .optional()?;
    let Some(blob) = blob else { return Ok(false) };
    let coder = vector_codes::Coder::load(conn)?;
    let code = active.then(|| coder.code(&from_blob(&blob)));
    vector_codes::set(conn, rowid, code.as_deref())?;
    if active && !coder.has_centre() {
        centre_when_large_enough(conn)?;
    }
    Ok(true)
}

/// The `k` active memories nearest to `query`: `(rowid, cosine distance)`, nearest first. A
/// coarse pass over the sign bits picks the candidates `pool` asks for, which sqlite-vec's
/// `vec_distance_cosine` re-ranks exactly on their float vectors, in one statement.
pub(crate) fn nearest(
    conn: &Connection,
    index: &mut VectorIndex,
    query: &[f32],
    k: usize,
    pool: Pool,
    filter: &MemoryFilter,
) -> Result<Vec<(i64, f64)>> {
    if k == 0 || !exists(conn)? {
        return Ok(Vec::new());
    }
    index.refresh(conn)?;
    // A filter is applied in the scan: only the rows that pass are scored.
    let mask = if filter.is_empty() {
        None
    } else {
        let passing = super::filter::passing(conn, filter)?;
        if passing.is_empty() {
            return Ok(Vec::new());
        }
        Some(RowMask::of(&passing))
    };
    let pool = match pool {
        Pool::Search(n) => super::vector_index::pool_size(n.max(k), index.len()),
        Pool::Close(top) => super::vector_index::pool_size(top.max(k), 0),
    };
    let mut candidates = index.candidates(query, pool, mask.as_ref());
    // In rowid order the B-tree pages are visited once each, front to back.
    candidates.sort_unstable();

    let mut stmt = conn.prepare_cached(
        "SELECT rowid, vec_distance_cosine(embedding, ?1) FROM vectors WHERE rowid IN rarray(?2) AND active = 1",
    )?;
    let mut hits: Vec<(i64, f64)> = stmt
        .query_map(params![to_blob(query), super::rowid_array(&candidates)], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })?
        .collect::<rusqlite::Result<_>>()?;
    hits.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    hits.truncate(k);
    Ok(hits)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store() -> Connection {
        let conn = crate::store::sqlite::memory_db();
        create(&conn).unwrap();
        conn
    }

    fn ids(hits: &[(i64, f64)]) -> Vec<i64> {
        hits.iter().map(|h| h.0).collect()
    }

    #[test]
    fn knn_skips_inactive_vectors() {
        let conn = store();
        let mut index = VectorIndex::default();
        insert(&conn, 1, &[1.0, 0.0]).unwrap();
        insert(&conn, 2, &[0.9, 0.1]).unwrap();
        insert(&conn, 3, &[0.0, 1.0]).unwrap();
        let hits = nearest(
            &conn,
            &mut index,
            &[1.0, 0.0],
            2,
            Pool::Search(2),
            &MemoryFilter::default(),
        )
        .unwrap();
        assert_eq!(ids(&hits), vec![1, 2]);
        assert!(hits[0].1.abs() < 1e-6);
        assert!(set_active(&conn, 1, false).unwrap());
        assert_eq!(
            ids(&nearest(
                &conn,
                &mut index,
                &[1.0, 0.0],
                2,
                Pool::Search(2),
                &MemoryFilter::default()
            )
            .unwrap()),
            vec![2, 3]
        );
        assert!(set_active(&conn, 1, true).unwrap());
        assert_eq!(
            ids(&nearest(
                &conn,
                &mut index,
                &[1.0, 0.0],
                2,
                Pool::Search(2),
                &MemoryFilter::default()
            )
            .unwrap()),
            vec![1, 2]
        );
        assert!(!set_active(&conn, 99, false).unwrap());
    }

    #[test]
    fn sqlite_vec_reads_the_stored_blobs() {
        let conn = store();
        insert(&conn, 1, &[0.6, 0.8]).unwrap();
        let d: f64 = conn
            .query_row(
                "SELECT vec_distance_cosine(embedding, ?1) FROM vectors WHERE rowid = 1",
                [to_blob(&[1.0, 0.0])],
                |r| r.get(0),
            )
            .unwrap();
        assert!((d - cosine_distance(&[0.6, 0.8], &[1.0, 0.0])).abs() < 1e-6, "{d}");
    }

    #[test]
    fn a_store_with_a_vec0_table_keeps_its_vectors() {
        let mut conn = crate::store::sqlite::memory_db();
        conn.execute_batch(
            "CREATE VIRTUAL TABLE memory_vectors USING vec0(embedding float[2] distance_metric=cosine, active integer);
             CREATE VIRTUAL TABLE memory_vectors_next USING vec0(embedding float[2] distance_metric=cosine, active integer);",
        )
        .unwrap();
        for (rowid, v, active) in [(1, [1.0f32, 0.0], 1), (2, [0.8, 0.6], 0), (3, [0.0, 1.0], 1)] {
            conn.execute(
                "INSERT INTO memory_vectors (rowid, embedding, active) VALUES (?1, ?2, ?3)",
                params![rowid, to_blob(&v), active],
            )
            .unwrap();
        }
        super::super::set_meta(&conn, MetaKey::ReembedTarget, "x/2").unwrap();
        convert_from_vec0(&mut conn).unwrap();
        assert!(!table_exists(&conn, "memory_vectors").unwrap());
        assert!(!table_exists(&conn, "memory_vectors_next").unwrap());
        assert_eq!(super::super::meta(&conn, MetaKey::ReembedTarget).unwrap(), None);
        let rows: Vec<(i64, bool, Vec<u8>)> = conn
            .prepare("SELECT rowid, active, embedding FROM vectors ORDER BY rowid")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        assert_eq!(rows.len(), 3);
        assert_eq!(from_blob(&rows[1].2), vec![0.8, 0.6]);
        assert!(!rows[1].1);
        let mut index = VectorIndex::default();
        assert_eq!(
            ids(&nearest(
                &conn,
                &mut index,
                &[0.9, 0.5],
                3,
                Pool::Search(3),
                &MemoryFilter::default()
            )
            .unwrap()),
            vec![1, 3]
        );
        // Converting again is a no-op.
        convert_from_vec0(&mut conn).unwrap();
        assert_eq!(
            ids(&nearest(
                &conn,
                &mut index,
                &[0.9, 0.5],
                3,
                Pool::Search(3),
                &MemoryFilter::default()
            )
            .unwrap()),
            vec![1, 3]
        );
    }
}
