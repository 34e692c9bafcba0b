//! The `memories` table.

use std::collections::{HashMap, HashSet};

use tokio_postgres::Row;

use super::client::Conn;
use super::filter::{Values, conditions};
use super::values::closed;
use crate::error::Result;
use crate::store::MetaKey;
use crate::types::{ChangesetId, MemoryAttributes, MemoryFilter, MemoryId, MemoryRecord, MemoryStatus, iso_utc};

pub(super) const COLUMNS: &str = "m.rowid, m.id, m.content, m.created_at_ms, m.updated_at_ms, m.status, \
    m.changeset_id, m.superseded_by, m.memory_type, m.importance, m.source, m.agent_id, m.session_id, m.user_id, \
    m.metadata, m.pinned";

pub(super) fn from_row(row: &Row) -> Result<(i64, MemoryRecord)> {
    let timestamp_ms: i64 = row.try_get(3)?;
    let metadata: Option<String> = row.try_get(14)?;
    Ok((
        row.try_get(0)?,
        MemoryRecord {
            id: MemoryId::from(row.try_get::<_, String>(1)?),
            content: row.try_get(2)?,
            timestamp_ms,
            timestamp: iso_utc(timestamp_ms),
            updated_at_ms: row.try_get(4)?,
            status: closed(row, 5)?,
            changeset_id: row.try_get::<_, Option<i64>>(6)?.map(ChangesetId::from),
            superseded_by: row.try_get::<_, Option<i64>>(7)?.map(ChangesetId::from),
            pinned: row.try_get(15)?,
            has_embedding: false,
            attributes: MemoryAttributes {
                memory_type: row.try_get(8)?,
                importance: row.try_get(9)?,
                source: row.try_get(10)?,
                agent_id: row.try_get(11)?,
                session_id: row.try_get(12)?,
                user_id: row.try_get(13)?,
                metadata: MemoryAttributes::metadata_from(metadata.as_deref()),
            },
        },
    ))
}

fn records(rows: &[Row]) -> Result<Vec<MemoryRecord>> {
    rows.iter().map(|r| from_row(r).map(|(_, m)| m)).collect()
}

pub(super) fn to_i64(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Active memories that pass `filter`, newest first: older than `before` (keyset paging)
/// or skipping `offset`.
pub(super) fn latest(
    conn: &Conn,
    before: Option<(i64, &MemoryId)>,
    offset: usize,
    count: usize,
    filter: &MemoryFilter,
) -> Result<Vec<MemoryRecord>> {
    let mut values = Values::default();
    let mut sql = format!("SELECT {COLUMNS} FROM memories m WHERE m.status = 'active'");
    if let Some((ms, id)) = before {
        let (ms, id) = (values.push(ms), values.push(id.to_string()));
        sql.push_str(&format!(
            " AND (m.created_at_ms, m.rowid) < ({ms}::bigint, (SELECT rowid FROM memories WHERE id = {id}::text))"
        ));
    }
    sql.push_str(&conditions(filter, &mut values));
    let (limit, skip) = (values.push(to_i64(count)), values.push(to_i64(offset)));
    sql.push_str(&format!(
        " ORDER BY m.created_at_ms DESC, m.rowid DESC LIMIT {limit}::bigint OFFSET {skip}::bigint"
    ));
    records(&conn.query(&sql, &values.as_params())?)
}

/// Memories by rowid (any status).
pub(super) fn by_rowids(conn: &Conn, rowids: &[i64]) -> Result<HashMap<i64, MemoryRecord>> {
    let rows = conn.query(
        &format!("SELECT {COLUMNS} FROM memories m WHERE m.rowid = ANY($1::bigint[])"),
        &[&rowids],
    )?;
    rows.iter().map(from_row).collect()
}

/// One memory by id (any status), with its rowid.
pub(super) fn by_id(conn: &Conn, id: &MemoryId) -> Result<Option<(i64, MemoryRecord)>> {
    conn.query_opt(
        &format!("SELECT {COLUMNS} FROM memories m WHERE m.id = $1"),
        &[&id.as_str()],
    )?
    .as_ref()
    .map(from_row)
    .transpose()
}

/// Memories matching `condition` (on `m`, parameters from `$1`), in rowid order.
pub(super) fn select(
    conn: &Conn,
    condition: &str,
    params: &super::client::Params<'_>,
) -> Result<Vec<(i64, MemoryRecord)>> {
    let rows = conn.query(
        &format!("SELECT {COLUMNS} FROM memories m WHERE {condition} ORDER BY m.rowid"),
        params,
    )?;
    rows.iter().map(from_row).collect()
}

/// Every memory in rowid order (for export).
pub(super) fn all(conn: &Conn) -> Result<Vec<MemoryRecord>> {
    Ok(select(conn, "true", &[])?.into_iter().map(|(_, m)| m).collect())
}

/// How many memories have `status` and pass `filter`.
pub(super) fn count(conn: &Conn, status: MemoryStatus, filter: &MemoryFilter) -> Result<usize> {
    let mut values = Values::default();
    let status = values.push(status.as_str());
    let sql = format!(
        "SELECT count(*) FROM memories m WHERE m.status = {status}::text{}",
        conditions(filter, &mut values)
    );
    let n: i64 = conn.query_one(&sql, &values.as_params())?.try_get(0)?;
    Ok(usize::try_from(n).unwrap_or(0))
}

/// Whether any memory has one of `statuses` (every status when `None`).
pub(super) fn any(conn: &Conn, statuses: Option<&[MemoryStatus]>) -> Result<bool> {
    let row = match statuses {
        None => conn.query_one("SELECT EXISTS (SELECT 1 FROM memories)", &[])?,
        Some(statuses) => {
            let names: Vec<&str> = statuses.iter().map(|s| s.as_str()).collect();
            conn.query_one(
                "SELECT EXISTS (SELECT 1 FROM memories WHERE status = ANY($1::text[]))",
                &[&names],
            )?
        }
    };
    Ok(row.try_get(0)?)
}

/// Inserts a memory and returns its rowid.
pub(super) fn insert(
    conn: &Conn,
    id: &MemoryId,
    content: &str,
    status: MemoryStatus,
    ts: i64,
    changeset_id: ChangesetId,
    a: &MemoryAttributes,
) -> Result<i64> {
    let row = conn.query_one(
        "INSERT INTO memories (id, content, status, created_at_ms, updated_at_ms, changeset_id,
             memory_type, importance, source, agent_id, session_id, user_id, metadata)
         VALUES ($1, $2, $3, $4, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING rowid",
        &[
            &id.as_str(),
            &content,
            &status.as_str(),
            &ts,
            &changeset_id.get(),
            &a.memory_type,
            &a.importance,
            &a.source,
            &a.agent_id,
            &a.session_id,
            &a.user_id,
            &a.metadata_json(),
        ],
    )?;
    Ok(row.try_get(0)?)
}

/// Inserts a memory exactly as recorded (for import) and returns its rowid.
pub(super) fn restore(conn: &Conn, m: &MemoryRecord) -> Result<i64> {
    let a = &m.attributes;
    let row = conn.query_one(
        "INSERT INTO memories (id, content, status, created_at_ms, updated_at_ms, changeset_id, superseded_by,
             memory_type, importance, source, agent_id, session_id, user_id, metadata, pinned)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING rowid",
        &[
            &m.id.as_str(),
            &m.content,
            &m.status.as_str(),
            &m.timestamp_ms,
            &m.updated_at_ms,
            &m.changeset_id.map(ChangesetId::get),
            &m.superseded_by.map(ChangesetId::get),
            &a.memory_type,
            &a.importance,
            &a.source,
            &a.agent_id,
            &a.session_id,
            &a.user_id,
            &a.metadata_json(),
            &m.pinned,
        ],
    )?;
    Ok(row.try_get(0)?)
}

/// Changes a memory's status (and the changeset that superseded it).
pub(super) fn set_status(
    conn: &Conn,
    rowid: i64,
    status: MemoryStatus,
    superseded_by: Option<ChangesetId>,
    ts: i64,
) -> Result<()> {
    conn.execute(
        "UPDATE memories SET status = $2, superseded_by = $3, updated_at_ms = $4 WHERE rowid = $1",
        &[&rowid, &status.as_str(), &superseded_by.map(ChangesetId::get), &ts],
    )?;
    Ok(())
}

/// Makes a pending memory active, as a memory created at `ts`.
pub(super) fn activate_pending(conn: &Conn, rowid: i64, ts: i64) -> Result<()> {
    conn.execute(
        "UPDATE memories SET status = 'active', created_at_ms = $2, updated_at_ms = $2 WHERE rowid = $1",
        &[&rowid, &ts],
    )?;
    Ok(())
}

/// Deletes a pending memory (its text stays in the changeset).
pub(super) fn delete_pending(conn: &Conn, rowid: i64) -> Result<()> {
    conn.execute(
        "DELETE FROM memories WHERE rowid = $1 AND status = 'pending'",
        &[&rowid],
    )?;
    Ok(())
}

/// Pins or unpins a memory.
pub(super) fn set_pinned(conn: &Conn, rowid: i64, pinned: bool, ts: i64) -> Result<()> {
    conn.execute(
        "UPDATE memories SET pinned = $2, updated_at_ms = $3 WHERE rowid = $1",
        &[&rowid, &pinned, &ts],
    )?;
    Ok(())
}

/// Sets [`MemoryRecord::has_embedding`]: every active and superseded memory of a store
/// with vectors that is not behind; in a store behind, those the vector table holds.
pub(super) fn mark_embedded<'a>(conn: &Conn, records: impl IntoIterator<Item = &'a mut MemoryRecord>) -> Result<()> {
    let mut records: Vec<&mut MemoryRecord> = records.into_iter().collect();
    if records.is_empty() {
        return Ok(());
    }
    let has_vectors = super::vectors::table_exists(conn, super::vectors::TABLE)?;
    let behind: bool = conn
        .query_one(
            "SELECT EXISTS (SELECT 1 FROM meta WHERE key = $1)",
            &[&MetaKey::VectorsBehind.as_str()],
        )?
        .try_get(0)?;
    if !has_vectors {
        return Ok(());
    }
    if !behind {
        for r in &mut records {
            r.has_embedding = matches!(r.status, MemoryStatus::Active | MemoryStatus::Superseded);
        }
        return Ok(());
    }
    let ids: Vec<&str> = records.iter().map(|r| r.id.as_str()).collect();
    let with: HashSet<String> = conn
        .query(
            &format!(
                "SELECT m.id FROM memories m JOIN {} v ON v.rowid = m.rowid WHERE m.id = ANY($1::text[])",
                super::vectors::qualified(conn, super::vectors::TABLE)
            ),
            &[&ids],
        )?
        .iter()
        .map(|r| r.try_get(0))
        .collect::<std::result::Result<_, _>>()?;
    for r in &mut records {
        r.has_embedding = with.contains(r.id.as_str());
    }
    Ok(())
}
