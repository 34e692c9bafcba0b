//! Hybrid search: sqlite-vec KNN and FTS5 BM25 fused by weighted reciprocal rank fusion.

use std::collections::HashMap;

use rusqlite::Connection;

use crate::Result;
use crate::model::{FoundBy, MemoryStatus, SearchHit, SearchMode};
use crate::store::{fts, memories, vectors};

/// RRF constant: how much the first ranks dominate.
const RRF_K: f64 = 60.0;
/// Weight of the vector ranking in the fusion.
const VECTOR_WEIGHT: f64 = 1.0;
/// Weight of the BM25 ranking in the fusion.
const LEXICAL_WEIGHT: f64 = 1.0;

/// How many candidates each signal contributes to a fused top `n`.
fn candidates(n: usize) -> usize {
    n.saturating_mul(4).max(40)
}

/// Runs a search. `query_vector` is required for `hybrid` and `vector` (without it those
/// modes fall back to lexical ranking).
pub(crate) fn run(
    conn: &Connection,
    query: &str,
    query_vector: Option<&[f32]>,
    mode: SearchMode,
    n: usize,
) -> Result<Vec<SearchHit>> {
    let has_table = vectors::exists(conn)?;
    let vector_hits = match (mode, query_vector) {
        (SearchMode::Hybrid, Some(v)) if has_table => vectors::nearest(conn, v, candidates(n))?,
        (SearchMode::Vector, Some(v)) if has_table => vectors::nearest(conn, v, n)?,
        _ => Vec::new(),
    };
    let lexical_hits = match mode {
        SearchMode::Hybrid => fts::search(conn, query, candidates(n))?,
        SearchMode::Lexical => fts::search(conn, query, n)?,
        SearchMode::Vector => Vec::new(),
    };
    #[derive(Default)]
    struct Fused {
        score: f64,
        distance: Option<f64>,
        bm25: Option<f64>,
    }
    let mut fused: HashMap<i64, Fused> = HashMap::new();
    for (rank, (rowid, distance)) in vector_hits.iter().enumerate() {
        let entry = fused.entry(*rowid).or_default();
        entry.distance = Some(*distance);
        entry.score += match mode {
            SearchMode::Vector => 1.0 - distance,
            _ => VECTOR_WEIGHT / (RRF_K + rank as f64 + 1.0),
        };
    }
    for (rank, (rowid, bm25)) in lexical_hits.iter().enumerate() {
        let entry = fused.entry(*rowid).or_default();
        entry.bm25 = Some(*bm25);
        entry.score += match mode {
            SearchMode::Lexical => -bm25,
            _ => LEXICAL_WEIGHT / (RRF_K + rank as f64 + 1.0),
        };
    }
    let mut ranked: Vec<(i64, Fused)> = fused.into_iter().collect();
    ranked.sort_by(|a, b| b.1.score.total_cmp(&a.1.score).then(a.0.cmp(&b.0)));
    ranked.truncate(n);
    let records = memories::by_rowids(conn, &ranked.iter().map(|r| r.0).collect::<Vec<_>>())?;
    Ok(ranked
        .into_iter()
        .filter_map(|(rowid, f)| {
            let memory = records.get(&rowid)?.clone();
            (memory.status == MemoryStatus::Active).then_some(SearchHit {
                memory,
                score: f.score,
                found_by: match (f.distance, f.bm25) {
                    (Some(_), Some(_)) => FoundBy::Both,
                    (Some(_), None) => FoundBy::Vector,
                    _ => FoundBy::Lexical,
                },
                distance: f.distance,
                bm25: f.bm25,
            })
        })
        .collect())
}
