//! Related-memory lookup: top-k per new content within the distance cutoff, union by id.

use std::collections::{BTreeSet, HashMap};

use crate::config::MergeSettings;
use crate::error::Result;
use crate::store::{Pool, Reader};
use crate::types::{MemoryAttributes, MemoryFilter, RelatedItem};

/// A related memory and the index of the first new content that found it.
#[derive(Debug, Clone)]
pub(crate) struct Found {
    pub item: RelatedItem,
    pub first_input: usize,
    /// The memory's attributes and time, for the attributes of what replaces it.
    pub attributes: MemoryAttributes,
    pub timestamp_ms: i64,
    /// Pinned by a person: replacing it waits for review.
    pub pinned: bool,
}

/// Distance between two texts by their word sets: 1 − Jaccard similarity. Used when the
/// store has no vectors.
pub(crate) fn lexical_distance(a: &str, b: &str) -> f64 {
    let a: BTreeSet<String> = crate::text::terms::words(a).into_iter().collect();
    let b: BTreeSet<String> = crate::text::terms::words(b).into_iter().collect();
    let union = a.union(&b).count();
    if union == 0 {
        return 1.0;
    }
    1.0 - a.intersection(&b).count() as f64 / union as f64
}

/// Looks up the active memories related to each input: by vector when `vectors` is given,
/// else by words. Union by id in first-seen order, each with its smallest distance.
///
/// An add about a user (`user`) relates only to that user's memories: it never rewrites,
/// replaces or counts as known another user's memory, or one about no one, in a shared
/// store. An add that names no user relates to any memory (HAEMA's behaviour), and the
/// agents and sessions of one user share what they know.
pub(crate) fn lookup(
    conn: &dyn Reader,
    inputs: &[String],
    query_vectors: Option<&[Vec<f32>]>,
    merge: MergeSettings,
    user: Option<&str>,
) -> Result<Vec<Found>> {
    let filter = MemoryFilter {
        user_id: user.map(str::to_owned),
        ..MemoryFilter::default()
    };
    let mut per_input: Vec<Vec<(i64, f64)>> = Vec::with_capacity(inputs.len());
    // Any number is allowed (as in HAEMA); more than a search ever returns changes nothing.
    let merge = MergeSettings {
        top_k: merge.top_k.min(crate::search::MAX_HITS),
        ..merge
    };
    match query_vectors {
        Some(vectors_of_inputs) => {
            for vector in vectors_of_inputs {
                let hits = conn
                    .search()
                    .nearest(vector, merge.top_k, Pool::Close(merge.top_k), &filter)?;
                per_input.push(hits.into_iter().filter(|(_, d)| *d <= merge.distance_cutoff).collect());
            }
        }
        None => {
            for input in inputs {
                let candidates = conn
                    .search()
                    .full_text_any(input, merge.top_k.saturating_mul(4), &filter)?;
                let texts = conn
                    .memories()
                    .by_rowids(&candidates.iter().map(|c| c.0).collect::<Vec<_>>())?;
                let mut hits: Vec<(i64, f64)> = candidates
                    .iter()
                    .filter_map(|(rowid, _)| texts.get(rowid).map(|m| (*rowid, lexical_distance(input, &m.content))))
                    .filter(|(_, d)| *d <= merge.distance_cutoff)
                    .collect();
                hits.sort_by(|a, b| a.1.total_cmp(&b.1));
                hits.truncate(merge.top_k);
                per_input.push(hits);
            }
        }
    }
    let rowids: Vec<i64> = per_input.iter().flatten().map(|h| h.0).collect();
    let records = conn.memories().by_rowids(&rowids)?;
    let mut found: Vec<Found> = Vec::new();
    let mut position: HashMap<i64, usize> = HashMap::new();
    for (input_index, hits) in per_input.iter().enumerate() {
        for (rowid, distance) in hits {
            let Some(record) = records.get(rowid) else {
                continue;
            };
            if record.content.trim().is_empty() || user.is_some() && record.attributes.user_id.as_deref() != user {
                continue;
            }
            match position.get(rowid) {
                Some(&at) => {
                    let item = &mut found[at].item;
                    item.distance = Some(item.distance.map_or(*distance, |d| d.min(*distance)));
                }
                None => {
                    position.insert(*rowid, found.len());
                    found.push(Found {
                        item: RelatedItem {
                            memory_id: record.id.clone(),
                            content: record.content.clone(),
                            distance: Some(*distance),
                            kept: false,
                        },
                        first_input: input_index,
                        attributes: record.attributes.clone(),
                        timestamp_ms: record.timestamp_ms,
                        pinned: record.pinned,
                    });
                }
            }
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexical_distance_is_word_jaccard() {
        assert_eq!(lexical_distance("likes green tea", "Likes green tea!"), 0.0);
        assert!((lexical_distance("a b", "b c") - (1.0 - 1.0 / 3.0)).abs() < 1e-9);
        assert_eq!(lexical_distance("", "..."), 1.0);
    }
}
