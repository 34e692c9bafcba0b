//! Which query terms a full-text search ranks on a large store, the same on every backend.
//!
//! Ranking costs time for every memory that matches, so once the store is larger than
//! [`RANKED_ROWS`] memories the terms found in more than that many memories in all are left
//! out, commonest first (they weigh least in BM25 anyway). When every term is that common,
//! the memories holding the two rarest together are ranked; a single such term gives the
//! newest memories holding it.

/// Matching memories in all above which a search leaves its commonest terms out.
pub(crate) const RANKED_ROWS: i64 = 2_000;

/// What a search ranks, by position in its list of terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TermChoice {
    /// These terms (every one of them, on a small store).
    Any(Vec<usize>),
    /// The memories holding both of these two terms.
    Both(usize, usize),
    /// The newest memories holding this term.
    Newest(usize),
}

/// The choice for terms held by `frequencies` memories each, on a store of `size` (its
/// largest row number).
pub(crate) fn choose(frequencies: &[i64], size: i64) -> TermChoice {
    if size <= RANKED_ROWS {
        return TermChoice::Any((0..frequencies.len()).collect());
    }
    let mut order: Vec<usize> = (0..frequencies.len()).collect();
    order.sort_by_key(|&i| frequencies[i]);
    let mut chosen = Vec::new();
    let mut rows = 0;
    for &i in &order {
        if rows + frequencies[i] <= RANKED_ROWS {
            rows += frequencies[i];
            chosen.push(i);
        }
    }
    match (chosen.is_empty(), order.as_slice()) {
        (false, _) => {
            chosen.sort_unstable();
            TermChoice::Any(chosen)
        }
        (true, [first, second, ..]) => TermChoice::Both(*first, *second),
        (true, [only]) => TermChoice::Newest(*only),
        (true, []) => TermChoice::Any(Vec::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_terms_are_left_out_of_a_large_store_only() {
        assert_eq!(choose(&[1_500, 10, 900], 1_000), TermChoice::Any(vec![0, 1, 2]));
        assert_eq!(choose(&[1_500, 10, 900], 5_000), TermChoice::Any(vec![1, 2]));
        assert_eq!(choose(&[2_500, 3_000, 9_000], 5_000), TermChoice::Both(0, 1));
        assert_eq!(choose(&[2_500], 5_000), TermChoice::Newest(0));
    }
}
