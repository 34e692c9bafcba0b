//! Readable scores: how well a memory matches a query, from 0 to 1, on a scale that means the
//! same for every query (so a `min_score` does too).
//!
//! The order of hits comes from the fused score ([`super::fusion`]), which scales each signal
//! over the candidates of one search: good for ranking, but the best candidate of a search
//! always scores high however poor it is. The readable score instead uses what each signal
//! says on its own:
//!
//! - the **similarity** of the memory's vector to the query's (cosine, below 0 counted as 0);
//! - the **share** of the query's words the memory holds: the content words (function words
//!   aside, unless the query has nothing else), compared by their English stems as the
//!   full-text index compares them, so "allergies" finds "allergy".
//!
//! `vector` mode gives the similarity, `lexical` mode the share, and `hybrid` lets either
//! vouch for the memory: `1 − (1 − similarity) × (1 − share)`.

use std::collections::HashSet;
use std::sync::LazyLock;

use rust_stemmers::{Algorithm, Stemmer};

use crate::types::SearchMode;

static ENGLISH: LazyLock<Stemmer> = LazyLock::new(|| Stemmer::create(Algorithm::English));

/// The stems of the query's words ([`crate::text::terms::query_words`]), distinct.
pub(crate) fn query_stems(query: &str) -> Vec<String> {
    let mut stems: Vec<String> = crate::text::terms::query_words(query)
        .iter()
        .map(|w| ENGLISH.stem(w).into_owned())
        .collect();
    stems.sort();
    stems.dedup();
    stems
}

/// The share (0 to 1) of `query_stems` that `text` holds; 0 for a query without words.
pub(crate) fn word_share(query_stems: &[String], text: &str) -> f64 {
    if query_stems.is_empty() {
        return 0.0;
    }
    let held: HashSet<String> = crate::text::terms::words(text)
        .iter()
        .map(|w| ENGLISH.stem(w).into_owned())
        .collect();
    let found = query_stems.iter().filter(|s| held.contains(*s)).count();
    found as f64 / query_stems.len() as f64
}

/// A cosine distance as a similarity from 0 to 1.
pub(crate) fn similarity(distance: f64) -> f64 {
    (1.0 - distance).clamp(0.0, 1.0)
}

/// The readable score of a hit in `mode`, from its similarity (when it has a vector) and the
/// share of the query's words it holds.
pub(crate) fn readable(mode: SearchMode, similarity: Option<f64>, share: f64) -> f64 {
    let score = match (mode, similarity) {
        (SearchMode::Vector, s) => s.unwrap_or(0.0),
        (SearchMode::Lexical, _) | (SearchMode::Hybrid, None) => share,
        (SearchMode::Hybrid, Some(s)) => 1.0 - (1.0 - s) * (1.0 - share),
    };
    score.clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_share_compares_stems_and_leaves_function_words_aside() {
        let stems = query_stems("What are the user's allergies?");
        assert_eq!(stems, ["allergi", "user"]);
        assert!((word_share(&stems, "The user has a peanut allergy") - 1.0).abs() < 1e-12);
        assert!((word_share(&stems, "Allergies run in the family") - 0.5).abs() < 1e-12);
        assert!(word_share(&stems, "The cat sleeps").abs() < 1e-12);
        assert!(word_share(&query_stems(" ... "), "anything").abs() < 1e-12);
    }

    #[test]
    fn each_mode_reads_its_signal_and_hybrid_lets_either_vouch() {
        assert!((readable(SearchMode::Vector, Some(0.7), 1.0) - 0.7).abs() < 1e-12);
        assert!(readable(SearchMode::Vector, None, 1.0).abs() < 1e-12);
        assert!((readable(SearchMode::Lexical, Some(0.9), 0.5) - 0.5).abs() < 1e-12);
        assert!((readable(SearchMode::Hybrid, Some(0.5), 0.5) - 0.75).abs() < 1e-12);
        assert!((readable(SearchMode::Hybrid, None, 0.25) - 0.25).abs() < 1e-12);
        assert!((readable(SearchMode::Hybrid, Some(1.0), 0.0) - 1.0).abs() < 1e-12);
        assert!(similarity(1.4).abs() < 1e-12, "opposite vectors count as 0");
        assert!((similarity(0.0) - 1.0).abs() < 1e-12);
    }
}
