//! The FTS5 full-text index of active memories (`memories_fts`, external content).

use rusqlite::{Connection, params};

use super::fts_terms::TermStats;
use crate::error::Result;
use crate::store::term_choice::{self, RANKED_ROWS, TermChoice};
use crate::text::terms::words;
use crate::types::MemoryFilter;

/// Indexes the text of memory `rowid`.
pub(crate) fn insert(conn: &Connection, rowid: i64, content: &str) -> Result<()> {
    conn.execute(
        "INSERT INTO memories_fts (rowid, content) VALUES (?1, ?2)",
        params![rowid, content],
    )?;
    Ok(())
}

/// Removes memory `rowid` from the index; `content` must be the text it was indexed with.
pub(crate) fn delete(conn: &Connection, rowid: i64, content: &str) -> Result<()> {
    conn.execute(
        "INSERT INTO memories_fts (memories_fts, rowid, content) VALUES ('delete', ?1, ?2)",
        params![rowid, content],
    )?;
    Ok(())
}

/// A MATCH expression that finds memories sharing any word with `query`: each word quoted
/// (so FTS5 syntax in user text is inert), joined with OR. `None` when the query has no words.
pub(crate) fn match_expression(query: &str) -> Option<String> {
    let mut terms = words(query);
    terms.sort();
    terms.dedup();
    expression_of(&terms)
}

/// The MATCH expression for any of `terms` (words as [`words`] makes them), each quoted.
pub(crate) fn expression_of(terms: &[String]) -> Option<String> {
    (!terms.is_empty()).then(|| {
        terms
            .iter()
            .map(|t| format!("\"{t}\""))
            .collect::<Vec<_>>()
            .join(" OR ")
    })
}

/// The `k` best BM25 matches of any word of `query` among memories that pass `filter`:
/// `(rowid, bm25)`, best (lowest) first.
pub(crate) fn search(conn: &Connection, query: &str, k: usize, filter: &MemoryFilter) -> Result<Vec<(i64, f64)>> {
    match match_expression(query) {
        Some(expression) => search_expression(conn, &expression, k, filter),
        None => Ok(Vec::new()),
    }
}

/// The `k` best BM25 matches of any of `terms`: `(rowid, bm25)`, best (lowest) first. On a
/// large store the commonest terms are left out ([`term_choice`]: the store's size is its
/// largest rowid, pending and superseded memories counted). Only memories that pass
/// `filter` are matched.
pub(crate) fn search_terms(
    conn: &Connection,
    stats: &mut TermStats,
    terms: &[String],
    k: usize,
    filter: &MemoryFilter,
) -> Result<Vec<(i64, f64)>> {
    if terms.is_empty() || k == 0 {
        return Ok(Vec::new());
    }
    let largest_rowid: Option<i64> = conn.query_row("SELECT max(rowid) FROM memories", [], |r| r.get(0))?;
    let largest_rowid = largest_rowid.unwrap_or(0);
    let frequencies = if largest_rowid <= RANKED_ROWS {
        vec![0; terms.len()]
    } else {
        stats.document_frequencies(conn, terms, largest_rowid)?
    };
    let quoted = |i: usize| format!("\"{}\"", terms[i]);
    match term_choice::choose(&frequencies, largest_rowid) {
        TermChoice::Any(chosen) => {
            let mut chosen: Vec<String> = chosen.into_iter().map(|i| terms[i].clone()).collect();
            chosen.sort();
            match expression_of(&chosen) {
                Some(expression) => search_expression(conn, &expression, k, filter),
                None => Ok(Vec::new()),
            }
        }
        TermChoice::Both(a, b) => search_expression(conn, &format!("{} AND {}", quoted(a), quoted(b)), k, filter),
        TermChoice::Newest(only) => newest_matching(conn, &quoted(only), k, filter),
    }
}

/// The `k` newest memories matching `expression`, with their BM25.
fn newest_matching(conn: &Connection, expression: &str, k: usize, filter: &MemoryFilter) -> Result<Vec<(i64, f64)>> {
    matches(conn, expression, k, "memories_fts.rowid DESC", filter)
}

/// The `k` best BM25 matches of `expression`.
fn search_expression(conn: &Connection, expression: &str, k: usize, filter: &MemoryFilter) -> Result<Vec<(i64, f64)>> {
    matches(conn, expression, k, "rank", filter)
}

/// The first `k` matches of `expression` that pass `filter`, in `order` (a fixed SQL
/// ordering), with their BM25. With a filter the index is joined with the memories, so the
/// ranking only ever sees passing rows.
fn matches(
    conn: &Connection,
    expression: &str,
    k: usize,
    order: &str,
    filter: &MemoryFilter,
) -> Result<Vec<(i64, f64)>> {
    if k == 0 {
        return Ok(Vec::new());
    }
    let limit = i64::try_from(k).unwrap_or(i64::MAX);
    if filter.is_empty() {
        let mut stmt = conn.prepare_cached(&format!(
            "SELECT memories_fts.rowid, bm25(memories_fts) AS rank FROM memories_fts WHERE memories_fts MATCH ?1 ORDER BY {order} LIMIT ?2"
        ))?;
        let rows = stmt.query_map(params![expression, limit], |r| Ok((r.get(0)?, r.get(1)?)))?;
        return Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?);
    }
    let (conditions, values) = super::filter::conditions(filter, 3);
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT memories_fts.rowid, bm25(memories_fts) AS rank FROM memories_fts JOIN memories m ON m.rowid = memories_fts.rowid
         WHERE memories_fts MATCH ?1{conditions} ORDER BY {order} LIMIT ?2"
    ))?;
    let mut all: Vec<rusqlite::types::Value> = vec![expression.to_owned().into(), limit.into()];
    all.extend(values);
    let rows = stmt.query_map(rusqlite::params_from_iter(all), |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_syntax_is_quoted() {
        assert_eq!(
            match_expression("tea OR \"coffee\" NEAR(x"),
            Some("\"coffee\" OR \"near\" OR \"or\" OR \"tea\" OR \"x\"".to_owned())
        );
        assert_eq!(match_expression("  ...  "), None);
        assert_eq!(match_expression("東京 café"), Some("\"café\" OR \"東京\"".to_owned()));
    }

    fn store_of(texts: impl IntoIterator<Item = String>) -> Connection {
        let conn = crate::store::sqlite::memory_db();
        for (i, text) in texts.into_iter().enumerate() {
            let rowid = i as i64 + 1;
            conn.execute(
                "INSERT INTO memories (rowid, id, content, status, created_at_ms, updated_at_ms) VALUES (?1, ?2, ?3, 'active', 0, 0)",
                params![rowid, format!("m{rowid}"), text],
            )
            .unwrap();
            insert(&conn, rowid, &text).unwrap();
        }
        conn
    }

    fn search_terms_all(conn: &Connection, words: &[String], k: usize) -> Result<Vec<(i64, f64)>> {
        search_terms(conn, &mut TermStats::default(), words, k, &MemoryFilter::default())
    }

    fn words_of(query: &str) -> Vec<String> {
        words(query)
    }

    #[test]
    fn common_terms_are_left_out_on_a_large_store() {
        // 2,100 memories hold "note"; a few hold rarer words too.
        let conn = store_of((0..2_100).map(|i| match i {
            7 => "note about the violin".to_owned(),
            8 => "note about the cello and the violin".to_owned(),
            9 => "a green note".to_owned(),
            10 => "a green tea note".to_owned(),
            _ => format!("note {i}"),
        }));
        let ids = |hits: Vec<(i64, f64)>| hits.into_iter().map(|h| h.0).collect::<Vec<_>>();
        // "note" is left out: only the violin memories are ranked.
        let hits = ids(search_terms_all(&conn, &words_of("violin note"), 10).unwrap());
        assert_eq!(hits.len(), 2, "{hits:?}");
        assert!(hits.contains(&8) && hits.contains(&9));
        // The rare word alone when adding the common one would pass the limit.
        let hits = ids(search_terms_all(&conn, &words_of("note green"), 10).unwrap());
        assert_eq!(hits.len(), 2, "{hits:?}");
        // One common word: the newest memories holding it.
        assert_eq!(
            ids(search_terms_all(&conn, &words_of("note"), 3).unwrap()),
            vec![2100, 2099, 2098]
        );
    }

    #[test]
    fn a_small_store_ranks_every_term() {
        let conn = store_of(["note about the violin", "note 2", "violin"].map(str::to_owned));
        let hits = search_terms_all(&conn, &words_of("violin note"), 10).unwrap();
        assert_eq!(hits.len(), 3);
        assert_eq!(hits[0].0, 1);
    }
}
