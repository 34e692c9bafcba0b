//! The `agent_keys` table.

use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::error::Result;
use crate::types::AgentKey;

const COLUMNS: &str = "name, access, user_id, created_at_ms, expires_at_ms, last_used_ms, revoked_at_ms";

/// A row, its access still as stored (checked by [`checked`]: an unknown spelling is an
/// error, never a default).
type StoredRow = (
    String,
    String,
    Option<String>,
    i64,
    Option<i64>,
    Option<i64>,
    Option<i64>,
);

fn key_from_row(row: &Row<'_>) -> rusqlite::Result<StoredRow> {
    Ok((
        row.get(0)?,
        row.get(1)?,
        row.get(2)?,
        row.get(3)?,
        row.get(4)?,
        row.get(5)?,
        row.get(6)?,
    ))
}

fn checked(
    (name, access, user_id, created_at_ms, expires_at_ms, last_used_ms, revoked_at_ms): StoredRow,
) -> Result<AgentKey> {
    Ok(AgentKey {
        name,
        access: access.parse()?,
        user_id,
        created_at_ms,
        expires_at_ms,
        last_used_ms,
        revoked_at_ms,
    })
}

fn one(conn: &Connection, column: &str, value: &str) -> Result<Option<AgentKey>> {
    let mut stmt = conn.prepare_cached(&format!("SELECT {COLUMNS} FROM agent_keys WHERE {column} = ?1"))?;
    stmt.query_row([value], key_from_row)
        .optional()?
        .map(checked)
        .transpose()
}

/// The key named `name`.
pub(crate) fn by_name(conn: &Connection, name: &str) -> Result<Option<AgentKey>> {
    one(conn, "name", name)
}

/// The key whose SHA-256 is `sha256`.
pub(crate) fn by_sha256(conn: &Connection, sha256: &str) -> Result<Option<AgentKey>> {
    one(conn, "key_sha256", sha256)
}

/// Every key, by name.
pub(crate) fn all(conn: &Connection) -> Result<Vec<AgentKey>> {
    let mut stmt = conn.prepare_cached(&format!("SELECT {COLUMNS} FROM agent_keys ORDER BY name"))?;
    let rows = stmt.query_map([], key_from_row)?;
    rows.collect::<rusqlite::Result<Vec<_>>>()?
        .into_iter()
        .map(checked)
        .collect()
}

/// Adds a key.
pub(crate) fn insert(conn: &Connection, key: &AgentKey, sha256: &str) -> Result<()> {
    conn.prepare_cached(
        "INSERT INTO agent_keys (name, key_sha256, access, user_id, created_at_ms, expires_at_ms, last_used_ms, revoked_at_ms) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?
    .execute(params![
        key.name,
        sha256,
        key.access.as_str(),
        key.user_id,
        key.created_at_ms,
        key.expires_at_ms,
        key.last_used_ms,
        key.revoked_at_ms
    ])?;
    Ok(())
}

/// Gives a key a new secret.
pub(crate) fn set_sha256(conn: &Connection, name: &str, sha256: &str) -> Result<bool> {
    let changed = conn
        .prepare_cached("UPDATE agent_keys SET key_sha256 = ?2 WHERE name = ?1")?
        .execute(params![name, sha256])?;
    Ok(changed > 0)
}

/// Revokes a key.
pub(crate) fn revoke(conn: &Connection, name: &str, ts: i64) -> Result<bool> {
    let changed = conn
        .prepare_cached("UPDATE agent_keys SET revoked_at_ms = ?2 WHERE name = ?1 AND revoked_at_ms IS NULL")?
        .execute(params![name, ts])?;
    Ok(changed > 0)
}

/// Records a use.
pub(crate) fn touch(conn: &Connection, name: &str, ts: i64) -> Result<()> {
    conn.prepare_cached("UPDATE agent_keys SET last_used_ms = ?2 WHERE name = ?1")?
        .execute(params![name, ts])?;
    Ok(())
}
