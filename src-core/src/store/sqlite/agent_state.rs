//! The `agent_state` table and its history.

use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::Result;
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

/// Rewrites every state value and history entry that `redact` changes (it gets the JSON
/// text and answers the new text, or `None` to leave it); returns how many rows changed.
pub(crate) fn redact(conn: &Connection, redact: &dyn Fn(&str) -> Option<String>) -> Result<usize> {
    let mut changed = 0;
    for table in ["agent_state", "agent_state_history"] {
        let rows: Vec<(i64, String)> = {
            let mut stmt = conn.prepare(&format!("SELECT rowid, value FROM {table} WHERE value IS NOT NULL"))?;
            let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
            rows.collect::<rusqlite::Result<_>>()?
        };
        for (rowid, value) in rows {
            if let Some(blanked) = redact(&value) {
                conn.execute(
                    &format!("UPDATE {table} SET value = ?2 WHERE rowid = ?1"),
                    params![rowid, blanked],
                )?;
                changed += 1;
            }
        }
    }
    Ok(changed)
}
