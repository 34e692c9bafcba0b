//! Search: nearest vectors and BM25 full-text matches from the store, fused by their scaled scores (see [`fusion`]),
//! with the query's content words, the times and the names it mentions.

/// Most hits one search returns, whatever number is asked for (a million: past any store a
/// person reads, and far below what would not fit in memory).
pub(crate) const MAX_HITS: usize = 1_000_000;

pub(crate) mod fusion;
pub(crate) mod names;
pub(crate) mod recall;
pub(crate) mod score;
pub(crate) mod time;

use crate::error::Result;
use crate::store::backend::Signals;
use crate::store::{Pool, Reader};
use crate::types::{FoundBy, MemoryStatus, SearchHit, SearchMode, SearchOptions};
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
/// A hybrid search asks the store for both signals at once
/// ([`crate::store::backend::SearchReads::signals`]). Its vector candidates past the top `n`
/// only help scale the scores, so the pool of the approximate pass is the one of `n`.
///
/// Every hit gets a readable score ([`score`]); a `min_score` leaves out the hits below it
/// before the top `n` is taken. With an `access_weight` above 0, memories returned often
/// before rank higher ([`fusion::access_bonus`]); the readable score stays the match's.
pub(crate) fn run(
    store: &dyn Reader,
    query: &str,
    query_vector: Option<&[f32]>,
    n: usize,
    options: &SearchOptions,
    access_weight: f64,
) -> Result<Vec<SearchHit>> {
    let (mode, filter) = (options.mode, &options.filter);
    let words = crate::text::terms::query_words(query);
    let vector = match query_vector.filter(|_| mode != SearchMode::Lexical) {
        Some(v) if store.vectors().exist()? => Some(v),
        _ => None,
    };
    let k = if mode == SearchMode::Vector { n } else { candidates(n) };
    let Signals {
        vector: vector_hits,
        lexical: lexical_hits,
    } = match (mode, vector) {
        (SearchMode::Vector, Some(v)) => Signals {
            vector: store.search().nearest(v, k, Pool::Search(n), filter)?,
            lexical: Vec::new(),
        },
        (SearchMode::Vector, None) => Signals::default(),
        (_, Some(v)) => store.search().signals(v, &words, k, Pool::Search(n), filter)?,
        (_, None) => Signals {
            vector: Vec::new(),
            lexical: store.search().full_text(&words, k, filter)?,
        },
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
    let records = store
        .memories()
        .by_rowids(&ranked.iter().map(|r| r.0).collect::<Vec<_>>())?;
    if mode != SearchMode::Vector {
        let spans = time::spans(query);
        let names = names::names(query);
        for (rowid, fused) in &mut ranked {
            let Some(memory) = records.get(rowid) else { continue };
            if spans.iter().any(|s| s.contains(memory.timestamp_ms)) {
                fused.score += fusion::TIME_BONUS;
            }
            if !names.is_empty() {
                let words = crate::text::terms::words(&memory.content);
                if names.iter().all(|name| words.contains(name)) {
                    fused.score += fusion::NAME_BONUS;
                }
            }
        }
    }
    if access_weight > 0.0 {
        let stats = store
            .memories()
            .access_stats(&ranked.iter().map(|r| r.0).collect::<Vec<_>>())?;
        for (rowid, fused) in &mut ranked {
            let hits = stats.get(rowid).map_or(0, |s| s.access_count);
            fused.score += fusion::access_bonus(access_weight, hits);
        }
    }
    ranked.sort_by(|a, b| b.1.score.total_cmp(&a.1.score).then(a.0.cmp(&b.0)));
    ranked.retain(|(rowid, _)| records.get(rowid).is_some_and(|m| m.status == MemoryStatus::Active));
    // The similarity of the hits only the full-text signal found, for their readable score:
    // of the top `n` (scores are made lazily below, for the hits returned), or of every
    // candidate when a minimum score may leave some out.
    let scored = if options.min_score.is_some() { ranked.len() } else { n };
    let measured = match vector {
        Some(v) if mode == SearchMode::Hybrid => {
            let unmeasured: Vec<i64> = ranked
                .iter()
                .take(scored)
                .filter(|r| r.1.distance.is_none())
                .map(|r| r.0)
                .collect();
            store.search().distances(v, &unmeasured)?
        }
        _ => std::collections::HashMap::new(),
    };
    let stems = score::query_stems(query);
    Ok(ranked
        .into_iter()
        .filter_map(|(rowid, f)| {
            let memory = records.get(&rowid)?.clone();
            let distance = f.distance.or_else(|| measured.get(&rowid).copied());
            let share = if mode == SearchMode::Vector {
                0.0
            } else {
                score::word_share(&stems, &memory.content)
            };
            let readable = score::readable(mode, distance.map(score::similarity), share);
            (readable >= options.min_score.unwrap_or(0.0)).then_some(SearchHit {
                memory,
                score: readable,
                rank_score: f.score,
                found_by: match (f.distance, f.bm25) {
                    (Some(_), Some(_)) => FoundBy::Both,
                    (Some(_), None) => FoundBy::Vector,
                    _ => FoundBy::Lexical,
                },
                distance,
                bm25: f.bm25,
            })
        })
        .take(n)
        .collect())
}
