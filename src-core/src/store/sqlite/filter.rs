//! A [`MemoryFilter`] as SQL conditions on the `memories` table, so that a search, a page
//! of `latest` or a recall only ever reads memories that pass.

use rusqlite::Connection;
use rusqlite::types::Value as Sql;
use serde_json::Value;

use crate::error::Result;
use crate::store::filter_terms::{FilterTerm, filter_terms};
use crate::types::MemoryFilter;

/// The conditions of `filter` on the memories aliased `m`, each starting with ` AND `, with
/// their parameters numbered from `first` (`?{first}`, `?{first + 1}`, …).
pub(crate) fn conditions(filter: &MemoryFilter, first: usize) -> (String, Vec<Sql>) {
    let mut sql = String::new();
    let mut params: Vec<Sql> = Vec::new();
    // One condition; each `?` in it takes the next of `values`.
    let mut add = |condition: &str, values: Vec<Sql>| {
        let mut numbered = String::new();
        let mut pieces = condition.split('?');
        numbered.push_str(pieces.next().unwrap_or_default());
        for (piece, value) in pieces.zip(values) {
            numbered.push_str(&format!("?{}", first + params.len()));
            numbered.push_str(piece);
            params.push(value);
        }
        sql.push_str(" AND ");
        sql.push_str(&numbered);
    };
    for term in filter_terms(filter) {
        match term {
            FilterTerm::Equals { column, value } => add(&format!("m.{column} = ?"), vec![Sql::Text(value.to_owned())]),
            FilterTerm::MinImportance(min) => add("m.importance >= ?", vec![Sql::Real(min)]),
            FilterTerm::Since(since) => add("m.created_at_ms >= ?", vec![Sql::Integer(since)]),
            FilterTerm::Until(until) => add("m.created_at_ms < ?", vec![Sql::Integer(until)]),
            FilterTerm::Metadata { key, value } => {
                let path = || Sql::Text(format!("$.\"{}\"", key.replace('\\', "\\\\").replace('"', "\\\"")));
                match value {
                    // A key that is missing or JSON null.
                    Value::Null => add("json_extract(m.metadata, ?) IS NULL", vec![path()]),
                    Value::Bool(b) => add(
                        "json_type(m.metadata, ?) = ?",
                        vec![path(), Sql::Text(if *b { "true" } else { "false" }.into())],
                    ),
                    Value::Number(n) => {
                        let number = n
                            .as_i64()
                            .map_or_else(|| Sql::Real(n.as_f64().unwrap_or(f64::NAN)), Sql::Integer);
                        add(
                            "json_type(m.metadata, ?) IN ('integer', 'real') AND json_extract(m.metadata, ?) = ?",
                            vec![path(), path(), number],
                        );
                    }
                    Value::String(s) => add(
                        "json_type(m.metadata, ?) = 'text' AND json_extract(m.metadata, ?) = ?",
                        vec![path(), path(), Sql::Text(s.clone())],
                    ),
                    // Refused by `MemoryFilter::checked`; never true here.
                    Value::Array(_) | Value::Object(_) => add("0", Vec::new()),
                }
            }
        }
    }
    (sql, params)
}

/// The rowids of active memories that pass `filter`, in rowid order.
pub(crate) fn passing(conn: &Connection, filter: &MemoryFilter) -> Result<Vec<i64>> {
    let (sql, params) = conditions(filter, 1);
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT m.rowid FROM memories m WHERE m.status = 'active'{sql} ORDER BY m.rowid"
    ))?;
    let rows = stmt.query_map(rusqlite::params_from_iter(params), |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<Vec<i64>>>()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn store() -> Connection {
        let conn = crate::store::sqlite::memory_db();
        for (rowid, kind, importance, metadata, ts) in [
            (
                1,
                Some("fact"),
                Some(0.9),
                Some(r#"{"project":"apollo","n":3,"ok":true}"#),
                100,
            ),
            (
                2,
                Some("fact"),
                Some(0.2),
                Some(r#"{"project":"gemini","n":3.5,"ok":false}"#),
                200,
            ),
            (3, Some("episode"), None, None, 300),
            (
                4,
                None,
                Some(0.95),
                Some(r#"{"project":"apollo","weird \"key\"":1}"#),
                400,
            ),
        ] {
            conn.execute(
                "INSERT INTO memories (rowid, id, content, status, created_at_ms, updated_at_ms, memory_type, importance, metadata)
                 VALUES (?1, ?2, 'x', 'active', ?3, ?3, ?4, ?5, ?6)",
                rusqlite::params![rowid, format!("m{rowid}"), ts, kind, importance, metadata],
            )
            .unwrap();
        }
        conn
    }

    fn ids(conn: &Connection, filter: serde_json::Value) -> Vec<i64> {
        passing(conn, &serde_json::from_value(filter).unwrap()).unwrap()
    }

    #[test]
    fn each_condition_selects_what_it_says() {
        let conn = store();
        assert_eq!(ids(&conn, json!({})), vec![1, 2, 3, 4]);
        assert_eq!(ids(&conn, json!({"memory_type": "fact"})), vec![1, 2]);
        assert_eq!(ids(&conn, json!({"min_importance": 0.9})), vec![1, 4]);
        assert_eq!(ids(&conn, json!({"metadata": {"project": "apollo"}})), vec![1, 4]);
        assert_eq!(ids(&conn, json!({"metadata": {"n": 3}})), vec![1]);
        assert_eq!(ids(&conn, json!({"metadata": {"n": 3.5}})), vec![2]);
        assert_eq!(ids(&conn, json!({"metadata": {"ok": true}})), vec![1]);
        assert_eq!(ids(&conn, json!({"metadata": {"ok": false}})), vec![2]);
        assert_eq!(ids(&conn, json!({"metadata": {"project": null}})), vec![3]);
        assert_eq!(ids(&conn, json!({"metadata": {"weird \"key\"": 1}})), vec![4]);
        assert_eq!(ids(&conn, json!({"since_ms": 200, "until_ms": 400})), vec![2, 3]);
        assert_eq!(
            ids(
                &conn,
                json!({"memory_type": "fact", "min_importance": 0.5, "metadata": {"project": "apollo"}})
            ),
            vec![1]
        );
        // "3" the text is not 3 the number.
        assert_eq!(ids(&conn, json!({"metadata": {"n": "3"}})), Vec::<i64>::new());
    }
}
