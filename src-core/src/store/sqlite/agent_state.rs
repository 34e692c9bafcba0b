//! The `agent_state` table and its history.

use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::error::Result;
use crate::store::backend::{AgentStateEntry, AgentStatePlace};
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

pub(crate) fn log(conn: &Connection) -> Result<Vec<crate::store::backend::AgentStateLogEntry>> {
    let mut stmt = conn.prepare_cached("SELECT agent_id, key, value, at_ms FROM agent_state_history ORDER BY id")?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?;
    Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
}

/// Every entry, now and in history.
pub(crate) fn entries(conn: &Connection) -> Result<Vec<AgentStateEntry>> {
    let mut out = Vec::new();
    let mut stmt = conn.prepare("SELECT agent_id, key, value FROM agent_state")?;
    let rows = stmt.query_map([], |r| {
        Ok(AgentStateEntry {
            place: AgentStatePlace::Current,
            agent_id: r.get(0)?,
            key: r.get(1)?,
            value: r.get(2)?,
        })
    })?;
    out.extend(rows.collect::<rusqlite::Result<Vec<_>>>()?);
    let mut stmt = conn.prepare("SELECT rowid, agent_id, key, value FROM agent_state_history")?;
    let rows = stmt.query_map([], |r| {
        Ok(AgentStateEntry {
            place: AgentStatePlace::History(r.get(0)?),
            agent_id: r.get(1)?,
            key: r.get(2)?,
            value: r.get(3)?,
        })
    })?;
    out.extend(rows.collect::<rusqlite::Result<Vec<_>>>()?);
    Ok(out)
}

/// Removes one entry, now or in history.
pub(crate) fn remove_entry(conn: &Connection, entry: &AgentStateEntry) -> Result<()> {
    match entry.place {
        AgentStatePlace::Current => conn.execute(
            "DELETE FROM agent_state WHERE agent_id = ?1 AND key = ?2",
            params![entry.agent_id, entry.key],
        )?,
        AgentStatePlace::History(rowid) => conn.execute("DELETE FROM agent_state_history WHERE rowid = ?1", [rowid])?,
    };
    Ok(())
}

/// Replaces the value of one entry, now or in history.
pub(crate) fn set_entry_value(conn: &Connection, entry: &AgentStateEntry, value: &str) -> Result<()> {
    match entry.place {
        AgentStatePlace::Current => conn.execute(
            "UPDATE agent_state SET value = ?3 WHERE agent_id = ?1 AND key = ?2",
            params![entry.agent_id, entry.key, value],
        )?,
        AgentStatePlace::History(rowid) => conn.execute(
            "UPDATE agent_state_history SET value = ?2 WHERE rowid = ?1",
            params![rowid, value],
        )?,
    };
    Ok(())
}
