//! How many memories hold each word of a query, read from FTS5's own index.
//!
//! The index holds stemmed terms (`porter`), so each word is first run through the same
//! tokenizer: the words go into a per-connection temporary FTS5 table, whose `fts5vocab`
//! gives the term of each word; the store's `fts5vocab` then gives each term's document
//! count. Both tables live in the connection's `temp` schema: nothing is written to the
//! store.
//!
//! Both answers are kept in a [`TermStats`] per store: a word's term never changes, and a
//! count only guides which terms a search leaves out, so one a little out of date is as good.
//! A count is read again when the store has grown by more than a thirty-second since, or
//! after [`COUNT_TTL`] (memories replaced or forgotten lower it without adding rows).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use rusqlite::{Connection, OptionalExtension, params};

use crate::error::Result;

/// The temporary tables, made once per connection ([`super::prepare_connection`]).
pub(crate) const SETUP: &str = "
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.query_words USING fts5 (
        word, tokenize = 'porter unicode61 remove_diacritics 2'
    );
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.query_words_terms USING fts5vocab (temp, query_words, instance);
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.memories_terms USING fts5vocab (main, memories_fts, row);
";

/// How long a document count is trusted without reading it again.
const COUNT_TTL: Duration = Duration::from_secs(30);
/// Entries kept per map before it is emptied (a long-running server sees many words).
const MAX_ENTRIES: usize = 50_000;

/// The terms of query words and their document counts, remembered between searches.
#[derive(Debug, Default)]
pub(crate) struct TermStats {
    /// A word's stemmed term; `None` when the tokenizer does not make exactly one term of it.
    terms: HashMap<String, Option<String>>,
    counts: HashMap<String, Count>,
}

#[derive(Debug, Clone, Copy)]
struct Count {
    memories: i64,
    /// The store's largest rowid when it was read.
    largest_rowid: i64,
    read_at: Instant,
}

impl Count {
    fn is_fresh(&self, largest_rowid: i64) -> bool {
        let grown = largest_rowid.abs_diff(self.largest_rowid);
        grown <= (self.largest_rowid.unsigned_abs() / 32).max(16) && self.read_at.elapsed() < COUNT_TTL
    }
}

impl TermStats {
    /// The number of memories holding each of `words` (0 for a word the tokenizer does not
    /// make exactly one term of), in order. `largest_rowid` is the store's, now.
    pub(crate) fn document_frequencies(
        &mut self,
        conn: &Connection,
        words: &[String],
        largest_rowid: i64,
    ) -> Result<Vec<i64>> {
        let unknown: Vec<String> = words.iter().filter(|w| !self.terms.contains_key(*w)).cloned().collect();
        if !unknown.is_empty() {
            if self.terms.len() + unknown.len() > MAX_ENTRIES {
                self.terms.clear();
            }
            let found = terms_of(conn, &unknown)?;
            self.terms.extend(unknown.into_iter().zip(found));
        }
        if self.counts.len() + words.len() > MAX_ENTRIES {
            self.counts.clear();
        }
        let mut out = Vec::with_capacity(words.len());
        let mut count = conn.prepare_cached("SELECT doc FROM temp.memories_terms WHERE term = ?1")?;
        for word in words {
            let Some(Some(term)) = self.terms.get(word) else {
                out.push(0);
                continue;
            };
            let memories = match self.counts.get(term) {
                Some(known) if known.is_fresh(largest_rowid) => known.memories,
                _ => {
                    let memories = count.query_row([term], |r| r.get(0)).optional()?.unwrap_or(0);
                    let read = Count {
                        memories,
                        largest_rowid,
                        read_at: Instant::now(),
                    };
                    self.counts.insert(term.clone(), read);
                    memories
                }
            };
            out.push(memories);
        }
        Ok(out)
    }
}

/// The stemmed term of each of `words`, by the index's own tokenizer.
fn terms_of(conn: &Connection, words: &[String]) -> Result<Vec<Option<String>>> {
    conn.prepare_cached("DELETE FROM temp.query_words")?.execute([])?;
    {
        let mut insert = conn.prepare_cached("INSERT INTO temp.query_words (rowid, word) VALUES (?1, ?2)")?;
        for (i, word) in words.iter().enumerate() {
            insert.execute(params![i as i64, word])?;
        }
    }
    let mut terms: HashMap<i64, Vec<String>> = HashMap::new();
    {
        let mut stmt = conn.prepare_cached("SELECT doc, term FROM temp.query_words_terms")?;
        let rows = stmt.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))?;
        for row in rows {
            let (doc, term) = row?;
            terms.entry(doc).or_default().push(term);
        }
    }
    Ok((0..words.len())
        .map(|i| match terms.remove(&(i as i64)).as_deref() {
            Some([term]) => Some(term.clone()),
            _ => None,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::sqlite::fts;

    fn add(conn: &Connection, rowid: i64, text: &str) {
        conn.execute(
            "INSERT INTO memories (rowid, id, content, status, created_at_ms, updated_at_ms) VALUES (?1, ?2, ?3, 'active', 0, 0)",
            params![rowid, format!("m{rowid}"), text],
        )
        .unwrap();
        fts::insert(conn, rowid, text).unwrap();
    }

    fn words_of(list: &[&str]) -> Vec<String> {
        list.iter().map(|w| (*w).to_owned()).collect()
    }

    #[test]
    fn frequencies_follow_the_stemmed_index() {
        let conn = crate::store::sqlite::memory_db();
        for (rowid, text) in [
            (1, "Mina adopted a cat"),
            (2, "Ana adopts cats"),
            (3, "Mina plays the cello"),
        ] {
            add(&conn, rowid, text);
        }
        let mut stats = TermStats::default();
        let words = words_of(&["mina", "adopting", "cats", "cello", "zebra", "o'clock"]);
        assert_eq!(
            stats.document_frequencies(&conn, &words, 3).unwrap(),
            vec![2, 2, 2, 1, 0, 0]
        );
        // The temporary tables are reused by a second set of statistics.
        let mut other = TermStats::default();
        assert_eq!(other.document_frequencies(&conn, &words[..1], 3).unwrap(), vec![2]);
    }

    #[test]
    fn counts_are_read_again_once_the_store_has_grown() {
        let conn = crate::store::sqlite::memory_db();
        add(&conn, 1, "Mina adopted a cat");
        let mut stats = TermStats::default();
        let words = words_of(&["mina", "cat"]);
        assert_eq!(stats.document_frequencies(&conn, &words, 1).unwrap(), vec![1, 1]);
        for rowid in 2..=10 {
            add(&conn, rowid, "Mina again");
        }
        // A few rows more: the remembered counts stand.
        assert_eq!(stats.document_frequencies(&conn, &words, 10).unwrap(), vec![1, 1]);
        for rowid in 11..=40 {
            add(&conn, rowid, "Mina once more");
        }
        // Grown by more than the slack: read again.
        assert_eq!(stats.document_frequencies(&conn, &words, 40).unwrap(), vec![40, 1]);
    }
}
