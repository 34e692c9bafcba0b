//! Full-text search with BM25, as SQLite's FTS5 ranks it, on PostgreSQL.
//!
//! PostgreSQL's own ranking (`ts_rank`) has no inverse document frequency, which is most of
//! what makes BM25 good at finding the memory that holds a query's rare words, and fusion
//! is tuned on BM25. So haema makes the index itself: each active memory's words, split,
//! folded (café = cafe, as FTS5's `remove_diacritics`) and stemmed in Rust exactly as a
//! query's are, are kept as postings (`term`, memory, how often), and the number of active
//! memories holding each term is kept exact by every write (`term_counts`). A search reads
//! the postings of its terms only (an index-only scan) and scores them in SQL with FTS5's
//! formula (k1 = 1.2, b = 0.75): scores are on the same scale on both backends.

use std::collections::{BTreeMap, HashMap};

use rust_stemmers::{Algorithm, Stemmer};
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

use super::client::Conn;
use super::filter::{Values, conditions};
use super::memories::to_i64;
use crate::error::Result;
use crate::store::backend::Ranked;
use crate::store::term_choice::{self, TermChoice};
use crate::text::terms::words;
use crate::types::MemoryFilter;

/// Words longer than this (in bytes) are not indexed: no query finds them usefully, and a
/// key of the postings index must fit in a page.
const LONGEST_WORD: usize = 256;
/// Postings written per statement when the whole index is made again.
const REINDEX_BATCH: usize = 20_000;

/// A word without the accents of its Latin letters (`café` → `cafe`, `ångström` →
/// `angstrom`), as FTS5's `remove_diacritics` folds them; other scripts' marks are letters'
/// parts and stay (ガラス is not カラス).
fn folded(word: String) -> String {
    if word.is_ascii() {
        return word;
    }
    let mut out = String::with_capacity(word.len());
    let mut after_latin = false;
    for c in word.nfd() {
        if is_combining_mark(c) {
            if !after_latin {
                out.push(c);
            }
            continue;
        }
        after_latin = c.is_ascii_alphabetic() || matches!(c, '\u{00C0}'..='\u{024F}' | '\u{1E00}'..='\u{1EFF}');
        out.push(c);
    }
    out.nfc().collect()
}

/// The stemmed terms of `text`, in order, as the index and the queries make them.
fn terms(text: &str) -> Vec<String> {
    static ENGLISH: std::sync::LazyLock<Stemmer> = std::sync::LazyLock::new(|| Stemmer::create(Algorithm::English));
    words(text)
        .into_iter()
        .filter(|w| w.len() <= LONGEST_WORD)
        .map(|w| ENGLISH.stem(&folded(w)).into_owned())
        .collect()
}

/// The terms of `text` with how often each occurs, and how many words it has (BM25's
/// document length).
fn document(text: &str) -> (BTreeMap<String, i32>, i32) {
    let all = terms(text);
    let length = i32::try_from(all.len()).unwrap_or(i32::MAX);
    let mut counts = BTreeMap::new();
    for term in all {
        *counts.entry(term).or_insert(0) += 1;
    }
    (counts, length)
}

/// Indexes the text of memory `rowid` (again, when it was indexed already).
pub(super) fn index(conn: &Conn, rowid: i64, content: &str) -> Result<()> {
    unindex(conn, rowid)?;
    let (counts, length) = document(content);
    if counts.is_empty() {
        return Ok(());
    }
    let (terms, frequencies): (Vec<String>, Vec<i32>) = counts.into_iter().unzip();
    // One statement: the document length, its postings, the term counts and the totals.
    conn.execute(
        "WITH doc AS (UPDATE memories SET term_count = $2 WHERE rowid = $1),
              posted AS (INSERT INTO postings (term, rowid, tf, len)
                         SELECT u.term, $1, u.tf, $2 FROM unnest($3::text[], $4::int[]) AS u(term, tf)),
              counted AS (INSERT INTO term_counts (term, memories) SELECT unnest($3::text[]), 1
                          ON CONFLICT (term) DO UPDATE SET memories = term_counts.memories + 1)
         UPDATE term_totals SET memories = memories + 1, words = words + $5",
        &[&rowid, &length, &terms, &frequencies, &i64::from(length)],
    )?;
    Ok(())
}

/// Removes memory `rowid` from the index (nothing when it is not in it).
pub(super) fn unindex(conn: &Conn, rowid: i64) -> Result<()> {
    // Each row is changed by one part only: a term held by this memory alone is deleted,
    // any other counted down.
    conn.execute(
        "WITH gone AS (DELETE FROM postings WHERE rowid = $1 RETURNING term),
              doc AS (SELECT term_count FROM memories WHERE rowid = $1 AND term_count IS NOT NULL),
              cleared AS (UPDATE memories SET term_count = NULL WHERE rowid = $1 AND term_count IS NOT NULL),
              dropped AS (DELETE FROM term_counts WHERE term IN (SELECT term FROM gone) AND memories <= 1),
              lowered AS (UPDATE term_counts SET memories = memories - 1
                          WHERE term IN (SELECT term FROM gone) AND memories > 1)
         UPDATE term_totals
         SET memories = greatest(memories - (SELECT count(*) FROM doc), 0),
             words = greatest(words - coalesce((SELECT sum(term_count) FROM doc), 0), 0)",
        &[&rowid],
    )?;
    Ok(())
}

/// Makes the whole index again from the active memories' text (a migration that changes
/// how terms are made), in batches.
pub(super) fn reindex_all(conn: &Conn) -> Result<()> {
    conn.batch(
        "TRUNCATE postings, term_counts;
         UPDATE term_totals SET memories = 0, words = 0;
         UPDATE memories SET term_count = NULL WHERE term_count IS NOT NULL",
    )?;
    let rows = conn.query(
        "SELECT rowid, content FROM memories WHERE status = 'active' ORDER BY rowid",
        &[],
    )?;
    let mut held: HashMap<String, i64> = HashMap::new();
    let (mut memories, mut words) = (0_i64, 0_i64);
    let mut batch = Postings::default();
    for row in &rows {
        let (rowid, content): (i64, String) = (row.try_get(0)?, row.try_get(1)?);
        let (counts, length) = document(&content);
        if counts.is_empty() {
            continue;
        }
        memories += 1;
        words += i64::from(length);
        batch.lengths.push((rowid, length));
        for (term, tf) in counts {
            *held.entry(term.clone()).or_insert(0) += 1;
            batch.terms.push(term);
            batch.rowids.push(rowid);
            batch.frequencies.push(tf);
            batch.document_lengths.push(length);
        }
        if batch.terms.len() >= REINDEX_BATCH {
            std::mem::take(&mut batch).write(conn)?;
        }
    }
    batch.write(conn)?;
    let (terms, counts): (Vec<String>, Vec<i64>) = held.into_iter().unzip();
    conn.execute(
        "INSERT INTO term_counts (term, memories) SELECT * FROM unnest($1::text[], $2::bigint[])",
        &[&terms, &counts],
    )?;
    conn.execute("UPDATE term_totals SET memories = $1, words = $2", &[&memories, &words])?;
    Ok(())
}

/// Postings on their way to the table, with their memories' lengths.
#[derive(Default)]
struct Postings {
    terms: Vec<String>,
    rowids: Vec<i64>,
    frequencies: Vec<i32>,
    document_lengths: Vec<i32>,
    lengths: Vec<(i64, i32)>,
}

impl Postings {
    fn write(self, conn: &Conn) -> Result<()> {
        if self.lengths.is_empty() {
            return Ok(());
        }
        conn.execute(
            "INSERT INTO postings (term, rowid, tf, len)
             SELECT * FROM unnest($1::text[], $2::bigint[], $3::int[], $4::int[])",
            &[&self.terms, &self.rowids, &self.frequencies, &self.document_lengths],
        )?;
        let (rowids, lengths): (Vec<i64>, Vec<i32>) = self.lengths.into_iter().unzip();
        conn.execute(
            "UPDATE memories m SET term_count = u.length FROM unnest($1::bigint[], $2::int[]) AS u(rowid, length)
             WHERE m.rowid = u.rowid",
            &[&rowids, &lengths],
        )?;
        Ok(())
    }
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
    // The store's size and each term's count, in one round trip.
    let rows = conn.query(
        "SELECT t.term, coalesce(c.memories, 0), (SELECT coalesce(max(rowid), 0) FROM memories)
         FROM unnest($1::text[]) AS t(term) LEFT JOIN term_counts c ON c.term = t.term",
        &[&wanted],
    )?;
    let mut counts: HashMap<String, i64> = HashMap::with_capacity(rows.len());
    let mut size = 0_i64;
    for row in &rows {
        counts.insert(row.try_get(0)?, row.try_get(1)?);
        size = row.try_get(2)?;
    }
    let frequencies: Vec<i64> = wanted.iter().map(|t| counts.get(t).copied().unwrap_or(0)).collect();
    let size = if every_term { 0 } else { size };
    let (chosen, both, newest) = match term_choice::choose(&frequencies, size) {
        TermChoice::Any(chosen) => (chosen, false, false),
        TermChoice::Both(a, b) => (vec![a, b], true, false),
        TermChoice::Newest(only) => (vec![only], false, true),
    };
    let wanted: Vec<String> = chosen.into_iter().map(|i| wanted[i].clone()).collect();
    if wanted.is_empty() {
        return Ok(Vec::new());
    }
    let having = if both { " HAVING count(*) = 2" } else { "" };
    let order = if newest { "p.rowid DESC" } else { "score, p.rowid" };
    let mut values = Values::default();
    let terms_at = values.push(wanted);
    let passing = conditions(filter, &mut values);
    let limit = values.push(to_i64(k));
    // Only active memories have postings; a filter looks each one up (at most a few
    // thousand: the terms were chosen so).
    let filtered = if passing.is_empty() {
        String::new()
    } else {
        format!(" CROSS JOIN LATERAL (SELECT 1 FROM memories m WHERE m.rowid = p.rowid{passing} OFFSET 0) f")
    };
    // FTS5's BM25: idf = ln((N - n + 0.5) / (n + 0.5)), at least 1e-6; lower is better.
    // `OFFSET 0` keeps each term's postings an index scan of its own whatever the
    // planner's statistics say (a store just filled has none yet).
    let sql = format!(
        "WITH totals AS (SELECT greatest(memories, 1)::float8 AS n,
                                greatest(words::float8 / greatest(memories, 1), 1) AS avg_len FROM term_totals),
              q AS (SELECT c.term, greatest(ln((t.n - c.memories + 0.5) / (c.memories + 0.5)), 1e-6) AS idf
                    FROM term_counts c, totals t WHERE c.term = ANY({terms_at}::text[]))
         SELECT p.rowid,
                -sum(q.idf * (p.tf * 2.2) / (p.tf + 1.2 * (0.25 + 0.75 * p.len / t.avg_len)))::float8 AS score
         FROM q CROSS JOIN totals t
              CROSS JOIN LATERAL (SELECT rowid, tf, len FROM postings WHERE term = q.term OFFSET 0) p{filtered}
         GROUP BY p.rowid{having} ORDER BY {order} LIMIT {limit}::bigint"
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
    fn documents_are_folded_stemmed_terms_with_their_counts() {
        let (counts, length) = document("Running runs; O'Brien's CAFÉ \\ run, Ångström's café");
        assert_eq!(length, 10);
        let counts: Vec<(&str, i32)> = counts.iter().map(|(t, n)| (t.as_str(), *n)).collect();
        assert_eq!(
            counts,
            [
                ("angstrom", 1),
                ("brien", 1),
                ("cafe", 2),
                ("o", 1),
                ("run", 3),
                ("s", 2)
            ]
        );
        assert_eq!(terms("naïve résumé"), terms("naive resume"), "queries fold alike");
        assert_ne!(terms("ガラス"), terms("カラス"), "a kana's voicing mark is part of it");
        assert_eq!(terms("किताब"), ["किताब"], "Devanagari vowel signs stay");
    }
}
