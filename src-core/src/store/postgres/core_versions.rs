//! The `core_versions` and `core_locks` tables.

use std::collections::BTreeSet;

use tokio_postgres::Row;

use super::client::Conn;
use super::values::closed;
use crate::error::Result;
use crate::types::{ChangesetId, CoreAuthor, CoreVersion, CoreVersionId, Section};

const COLUMNS: &str = "id, content, author, changeset_id, created_at_ms";

fn from_row(r: &Row) -> Result<CoreVersion> {
    Ok(CoreVersion {
        id: CoreVersionId::from(r.try_get::<_, i64>(0)?),
        content: r.try_get(1)?,
        author: closed(r, 2)?,
        changeset_id: r.try_get::<_, Option<i64>>(3)?.map(ChangesetId::from),
        created_at_ms: r.try_get(4)?,
    })
}

pub(super) fn insert(
    conn: &Conn,
    content: &str,
    author: CoreAuthor,
    changeset_id: Option<ChangesetId>,
    ts: i64,
) -> Result<CoreVersionId> {
    let row = conn.query_one(
        "INSERT INTO core_versions (content, author, changeset_id, created_at_ms) VALUES ($1, $2, $3, $4) RETURNING id",
        &[&content, &author.as_str(), &changeset_id.map(ChangesetId::get), &ts],
    )?;
    Ok(CoreVersionId::from(row.try_get::<_, i64>(0)?))
}

pub(super) fn latest(conn: &Conn) -> Result<Option<CoreVersion>> {
    conn.query_opt(
        &format!("SELECT {COLUMNS} FROM core_versions ORDER BY id DESC LIMIT 1"),
        &[],
    )?
    .as_ref()
    .map(from_row)
    .transpose()
}

pub(super) fn get(conn: &Conn, id: CoreVersionId) -> Result<Option<CoreVersion>> {
    conn.query_opt(
        &format!("SELECT {COLUMNS} FROM core_versions WHERE id = $1"),
        &[&id.get()],
    )?
    .as_ref()
    .map(from_row)
    .transpose()
}

/// Every version, newest first.
pub(super) fn list(conn: &Conn) -> Result<Vec<CoreVersion>> {
    conn.query(&format!("SELECT {COLUMNS} FROM core_versions ORDER BY id DESC"), &[])?
        .iter()
        .map(from_row)
        .collect()
}

pub(super) fn locks(conn: &Conn) -> Result<BTreeSet<Section>> {
    conn.query("SELECT section FROM core_locks", &[])?
        .iter()
        .map(|r| closed(r, 0))
        .collect()
}

pub(super) fn set_lock(conn: &Conn, section: Section, locked: bool, ts: i64) -> Result<()> {
    if locked {
        conn.execute(
            "INSERT INTO core_locks (section, locked_at_ms) VALUES ($1, $2) ON CONFLICT (section) DO NOTHING",
            &[&section.name(), &ts],
        )?;
    } else {
        conn.execute("DELETE FROM core_locks WHERE section = $1", &[&section.name()])?;
    }
    Ok(())
}

pub(super) fn delete_all(conn: &Conn) -> Result<()> {
    conn.execute("DELETE FROM core_versions", &[])?;
    Ok(())
}

/// Writes a version back with its own id; the id sequence moves past it.
pub(super) fn restore(conn: &Conn, v: &CoreVersion) -> Result<()> {
    conn.execute(
        "INSERT INTO core_versions (id, content, author, changeset_id, created_at_ms) VALUES ($1, $2, $3, $4, $5)",
        &[
            &v.id.get(),
            &v.content,
            &v.author.as_str(),
            &v.changeset_id.map(ChangesetId::get),
            &v.created_at_ms,
        ],
    )?;
    conn.execute(
        "SELECT setval(pg_get_serial_sequence('core_versions', 'id'), (SELECT max(id) FROM core_versions))",
        &[],
    )?;
    Ok(())
}

/// Replaces the text of a version in place (forgetting blanks text in history).
pub(super) fn rewrite(conn: &Conn, id: CoreVersionId, content: &str) -> Result<()> {
    conn.execute(
        "UPDATE core_versions SET content = $2 WHERE id = $1",
        &[&id.get(), &content],
    )?;
    Ok(())
}
