//! The FTS5 full-text index of active memories (`memories_fts`, external content).

use rusqlite::{Connection, params};

use crate::Result;

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

/// The words of a text as FTS5 sees them (letters and digits, lower-cased).
pub(crate) fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
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

/// The `k` best BM25 matches of any word of `query`: `(rowid, bm25)`, best (lowest) first.
pub(crate) fn search(conn: &Connection, query: &str, k: usize) -> Result<Vec<(i64, f64)>> {
    match match_expression(query) {
        Some(expression) => search_expression(conn, &expression, k),
        None => Ok(Vec::new()),
    }
}

/// The `k` best BM25 matches of any of `terms`: `(rowid, bm25)`, best (lowest) first.
pub(crate) fn search_terms(conn: &Connection, terms: &[String], k: usize) -> Result<Vec<(i64, f64)>> {
    match expression_of(terms) {
        Some(expression) => search_expression(conn, &expression, k),
        None => Ok(Vec::new()),
    }
}

fn search_expression(conn: &Connection, expression: &str, k: usize) -> Result<Vec<(i64, f64)>> {
    if k == 0 {
        return Ok(Vec::new());
    }
    let mut stmt = conn.prepare_cached(
        "SELECT rowid, bm25(memories_fts) AS rank FROM memories_fts WHERE memories_fts MATCH ?1 ORDER BY rank LIMIT ?2",
    )?;
    let rows = stmt.query_map(params![expression, i64::try_from(k).unwrap_or(i64::MAX)], |r| {
        Ok((r.get(0)?, r.get(1)?))
    })?;
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
}
