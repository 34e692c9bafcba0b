//! Search: sqlite-vec KNN and FTS5 BM25, fused by their scaled scores (see [`fusion`]),
//! with the query's content words, the times and the names it mentions.

pub(crate) mod fusion;
pub(crate) mod recall;
pub(crate) mod sanitize;
pub(crate) mod terms;
pub(crate) mod time;

use std::sync::{Arc, PoisonError};

use crate::Result;
use crate::store::vectors::Pool;
use crate::store::{SearchReaders, fts, memories, vectors};
use crate::types::{FoundBy, MemoryStatus, SearchHit, SearchMode};
use fusion::Fused;

/// How many candidates each signal contributes to a top `n`: enough for the time and name
/// bonuses to lift a memory from below the top `n`, and a stable base for scaling scores.
fn candidates(n: usize) -> usize {
    n.max(40)
}

/// Runs a search. `query_vector` is required for `hybrid` and `vector` (without it those
/// modes fall back to lexical ranking).
///
/// `vector` ranks by cosine similarity alone. `lexical` and `hybrid` fuse what they have
/// and add the bonuses for named times and names.
///
/// A hybrid search runs its two signals at once: full text on the second connection
/// (`readers.side`) on its own thread, vectors on this one. Its vector candidates past the
/// top `n` only help scale the scores, so the exact re-rank pool is the one of `n`.
pub(crate) fn run(
    readers: SearchReaders<'_>,
    query: &str,
    query_vector: Option<&[f32]>,
    mode: SearchMode,
    n: usize,
) -> Result<Vec<SearchHit>> {
    let SearchReaders {
        conn,
        index,
        term_stats,
        side,
    } = readers;
    let words = terms::query_words(query);
    let vector = match query_vector.filter(|_| mode != SearchMode::Lexical) {
        Some(v) if vectors::exists(conn)? => Some(v),
        _ => None,
    };
    let k = if mode == SearchMode::Vector { n } else { candidates(n) };
    let full_text = |conn: &crate::store::Conn, words: &[String]| {
        let mut stats = term_stats.lock().unwrap_or_else(PoisonError::into_inner);
        fts::search_terms(conn, &mut stats, words, k)
    };
    let (vector_hits, lexical_hits) = match (mode, vector, side) {
        (SearchMode::Vector, Some(v), _) => (vectors::nearest(conn, index, v, k, Pool::Search(n))?, Vec::new()),
        (SearchMode::Vector, None, _) => (Vec::new(), Vec::new()),
        (_, Some(v), Some(side)) => {
            let stats = Arc::clone(term_stats);
            let lexical = side.start(move |side_conn| {
                let mut stats = stats.lock().unwrap_or_else(PoisonError::into_inner);
                fts::search_terms(side_conn, &mut stats, &words, k)
            });
            let vector_hits = vectors::nearest(conn, index, v, k, Pool::Search(n));
            let lexical_hits = lexical.wait();
            (vector_hits?, lexical_hits?)
        }
        (_, Some(v), None) => (
            vectors::nearest(conn, index, v, k, Pool::Search(n))?,
            full_text(conn, &words)?,
        ),
        (_, None, _) => (Vec::new(), full_text(conn, &words)?),
    };
    let mut ranked: Vec<(i64, Fused)> = if mode == SearchMode::Vector {
        vector_hits
            .iter()
            .map(|&(rowid, distance)| {
                let fused = Fused {
                    score: 1.0 - distance,
                    distance: Some(distance),
                    bm25: None,
                };
                (rowid, fused)
            })
            .collect()
    } else {
        fusion::fuse(&vector_hits, &lexical_hits).into_iter().collect()
    };
    let records = memories::by_rowids(conn, &ranked.iter().map(|r| r.0).collect::<Vec<_>>())?;
    if mode != SearchMode::Vector {
        let spans = time::spans(query);
        let names = terms::names(query);
        for (rowid, fused) in &mut ranked {
            let Some(memory) = records.get(rowid) else { continue };
            if spans.iter().any(|s| s.contains(memory.timestamp_ms)) {
                fused.score += fusion::TIME_BONUS;
            }
            if !names.is_empty() {
                let words = fts::words(&memory.content);
                if names.iter().all(|name| words.contains(name)) {
                    fused.score += fusion::NAME_BONUS;
                }
            }
        }
    }
    ranked.sort_by(|a, b| b.1.score.total_cmp(&a.1.score).then(a.0.cmp(&b.0)));
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
        .take(n)
        .collect())
}
