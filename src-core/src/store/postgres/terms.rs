//! Full-text search with BM25, as SQLite's FTS5 ranks it, on PostgreSQL.
//!
//! PostgreSQL's own ranking (`ts_rank`) has no inverse document frequency, which is most of
//! what makes BM25 good at finding the memory that holds a query's rare words, and fusion
//! is tuned on BM25. So haema makes the index itself: each active memory's words, split
//! and stemmed in Rust exactly as a query's are, are stored as a `tsvector` with their
//! positions (a GIN index finds the memories holding a word), and the number of active
//! memories holding each term is kept exact by every write (`term_counts`). A search
//! scores the memories holding any query term in SQL with FTS5's formula (k1 = 1.2,
//! b = 0.75): scores are on the same scale on both backends.

use rust_stemmers::{Algorithm, Stemmer};

use super::client::Conn;
use super::filter::{Values, conditions};
use super::memories::to_i64;
use crate::Result;
use crate::search::terms::words;
use crate::store::backend::Ranked;
use crate::store::term_choice::{self, RANKED_ROWS, TermChoice};
use crate::types::MemoryFilter;

/// Words longer than this (in bytes) are not indexed (PostgreSQL refuses lexemes of 2 KB).
const LONGEST_WORD: usize = 256;
/// Positions kept per term (a `tsvector` holds at most 256) and the last position.
const POSITIONS_PER_TERM: usize = 256;
const LAST_POSITION: usize = 16_383;

/// The stemmed terms of `text`, in order, as the index and the queries make them.
fn terms(text: &str) -> Vec<String> {
    static ENGLISH: std::sync::LazyLock<Stemmer> = std::sync::LazyLock::new(|| Stemmer::create(Algorithm::English));
    words(text)
        .into_iter()
        .filter(|w| w.len() <= LONGEST_WORD)
        .map(|w| ENGLISH.stem(&w).into_owned())
        .collect()
}

/// A lexeme quoted for a `tsvector` or `tsquery` literal.
fn quoted(term: &str) -> String {
    format!("'{}'", term.replace('\\', "\\\\").replace('\'', "''"))
}

/// The `tsvector` literal of `text` (terms with their positions), its distinct terms and
/// how many words it has.
fn document(text: &str) -> (String, Vec<String>, i32) {
    let all = terms(text);
    let mut positions: std::collections::BTreeMap<&str, Vec<usize>> = std::collections::BTreeMap::new();
    for (i, term) in all.iter().enumerate() {
        let at = positions.entry(term.as_str()).or_default();
        if at.len() < POSITIONS_PER_TERM {
            at.push((i + 1).min(LAST_POSITION));
        }
    }
    let literal = positions
        .iter()
        .map(|(term, at)| {
            let list = at.iter().map(ToString::to_string).collect::<Vec<_>>().join(",");
            format!("{}:{list}", quoted(term))
        })
        .collect::<Vec<_>>()
        .join(" ");
    let distinct = positions.keys().map(|t| (*t).to_owned()).collect();
    (literal, distinct, i32::try_from(all.len()).unwrap_or(i32::MAX))
}

/// Indexes the text of memory `rowid` (again, when it was indexed already).
pub(super) fn index(conn: &Conn, rowid: i64, content: &str) -> Result<()> {
    unindex(conn, rowid)?;
    let (literal, distinct, count) = document(content);
    if distinct.is_empty() {
        return Ok(());
    }
    conn.execute(
        "UPDATE memories SET terms = $2::text::tsvector, term_count = $3 WHERE rowid = $1",
        &[&rowid, &literal, &count],
    )?;
    conn.execute(
        "INSERT INTO term_counts (term, memories) SELECT unnest($1::text[]), 1
         ON CONFLICT (term) DO UPDATE SET memories = term_counts.memories + 1",
        &[&distinct],
    )?;
    conn.execute(
        "UPDATE term_totals SET memories = memories + 1, words = words + $1",
        &[&i64::from(count)],
    )?;
    Ok(())
}

/// Removes memory `rowid` from the index (nothing when it is not in it).
pub(super) fn unindex(conn: &Conn, rowid: i64) -> Result<()> {
    let Some(row) = conn.query_opt(
        "SELECT tsvector_to_array(terms), coalesce(term_count, 0) FROM memories WHERE rowid = $1 AND terms IS NOT NULL",
        &[&rowid],
    )?
    else {
        return Ok(());
    };
    let (distinct, count): (Vec<String>, i32) = (row.try_get(0)?, row.try_get(1)?);
    conn.execute(
        "UPDATE memories SET terms = NULL, term_count = NULL WHERE rowid = $1",
        &[&rowid],
    )?;
    conn.execute(
        "UPDATE term_counts SET memories = memories - 1 WHERE term = ANY($1::text[])",
        &[&distinct],
    )?;
    conn.execute(
        "DELETE FROM term_counts WHERE term = ANY($1::text[]) AND memories <= 0",
        &[&distinct],
    )?;
    conn.execute(
        "UPDATE term_totals SET memories = greatest(memories - 1, 0), words = greatest(words - $1, 0)",
        &[&i64::from(count)],
    )?;
    Ok(())
}

/// The `k` best BM25 matches of any word of `words` (query words, not yet stemmed) among
/// active memories that pass `filter`: `(rowid, bm25)`, best (lowest) first. On a large
/// store the commonest terms are left out as on SQLite ([`term_choice`]) unless `every_term`.
pub(super) fn search(
    conn: &Conn,
    words: &[String],
    k: usize,
    filter: &MemoryFilter,
    every_term: bool,
) -> Result<Ranked> {
    let mut wanted: Vec<String> = words.iter().flat_map(|w| terms(w)).collect();
    wanted.sort();
    wanted.dedup();
    if wanted.is_empty() || k == 0 {
        return Ok(Vec::new());
    }
    let size: i64 = conn
        .query_one("SELECT coalesce(max(rowid), 0) FROM memories", &[])?
        .try_get(0)?;
    let frequencies: Vec<i64> = if size <= RANKED_ROWS || every_term {
        vec![0; wanted.len()]
    } else {
        let rows = conn.query(
            "SELECT t.term, coalesce(c.memories, 0) FROM unnest($1::text[]) AS t(term)
             LEFT JOIN term_counts c ON c.term = t.term",
            &[&wanted],
        )?;
        let counts: std::collections::HashMap<String, i64> = rows
            .iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
            .collect::<Result<_>>()?;
        wanted.iter().map(|t| counts.get(t).copied().unwrap_or(0)).collect()
    };
    let size = if every_term { 0 } else { size };
    let (chosen, joined, newest) = match term_choice::choose(&frequencies, size) {
        TermChoice::Any(chosen) => (chosen, " | ", false),
        TermChoice::Both(a, b) => (vec![a, b], " & ", false),
        TermChoice::Newest(only) => (vec![only], "", true),
    };
    let wanted: Vec<String> = chosen.into_iter().map(|i| wanted[i].clone()).collect();
    if wanted.is_empty() {
        return Ok(Vec::new());
    }
    let query = wanted.iter().map(|t| quoted(t)).collect::<Vec<_>>().join(joined);
    let order = if newest { "m.rowid DESC" } else { "score, m.rowid" };
    let mut values = Values::default();
    let (terms_at, query_at) = (values.push(wanted), values.push(query));
    let passing = conditions(filter, &mut values);
    let limit = values.push(to_i64(k));
    // FTS5's BM25: idf = ln((N - n + 0.5) / (n + 0.5)), at least 1e-6; lower is better.
    let sql = format!(
        "WITH totals AS (SELECT greatest(memories, 1)::float8 AS n,
                                greatest(words::float8 / greatest(memories, 1), 1) AS avg_len FROM term_totals),
              q AS (SELECT c.term, greatest(ln((t.n - c.memories + 0.5) / (c.memories + 0.5)), 1e-6) AS idf
                    FROM term_counts c, totals t WHERE c.term = ANY({terms_at}::text[]))
         SELECT m.rowid,
                -sum(q.idf * (cardinality(u.positions) * 2.2)
                     / (cardinality(u.positions) + 1.2 * (0.25 + 0.75 * m.term_count / t.avg_len)))::float8 AS score
         FROM memories m CROSS JOIN totals t, unnest(m.terms) AS u(lexeme, positions, weights) JOIN q ON q.term = u.lexeme
         WHERE m.terms @@ {query_at}::text::tsquery AND m.status = 'active'{passing}
         GROUP BY m.rowid ORDER BY {order} LIMIT {limit}::bigint"
    );
    conn.query(&sql, &values.as_params())?
        .iter()
        .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
        .collect()
}

/// The `k` best matches of any word of `text`, every word counted however common.
pub(super) fn search_text(conn: &Conn, text: &str, k: usize, filter: &MemoryFilter) -> Result<Ranked> {
    search(conn, &words(text), k, filter, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_are_stemmed_terms_with_positions_quoted_safely() {
        let (literal, distinct, count) = document("Running runs; O'Brien's café \\ run");
        assert_eq!(count, 7);
        assert_eq!(distinct, ["brien", "café", "o", "run", "s"]);
        assert_eq!(literal, "'brien':4 'café':6 'o':3 'run':1,2,7 's':5");
        assert_eq!(quoted("it's"), "'it''s'");
        assert_eq!(quoted("a\\b"), "'a\\\\b'");
    }
}
