//! The `agent_keys` table.

use super::client::Conn;
use crate::error::Result;
use crate::types::AgentKey;

const COLUMNS: &str = "name, access, user_id, created_at_ms, expires_at_ms, last_used_ms, revoked_at_ms";

fn key(row: &tokio_postgres::Row) -> Result<AgentKey> {
    let access: String = row.try_get(1)?;
    Ok(AgentKey {
        name: row.try_get(0)?,
        access: access.parse()?,
        user_id: row.try_get(2)?,
        created_at_ms: row.try_get(3)?,
        expires_at_ms: row.try_get(4)?,
        last_used_ms: row.try_get(5)?,
        revoked_at_ms: row.try_get(6)?,
    })
}

pub(super) fn by_name(conn: &Conn, name: &str) -> Result<Option<AgentKey>> {
    let sql = format!("SELECT {COLUMNS} FROM agent_keys WHERE name = $1");
    conn.query_opt(&sql, &[&name])?.as_ref().map(key).transpose()
}

pub(super) fn by_sha256(conn: &Conn, sha256: &str) -> Result<Option<AgentKey>> {
    let sql = format!("SELECT {COLUMNS} FROM agent_keys WHERE key_sha256 = $1");
    conn.query_opt(&sql, &[&sha256])?.as_ref().map(key).transpose()
}

pub(super) fn all(conn: &Conn) -> Result<Vec<AgentKey>> {
    let sql = format!("SELECT {COLUMNS} FROM agent_keys ORDER BY name COLLATE \"C\"");
    conn.query(&sql, &[])?.iter().map(key).collect()
}

pub(super) fn insert(conn: &Conn, key: &AgentKey, sha256: &str) -> Result<()> {
    conn.execute(
        "INSERT INTO agent_keys (name, key_sha256, access, user_id, created_at_ms, expires_at_ms, last_used_ms, revoked_at_ms)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        &[
            &key.name,
            &sha256,
            &key.access.as_str(),
            &key.user_id,
            &key.created_at_ms,
            &key.expires_at_ms,
            &key.last_used_ms,
            &key.revoked_at_ms,
        ],
    )?;
    Ok(())
}

pub(super) fn set_sha256(conn: &Conn, name: &str, sha256: &str) -> Result<bool> {
    Ok(conn.execute(
        "UPDATE agent_keys SET key_sha256 = $2 WHERE name = $1",
        &[&name, &sha256],
    )? > 0)
}

pub(super) fn revoke(conn: &Conn, name: &str, ts: i64) -> Result<bool> {
    Ok(conn.execute(
        "UPDATE agent_keys SET revoked_at_ms = $2 WHERE name = $1 AND revoked_at_ms IS NULL",
        &[&name, &ts],
    )? > 0)
}

pub(super) fn touch(conn: &Conn, name: &str, ts: i64) -> Result<()> {
    conn.execute("UPDATE agent_keys SET last_used_ms = $2 WHERE name = $1", &[&name, &ts])?;
    Ok(())
}
