//! Exact cosine distances on the float vectors: the full scan that the approximate search
//! is measured against, and the distances of chosen memories (a hybrid search's readable
//! scores).

use std::collections::HashMap;

use rusqlite::{Connection, params};

use super::vectors::{exists, from_blob, to_blob};
use crate::error::Result;

/// The `k` active memories nearest to `query` by a scan of every float vector: the exact
/// answer [`nearest`] is measured against.
pub(crate) fn nearest_exact(conn: &Connection, query: &[f32], k: usize) -> Result<Vec<(i64, f64)>> {
    if k == 0 || !exists(conn)? {
        return Ok(Vec::new());
    }
    let mut stmt = conn.prepare_cached("SELECT rowid, embedding FROM vectors WHERE active = 1")?;
    let mut hits: Vec<(i64, f64)> = stmt
        .query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, Vec<u8>>(1)?)))?
        .map(|row| row.map(|(rowid, blob)| (rowid, cosine_distance(query, &from_blob(&blob)))))
        .collect::<rusqlite::Result<_>>()?;
    hits.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    hits.truncate(k);
    Ok(hits)
}

/// The cosine distance of `query` to each of `rowids` that has a vector.
pub(crate) fn distances(conn: &Connection, query: &[f32], rowids: &[i64]) -> Result<HashMap<i64, f64>> {
    if rowids.is_empty() || !exists(conn)? {
        return Ok(HashMap::new());
    }
    let mut stmt =
        conn.prepare_cached("SELECT rowid, vec_distance_cosine(embedding, ?1) FROM vectors WHERE rowid IN rarray(?2)")?;
    let found = stmt
        .query_map(params![to_blob(query), super::rowid_array(rowids)], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(found)
}

/// 1 − cosine similarity (sqlite-vec's `vec_distance_cosine`); 1 when either vector is zero.
pub(crate) fn cosine_distance(a: &[f32], b: &[f32]) -> f64 {
    let (mut dot, mut na, mut nb) = (0f32, 0f32, 0f32);
    for (x, y) in a.iter().zip(b) {
        dot += x * y;
        na += x * x;
        nb += y * y;
    }
    if na == 0.0 || nb == 0.0 {
        return 1.0;
    }
    1.0 - f64::from(dot) / (f64::from(na).sqrt() * f64::from(nb).sqrt())
}
