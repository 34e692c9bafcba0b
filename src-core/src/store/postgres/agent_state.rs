//! The `agent_state` table and its history.

use super::client::Conn;
use crate::error::Result;
use crate::store::backend::{AgentStateEntry, AgentStatePlace};
use crate::types::{AgentState, AgentStateChange, iso_utc};

fn json_value(text: String) -> serde_json::Value {
    serde_json::from_str(&text).unwrap_or(serde_json::Value::String(text))
}

fn state(row: &tokio_postgres::Row) -> Result<AgentState> {
    let updated_at_ms: i64 = row.try_get(3)?;
    Ok(AgentState {
        agent_id: row.try_get(0)?,
        key: row.try_get(1)?,
        value: json_value(row.try_get(2)?),
        updated_at_ms,
        updated_at: iso_utc(updated_at_ms),
    })
}

pub(super) fn get(conn: &Conn, agent_id: &str, key: &str) -> Result<Option<AgentState>> {
    conn.query_opt(
        "SELECT agent_id, key, value, updated_at_ms FROM agent_state WHERE agent_id = $1 AND key = $2",
        &[&agent_id, &key],
    )?
    .as_ref()
    .map(state)
    .transpose()
}

pub(super) fn list(conn: &Conn, agent_id: &str) -> Result<Vec<AgentState>> {
    conn.query(
        "SELECT agent_id, key, value, updated_at_ms FROM agent_state WHERE agent_id = $1 ORDER BY key COLLATE \"C\"",
        &[&agent_id],
    )?
    .iter()
    .map(state)
    .collect()
}

pub(super) fn history(conn: &Conn, agent_id: &str, key: &str) -> Result<Vec<AgentStateChange>> {
    conn.query(
        "SELECT value, at_ms FROM agent_state_history WHERE agent_id = $1 AND key = $2 ORDER BY id",
        &[&agent_id, &key],
    )?
    .iter()
    .map(|r| {
        let (value, at_ms): (Option<String>, i64) = (r.try_get(0)?, r.try_get(1)?);
        Ok(AgentStateChange {
            deleted: value.is_none(),
            value: value.map(json_value),
            at_ms,
            at: iso_utc(at_ms),
        })
    })
    .collect()
}

pub(super) fn put(conn: &Conn, agent_id: &str, key: &str, value: &str, ts: i64) -> Result<()> {
    conn.execute(
        "INSERT INTO agent_state (agent_id, key, value, updated_at_ms) VALUES ($1, $2, $3, $4)
         ON CONFLICT (agent_id, key) DO UPDATE SET value = excluded.value, updated_at_ms = excluded.updated_at_ms",
        &[&agent_id, &key, &value, &ts],
    )?;
    conn.execute(
        "INSERT INTO agent_state_history (agent_id, key, value, at_ms) VALUES ($1, $2, $3, $4)",
        &[&agent_id, &key, &value, &ts],
    )?;
    Ok(())
}

pub(super) fn delete(conn: &Conn, agent_id: &str, key: &str, ts: i64) -> Result<bool> {
    let removed = conn.execute(
        "DELETE FROM agent_state WHERE agent_id = $1 AND key = $2",
        &[&agent_id, &key],
    )?;
    if removed > 0 {
        conn.execute(
            "INSERT INTO agent_state_history (agent_id, key, value, at_ms) VALUES ($1, $2, NULL, $3)",
            &[&agent_id, &key, &ts],
        )?;
    }
    Ok(removed > 0)
}

pub(super) fn log(conn: &Conn) -> Result<Vec<crate::store::backend::AgentStateLogEntry>> {
    conn.query(
        "SELECT agent_id, key, value, at_ms FROM agent_state_history ORDER BY id",
        &[],
    )?
    .iter()
    .map(|r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?, r.try_get(3)?)))
    .collect()
}

/// Every entry, now and in history.
pub(super) fn entries(conn: &Conn) -> Result<Vec<AgentStateEntry>> {
    let mut out = Vec::new();
    for r in conn.query("SELECT agent_id, key, value FROM agent_state", &[])? {
        out.push(AgentStateEntry {
            place: AgentStatePlace::Current,
            agent_id: r.try_get(0)?,
            key: r.try_get(1)?,
            value: r.try_get(2)?,
        });
    }
    for r in conn.query("SELECT id, agent_id, key, value FROM agent_state_history", &[])? {
        out.push(AgentStateEntry {
            place: AgentStatePlace::History(r.try_get(0)?),
            agent_id: r.try_get(1)?,
            key: r.try_get(2)?,
            value: r.try_get(3)?,
        });
    }
    Ok(out)
}

/// Removes one entry, now or in history.
pub(super) fn remove_entry(conn: &Conn, entry: &AgentStateEntry) -> Result<()> {
    match entry.place {
        AgentStatePlace::Current => conn.execute(
            "DELETE FROM agent_state WHERE agent_id = $1 AND key = $2",
            &[&entry.agent_id, &entry.key],
        )?,
        AgentStatePlace::History(id) => conn.execute("DELETE FROM agent_state_history WHERE id = $1", &[&id])?,
    };
    Ok(())
}

/// Replaces the value of one entry, now or in history.
pub(super) fn set_entry_value(conn: &Conn, entry: &AgentStateEntry, value: &str) -> Result<()> {
    match entry.place {
        AgentStatePlace::Current => conn.execute(
            "UPDATE agent_state SET value = $3 WHERE agent_id = $1 AND key = $2",
            &[&entry.agent_id, &entry.key, &value],
        )?,
        AgentStatePlace::History(id) => conn.execute(
            "UPDATE agent_state_history SET value = $2 WHERE id = $1",
            &[&id, &value],
        )?,
    };
    Ok(())
}
