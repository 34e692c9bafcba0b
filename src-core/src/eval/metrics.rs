//! Retrieval metrics over ranked lists of turn ids.
//!
//! Every figure comes from one number per query: the rank of the first retrieved turn that
//! is gold evidence (`None` when none is in the list).
//!
//! - **recall@k** is the hit rate: the share of queries with at least one evidence turn in
//!   the top k, in percent. This is the definition that reproduces the reference figures
//!   (`tools/locomo_baselines.py`); the share of a query's evidence found is a different,
//!   lower number (BM25 on the dev split: 52.5 against 57.9 at k = 10).
//! - **MRR** is the mean of 1 / (rank of the first evidence turn) within the retrieved
//!   list, 0 when none is in it.
//! - Queries without evidence cannot be scored and are left out (two in the dev split).

use std::collections::HashSet;

use serde::Serialize;

/// The 0-based rank of the first entry of `ranked` that holds a gold id. An entry is the
/// set of turn ids of one retrieved memory (several when turns had the same text).
///
/// ```
/// use std::collections::HashSet;
/// use haema_core::eval::metrics::first_hit;
/// let gold = HashSet::from(["D1:3".to_string()]);
/// let ranked = [vec!["D2:1"], vec!["D1:2", "D1:3"]]; // two memories, the second from two turns
/// assert_eq!(first_hit(&ranked, &gold), Some(1));
/// ```
pub fn first_hit<S: AsRef<str>>(ranked: &[Vec<S>], gold: &HashSet<String>) -> Option<usize> {
    ranked
        .iter()
        .position(|ids| ids.iter().any(|id| gold.contains(id.as_ref())))
}

/// Recall@5, recall@10 (percent) and MRR of a set of queries.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct Scores {
    /// Queries scored.
    pub queries: usize,
    /// Recall@5 (hit rate), percent.
    pub r5: f64,
    /// Recall@10 (hit rate), percent.
    pub r10: f64,
    /// Mean reciprocal rank of the first evidence turn, 0 to 1.
    pub mrr: f64,
}

/// Running sums behind [`Scores`].
///
/// ```
/// use haema_core::eval::Tally;
/// let mut tally = Tally::default();
/// tally.add(Some(0)); // evidence at the top
/// tally.add(Some(7)); // in the top 10, not the top 5
/// tally.add(None); // not found
/// let scores = tally.scores();
/// assert_eq!((scores.queries, scores.r5), (3, 100.0 / 3.0));
/// assert_eq!(scores.mrr, (1.0 + 1.0 / 8.0) / 3.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Tally {
    queries: usize,
    hits5: usize,
    hits10: usize,
    reciprocal_ranks: f64,
}

impl Tally {
    /// Adds one query whose first evidence turn is at `first_hit` (0-based).
    pub fn add(&mut self, first_hit: Option<usize>) {
        self.queries += 1;
        if let Some(rank) = first_hit {
            self.hits5 += usize::from(rank < 5);
            self.hits10 += usize::from(rank < 10);
            self.reciprocal_ranks += 1.0 / (rank as f64 + 1.0);
        }
    }

    /// Adds every query of another tally.
    pub fn merge(&mut self, other: &Self) {
        self.queries += other.queries;
        self.hits5 += other.hits5;
        self.hits10 += other.hits10;
        self.reciprocal_ranks += other.reciprocal_ranks;
    }

    /// The figures; all zero for no queries.
    pub fn scores(&self) -> Scores {
        if self.queries == 0 {
            return Scores::default();
        }
        let n = self.queries as f64;
        Scores {
            queries: self.queries,
            r5: 100.0 * self.hits5 as f64 / n,
            r10: 100.0 * self.hits10 as f64 / n,
            mrr: self.reciprocal_ranks / n,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gold(ids: &[&str]) -> HashSet<String> {
        ids.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn first_hit_looks_at_every_id_of_an_entry() {
        let ranked = vec![vec!["a"], vec!["b", "c"], vec!["d"]];
        assert_eq!(first_hit(&ranked, &gold(&["c", "d"])), Some(1));
        assert_eq!(first_hit(&ranked, &gold(&["a"])), Some(0));
        assert_eq!(first_hit(&ranked, &gold(&["z"])), None);
        assert_eq!(first_hit::<&str>(&[], &gold(&["a"])), None);
    }

    #[test]
    fn recall_is_the_hit_rate_and_mrr_the_mean_reciprocal_rank() {
        let mut tally = Tally::default();
        for rank in [Some(0), Some(4), Some(5), Some(9), Some(10), None] {
            tally.add(rank);
        }
        let s = tally.scores();
        assert_eq!(s.queries, 6);
        assert!((s.r5 - 100.0 * 2.0 / 6.0).abs() < 1e-9);
        assert!((s.r10 - 100.0 * 4.0 / 6.0).abs() < 1e-9);
        let mrr = (1.0 + 1.0 / 5.0 + 1.0 / 6.0 + 1.0 / 10.0 + 1.0 / 11.0) / 6.0;
        assert!((s.mrr - mrr).abs() < 1e-12);
        assert_eq!(Tally::default().scores(), Scores::default());
    }

    #[test]
    fn merged_tallies_weigh_every_query_once() {
        let (mut a, mut b) = (Tally::default(), Tally::default());
        a.add(Some(0));
        b.add(None);
        b.add(None);
        b.add(Some(1));
        a.merge(&b);
        let s = a.scores();
        assert_eq!(s.queries, 4);
        assert!((s.r5 - 50.0).abs() < 1e-9);
        assert!((s.mrr - 1.5 / 4.0).abs() < 1e-12);
    }
}
