//! The `agent_state` table and its history.

use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::error::Result;
use crate::types::{AgentState, AgentStateChange, iso_utc};

fn state_from_row(row: &Row<'_>) -> rusqlite::Result<(String, String, String, i64)> {
    Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?))
}

fn state((agent_id, key, value, updated_at_ms): (String, String, String, i64)) -> AgentState {
    AgentState {
        agent_id,
        key,
        // Values are written as JSON by `put`; text that is not JSON is given back as text.
        value: serde_json::from_str(&value).unwrap_or(serde_json::Value::String(value)),
        updated_at_ms,
        updated_at: iso_utc(updated_at_ms),
    }
}

/// One key of an agent's state.
pub(crate) fn get(conn: &Connection, agent_id: &str, key: &str) -> Result<Option<AgentState>> {
    let mut stmt = conn.prepare_cached(
        "SELECT agent_id, key, value, updated_at_ms FROM agent_state WHERE agent_id = ?1 AND key = ?2",
    )?;
    Ok(stmt
        .query_row(params![agent_id, key], state_from_row)
        .optional()?
        .map(state))
}

/// Every key of an agent's state, by key.
pub(crate) fn list(conn: &Connection, agent_id: &str) -> Result<Vec<AgentState>> {
    let mut stmt = conn.prepare_cached(
        "SELECT agent_id, key, value, updated_at_ms FROM agent_state WHERE agent_id = ?1 ORDER BY key",
    )?;
    let rows = stmt.query_map([agent_id], state_from_row)?;
    Ok(rows
        .collect::<rusqlite::Result<Vec<_>>>()?
        .into_iter()
        .map(state)
        .collect())
}

/// Every change of one key, oldest first.
pub(crate) fn history(conn: &Connection, agent_id: &str, key: &str) -> Result<Vec<AgentStateChange>> {
    let mut stmt = conn
        .prepare_cached("SELECT value, at_ms FROM agent_state_history WHERE agent_id = ?1 AND key = ?2 ORDER BY id")?;
    let rows = stmt.query_map(params![agent_id, key], |r| {
        Ok((r.get::<_, Option<String>>(0)?, r.get(1)?))
    })?;
    Ok(rows
        .collect::<rusqlite::Result<Vec<(Option<String>, i64)>>>()?
        .into_iter()
        .map(|(value, at_ms)| AgentStateChange {
            deleted: value.is_none(),
            value: value.map(|v| serde_json::from_str(&v).unwrap_or(serde_json::Value::String(v))),
            at_ms,
            at: iso_utc(at_ms),
        })
        .collect())
}

/// Sets a key (`value` is JSON text) and records the change.
pub(crate) fn put(conn: &Connection, agent_id: &str, key: &str, value: &str, ts: i64) -> Result<()> {
    conn.execute(
        "INSERT INTO agent_state (agent_id, key, value, updated_at_ms) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (agent_id, key) DO UPDATE SET value = excluded.value, updated_at_ms = excluded.updated_at_ms",
        params![agent_id, key, value, ts],
    )?;
    conn.execute(
        "INSERT INTO agent_state_history (agent_id, key, value, at_ms) VALUES (?1, ?2, ?3, ?4)",
        params![agent_id, key, value, ts],
    )?;
    Ok(())
}

/// Deletes a key and records the deletion; false when there was no such key.
pub(crate) fn delete(conn: &Connection, agent_id: &str, key: &str, ts: i64) -> Result<bool> {
    let removed = conn.execute(
        "DELETE FROM agent_state WHERE agent_id = ?1 AND key = ?2",
        params![agent_id, key],
    )?;
    if removed > 0 {
        conn.execute(
            "INSERT INTO agent_state_history (agent_id, key, value, at_ms) VALUES (?1, ?2, NULL, ?3)",
            params![agent_id, key, ts],
        )?;
    }
    Ok(removed > 0)
}

/// One entry of either table: `(table, rowid, agent id, key, value)`.
pub(crate) fn log(conn: &Connection) -> Result<Vec<crate::store::backend::AgentStateLogEntry>> {
    let mut stmt = conn.prepare_cached("SELECT agent_id, key, value, at_ms FROM agent_state_history ORDER BY id")?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?;
    Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
}

type Entry = (&'static str, i64, String, String, Option<String>);

/// Every entry of the two tables.
fn entries(conn: &Connection) -> Result<Vec<Entry>> {
    let mut out = Vec::new();
    for table in ["agent_state", "agent_state_history"] {
        let mut stmt = conn.prepare(&format!("SELECT rowid, agent_id, key, value FROM {table}"))?;
        let rows = stmt.query_map([], |r| Ok((table, r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?;
        out.extend(rows.collect::<rusqlite::Result<Vec<_>>>()?);
    }
    Ok(out)
}

/// How many entries (now and in history) `matches` holds for, in their agent id, key or
/// value.
pub(crate) fn count(conn: &Connection, matches: &dyn Fn(&str) -> bool) -> Result<usize> {
    Ok(entries(conn)?
        .iter()
        .filter(|(_, _, agent, key, value)| matches(agent) || matches(key) || value.as_deref().is_some_and(matches))
        .count())
}

/// Removes every entry whose agent id or key `named` holds (a name cannot be half
/// blanked) and rewrites every value it changes (it gets the JSON text and answers the new
/// text, or `None` to leave it); returns how many entries changed.
pub(crate) fn redact(
    conn: &Connection,
    named: &dyn Fn(&str) -> bool,
    redact: &dyn Fn(&str) -> Option<String>,
) -> Result<usize> {
    let mut changed = 0;
    for (table, rowid, agent, key, value) in entries(conn)? {
        if named(&agent) || named(&key) {
            conn.execute(&format!("DELETE FROM {table} WHERE rowid = ?1"), [rowid])?;
            changed += 1;
        } else if let Some(blanked) = value.as_deref().and_then(redact) {
            conn.execute(
                &format!("UPDATE {table} SET value = ?2 WHERE rowid = ?1"),
                params![rowid, blanked],
            )?;
            changed += 1;
        }
    }
    Ok(changed)
}
