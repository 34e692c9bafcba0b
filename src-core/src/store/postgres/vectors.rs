//! Vectors in pgvector: the live table `vectors` with an HNSW index (cosine) over the
//! active ones, and `vectors_next`, which a re-embedding fills before it takes the live
//! one's place. Both are made with the store's dimension, so they exist only in a store
//! searched by meaning.

use std::collections::HashMap;

use pgvector::Vector;

use super::client::Conn;
use super::filter::{Values, conditions};
use super::memories::to_i64;
use crate::error::Result;
use crate::store::backend::{Pool, Ranked, Unembedded};
use crate::types::MemoryFilter;

/// The live table.
pub(super) const TABLE: &str = "vectors";
/// The table `haema reembed` fills before it replaces the live one.
pub(super) const STAGING: &str = "vectors_next";

/// The most dimensions pgvector's HNSW index takes on a `vector` column: a store with
/// longer vectors (3,072 for OpenAI's large model and Gemini's) is searched exactly.
const INDEXED_DIMS: usize = 2_000;

/// Table `name` (one of [`TABLE`], [`STAGING`]) in the store's own schema: never a table
/// of that name elsewhere on the search path (an app's `public.vectors`).
pub(super) fn qualified(conn: &Conn, name: &str) -> String {
    format!("{}.{name}", super::migrations::quoted(conn.schema()))
}

/// Whether table `name` (one of [`TABLE`], [`STAGING`]) exists in the store's schema.
pub(super) fn table_exists(conn: &Conn, name: &str) -> Result<bool> {
    Ok(conn
        .query_one(
            "SELECT EXISTS (SELECT 1 FROM pg_tables WHERE schemaname = $1 AND tablename = $2)",
            &[&conn.schema(), &name],
        )?
        .try_get(0)?)
}

/// Makes table `name` for vectors of `dims` dimensions (without its search index).
pub(super) fn create_table(conn: &Conn, name: &str, dims: usize) -> Result<()> {
    let dims = dims.clamp(1, 16_000);
    conn.batch(&format!(
        "CREATE TABLE IF NOT EXISTS {} (
             rowid     BIGINT PRIMARY KEY,
             active    BOOLEAN NOT NULL,
             embedding vector({dims}) NOT NULL
         )",
        qualified(conn, name)
    ))
}

/// The HNSW index of the live table's active vectors (cosine distance), when their length
/// allows one.
fn create_index(conn: &Conn) -> Result<()> {
    let dims: i32 = conn
        .query_one(
            "SELECT a.atttypmod FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
             JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname = $1 AND c.relname = $2 AND a.attname = 'embedding'",
            &[&conn.schema(), &TABLE],
        )?
        .try_get(0)?;
    if usize::try_from(dims).unwrap_or(usize::MAX) > INDEXED_DIMS {
        return Ok(());
    }
    conn.batch(&format!(
        "CREATE INDEX IF NOT EXISTS vectors_hnsw ON {} USING hnsw (embedding vector_cosine_ops) WHERE active",
        qualified(conn, TABLE)
    ))
}

/// Makes the live table and its index.
pub(super) fn create(conn: &Conn, dims: usize) -> Result<()> {
    create_table(conn, TABLE, dims)?;
    create_index(conn)
}

pub(super) fn drop_table(conn: &Conn, name: &str) -> Result<()> {
    conn.batch(&format!("DROP TABLE IF EXISTS {}", qualified(conn, name)))
}

/// Stores the vector of memory `rowid` in table `name`, active or not.
pub(super) fn insert(conn: &Conn, name: &str, rowid: i64, vector: &[f32], active: bool) -> Result<()> {
    conn.execute(
        &format!(
            "INSERT INTO {} (rowid, active, embedding) VALUES ($1, $2, $3)
             ON CONFLICT (rowid) DO UPDATE SET active = excluded.active, embedding = excluded.embedding",
            qualified(conn, name)
        ),
        &[&rowid, &active, &Vector::from(vector.to_vec())],
    )?;
    Ok(())
}

/// Marks a live vector active or not; false when memory `rowid` has none.
pub(super) fn set_active(conn: &Conn, rowid: i64, active: bool) -> Result<bool> {
    let sql = format!("UPDATE {} SET active = $2 WHERE rowid = $1", qualified(conn, TABLE));
    Ok(conn.execute(&sql, &[&rowid, &active])? > 0)
}

/// Up to `limit` memories (active or superseded) without a vector in table `name`, by row.
pub(super) fn without_vector(conn: &Conn, name: &str, limit: usize) -> Result<Vec<Unembedded>> {
    conn.query(
        &format!(
            "SELECT m.rowid, m.content, m.status = 'active' FROM memories m
             WHERE m.status IN ('active', 'superseded') AND NOT EXISTS (SELECT 1 FROM {} v WHERE v.rowid = m.rowid)
             ORDER BY m.rowid LIMIT $1",
            qualified(conn, name)
        ),
        &[&to_i64(limit)],
    )?
    .iter()
    .map(|r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?)))
    .collect()
}

/// How many memories (active or superseded) lack a live vector.
pub(super) fn missing_count(conn: &Conn) -> Result<usize> {
    let n: i64 = conn
        .query_one(
            &format!(
                "SELECT count(*) FROM memories m WHERE m.status IN ('active', 'superseded')
                   AND NOT EXISTS (SELECT 1 FROM {} v WHERE v.rowid = m.rowid)",
                qualified(conn, TABLE)
            ),
            &[],
        )?
        .try_get(0)?;
    Ok(usize::try_from(n).unwrap_or(0))
}

/// `Some(active)` when memory `rowid` (active or superseded) lacks a live vector.
pub(super) fn still_missing(conn: &Conn, rowid: i64) -> Result<Option<bool>> {
    Ok(conn
        .query_opt(
            &format!(
                "SELECT m.status = 'active' FROM memories m
                 WHERE m.rowid = $1 AND m.status IN ('active', 'superseded')
                   AND NOT EXISTS (SELECT 1 FROM {} v WHERE v.rowid = $1)",
                qualified(conn, TABLE)
            ),
            &[&rowid],
        )?
        .map(|r| r.try_get(0))
        .transpose()?)
}

/// `(total, staged)` memories of a re-embedding.
pub(super) fn staging_progress(conn: &Conn) -> Result<(usize, usize)> {
    let row = conn.query_one(
        &format!(
            "SELECT count(*), count(*) FILTER (WHERE EXISTS (SELECT 1 FROM {} v WHERE v.rowid = m.rowid))
             FROM memories m WHERE m.status IN ('active', 'superseded')",
            qualified(conn, STAGING)
        ),
        &[],
    )?;
    let (total, staged): (i64, i64) = (row.try_get(0)?, row.try_get(1)?);
    Ok((
        usize::try_from(total).unwrap_or(0),
        usize::try_from(staged).unwrap_or(0),
    ))
}

/// Makes the staged vectors the live ones (active as their memories are now) and indexes
/// them.
pub(super) fn promote_staging(conn: &Conn) -> Result<()> {
    drop_table(conn, TABLE)?;
    let (staging, live) = (qualified(conn, STAGING), qualified(conn, TABLE));
    let schema = super::migrations::quoted(conn.schema());
    conn.batch(&format!(
        "ALTER TABLE {staging} RENAME TO {TABLE};
         ALTER INDEX IF EXISTS {schema}.vectors_next_pkey RENAME TO vectors_pkey;
         UPDATE {live} v SET active = (m.status = 'active') FROM memories m WHERE m.rowid = v.rowid;
         DELETE FROM {live} v WHERE NOT EXISTS (SELECT 1 FROM memories m WHERE m.rowid = v.rowid);"
    ))?;
    create_index(conn)
}

/// How many candidates the HNSW search keeps (`hnsw.ef_search`, at most 1,000).
fn search_breadth(k: usize, pool: Pool) -> i64 {
    let wanted = match pool {
        Pool::Search(n) => 4 * n.max(k),
        Pool::Close(top) => 2 * top.max(k),
    };
    to_i64(wanted.clamp(40, 1_000))
}

/// The `k` active memories nearest to `query` that pass `filter`, by the HNSW index.
pub(super) fn nearest(conn: &Conn, query: &[f32], k: usize, pool: Pool, filter: &MemoryFilter) -> Result<Ranked> {
    if k == 0 || !table_exists(conn, TABLE)? {
        return Ok(Vec::new());
    }
    conn.execute(
        "SELECT set_config('hnsw.ef_search', $1, true), set_config('hnsw.iterative_scan', 'relaxed_order', true)",
        &[&search_breadth(k, pool).to_string()],
    )?;
    let mut values = Values::default();
    let query = values.push(Vector::from(query.to_vec()));
    let (join, passing) = if filter.is_empty() {
        (String::new(), String::new())
    } else {
        (
            " JOIN memories m ON m.rowid = v.rowid".to_owned(),
            conditions(filter, &mut values),
        )
    };
    let limit = values.push(to_i64(k));
    let table = qualified(conn, TABLE);
    let ranked = |order: &str| -> Result<Ranked> {
        let sql = format!(
            "SELECT v.rowid, (v.embedding <=> {query}::vector)::float8 FROM {table} v{join}
             WHERE v.active{passing} ORDER BY {order} LIMIT {limit}::bigint"
        );
        let mut hits: Ranked = conn
            .query(&sql, &values.as_params())?
            .iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
            .collect::<Result<_>>()?;
        hits.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        Ok(hits)
    };
    let hits = ranked(&format!("v.embedding <=> {query}::vector"))?;
    // A filter that few memories pass can leave the index's scan short (it stops after
    // `hnsw.max_scan_tuples`): then the passing memories are ranked exactly, as on SQLite.
    if hits.len() < k && !filter.is_empty() {
        return ranked(&format!("(v.embedding <=> {query}::vector) + 0"));
    }
    Ok(hits)
}

/// The exact `k` nearest active memories: every vector read, no index.
pub(super) fn nearest_exact(conn: &Conn, query: &[f32], k: usize) -> Result<Ranked> {
    if k == 0 || !table_exists(conn, TABLE)? {
        return Ok(Vec::new());
    }
    conn.query(
        &format!(
            "SELECT rowid, d FROM (SELECT rowid, (embedding <=> $1::vector)::float8 + 0 AS d FROM {} WHERE active) all_active
             ORDER BY d, rowid LIMIT $2",
            qualified(conn, TABLE)
        ),
        &[&Vector::from(query.to_vec()), &to_i64(k)],
    )?
    .iter()
    .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
    .collect()
}

/// The cosine distance of `query` to each of these memories that has a vector.
pub(super) fn distances(conn: &Conn, query: &[f32], rowids: &[i64]) -> Result<HashMap<i64, f64>> {
    if rowids.is_empty() || !table_exists(conn, TABLE)? {
        return Ok(HashMap::new());
    }
    conn.query(
        &format!(
            "SELECT rowid, (embedding <=> $1::vector)::float8 FROM {} WHERE rowid = ANY($2::bigint[])",
            qualified(conn, TABLE)
        ),
        &[&Vector::from(query.to_vec()), &rowids],
    )?
    .iter()
    .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
    .collect()
}

/// Every vector of the live table: `(rowid, vector)`, by row.
pub(super) fn all(conn: &Conn) -> Result<Vec<(i64, Vec<f32>)>> {
    if !table_exists(conn, TABLE)? {
        return Ok(Vec::new());
    }
    conn.query(
        &format!("SELECT rowid, embedding FROM {} ORDER BY rowid", qualified(conn, TABLE)),
        &[],
    )?
    .iter()
    .map(|r| Ok((r.try_get(0)?, r.try_get::<_, Vector>(1)?.to_vec())))
    .collect()
}
