//! How many memories hold each word of a query, read from FTS5's own index.
//!
//! The index holds stemmed terms (`porter`), so each word is first run through the same
//! tokenizer: the words go into a per-connection temporary FTS5 table, whose `fts5vocab`
//! gives the term of each word; the store's `fts5vocab` then gives each term's document
//! count. Both tables live in the connection's `temp` schema: nothing is written to the
//! store.

use std::collections::HashMap;

use rusqlite::{Connection, OptionalExtension, params};

use crate::Result;

/// The temporary tables, made once per connection ([`super::prepare_connection`]).
pub(crate) const SETUP: &str = "
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.query_words USING fts5 (
        word, tokenize = 'porter unicode61 remove_diacritics 2'
    );
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.query_words_terms USING fts5vocab (temp, query_words, instance);
    CREATE VIRTUAL TABLE IF NOT EXISTS temp.memories_terms USING fts5vocab (main, memories_fts, row);
";

/// The number of memories holding each of `words` (0 for a word the tokenizer does not make
/// exactly one term of), in order.
pub(crate) fn document_frequencies(conn: &Connection, words: &[String]) -> Result<Vec<i64>> {
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
    let mut count = conn.prepare_cached("SELECT doc FROM temp.memories_terms WHERE term = ?1")?;
    let mut out = Vec::with_capacity(words.len());
    for i in 0..words.len() {
        let frequency = match terms.get(&(i as i64)).map(Vec::as_slice) {
            Some([term]) => count.query_row([term], |r| r.get(0)).optional()?.unwrap_or(0),
            _ => 0,
        };
        out.push(frequency);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::fts;

    #[test]
    fn frequencies_follow_the_stemmed_index() {
        let conn = crate::store::memory_db();
        for (rowid, text) in [
            (1, "Mina adopted a cat"),
            (2, "Ana adopts cats"),
            (3, "Mina plays the cello"),
        ] {
            conn.execute(
                "INSERT INTO memories (rowid, id, content, status, created_at_ms, updated_at_ms) VALUES (?1, ?2, ?3, 'active', 0, 0)",
                params![rowid, format!("m{rowid}"), text],
            )
            .unwrap();
            fts::insert(&conn, rowid, text).unwrap();
        }
        let words: Vec<String> = ["mina", "adopting", "cats", "cello", "zebra", "o'clock"]
            .iter()
            .map(|w| (*w).to_owned())
            .collect();
        assert_eq!(document_frequencies(&conn, &words).unwrap(), vec![2, 2, 2, 1, 0, 0]);
        // The temporary tables are reused by the next query.
        assert_eq!(document_frequencies(&conn, &words[..1]).unwrap(), vec![2]);
    }
}
