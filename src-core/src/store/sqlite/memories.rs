//! The `memories` table.

use std::collections::HashMap;

use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::error::Result;
use crate::types::{ChangesetId, MemoryAttributes, MemoryFilter, MemoryId, MemoryRecord, MemoryStatus, iso_utc};

const COLUMNS: &str = "rowid, id, content, created_at_ms, updated_at_ms, status, changeset_id, superseded_by, \
    memory_type, importance, source, agent_id, session_id, user_id, metadata, pinned";

fn from_row(row: &Row<'_>) -> rusqlite::Result<(i64, MemoryRecord)> {
    let timestamp_ms = row.get(3)?;
    Ok((
        row.get(0)?,
        MemoryRecord {
            id: row.get(1)?,
            content: row.get(2)?,
            timestamp_ms,
            timestamp: iso_utc(timestamp_ms),
            updated_at_ms: row.get(4)?,
            status: row.get(5)?,
            changeset_id: row.get(6)?,
            superseded_by: row.get(7)?,
            pinned: row.get(15)?,
            has_embedding: false,
            attributes: MemoryAttributes {
                memory_type: row.get(8)?,
                importance: row.get(9)?,
                source: row.get(10)?,
                agent_id: row.get(11)?,
                session_id: row.get(12)?,
                user_id: row.get(13)?,
                metadata: MemoryAttributes::metadata_from(row.get_ref(14)?.as_str_or_null()?),
            },
        },
    ))
}

/// Active memories, newest first, skipping `offset`.
pub(crate) fn latest(conn: &Connection, offset: usize, count: usize) -> Result<Vec<MemoryRecord>> {
    // Deep pages start from the span of time that holds them, found in the counts.
    let (newest, skip) = if offset >= super::latest_counts::DIRECT {
        match super::latest_counts::locate(conn, offset)? {
            Some(start) => start,
            None => return Ok(Vec::new()),
        }
    } else {
        (i64::MAX, offset)
    };
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM memories WHERE status = 'active' AND created_at_ms <= ?3
         ORDER BY created_at_ms DESC, rowid DESC LIMIT ?1 OFFSET ?2"
    ))?;
    let rows = stmt.query_map(params![to_i64(count), to_i64(skip), newest], from_row)?;
    Ok(rows.map(|r| r.map(|(_, m)| m)).collect::<rusqlite::Result<Vec<_>>>()?)
}

/// Active memories older than `(before_ms, before_id)` in latest order: keyset paging that
/// does not slow down with depth.
pub(crate) fn latest_before(
    conn: &Connection,
    before_ms: i64,
    before_id: &MemoryId,
    count: usize,
) -> Result<Vec<MemoryRecord>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM memories WHERE status = 'active'
           AND (created_at_ms, rowid) < (?1, (SELECT rowid FROM memories WHERE id = ?2))
         ORDER BY created_at_ms DESC, rowid DESC LIMIT ?3"
    ))?;
    let rows = stmt.query_map(params![before_ms, before_id, to_i64(count)], from_row)?;
    Ok(rows.map(|r| r.map(|(_, m)| m)).collect::<rusqlite::Result<Vec<_>>>()?)
}

/// Active memories that pass `filter`, newest first: after `before` (keyset) or skipping
/// `offset`. The filter's conditions are part of the query, so only passing rows are read
/// past the index.
pub(crate) fn latest_filtered(
    conn: &Connection,
    before: Option<(i64, &MemoryId)>,
    offset: usize,
    count: usize,
    filter: &crate::types::MemoryFilter,
) -> Result<Vec<MemoryRecord>> {
    let (conditions, mut values) = super::filter::conditions(filter, 5);
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM memories m WHERE m.status = 'active'
           AND (?1 IS NULL OR (m.created_at_ms, m.rowid) < (?1, (SELECT rowid FROM memories WHERE id = ?2))){conditions}
         ORDER BY m.created_at_ms DESC, m.rowid DESC LIMIT ?3 OFFSET ?4"
    ))?;
    let mut all: Vec<rusqlite::types::Value> = vec![
        before.map_or(rusqlite::types::Value::Null, |(ms, _)| ms.into()),
        before.map_or(rusqlite::types::Value::Null, |(_, id)| id.to_string().into()),
        to_i64(count).into(),
        to_i64(offset).into(),
    ];
    all.append(&mut values);
    let rows = stmt.query_map(rusqlite::params_from_iter(all), from_row)?;
    Ok(rows.map(|r| r.map(|(_, m)| m)).collect::<rusqlite::Result<Vec<_>>>()?)
}

/// Memories by rowid (any status).
pub(crate) fn by_rowids(conn: &Connection, rowids: &[i64]) -> Result<HashMap<i64, MemoryRecord>> {
    let mut stmt = conn.prepare_cached(&format!("SELECT {COLUMNS} FROM memories WHERE rowid IN rarray(?1)"))?;
    let rows = stmt.query_map([super::rowid_array(rowids)], from_row)?;
    rows.collect::<rusqlite::Result<HashMap<_, _>>>().map_err(Into::into)
}

/// One memory by id (any status), with its rowid.
pub(crate) fn by_id(conn: &Connection, id: &MemoryId) -> Result<Option<(i64, MemoryRecord)>> {
    let mut stmt = conn.prepare_cached(&format!("SELECT {COLUMNS} FROM memories WHERE id = ?1"))?;
    Ok(stmt.query_row([id], from_row).optional()?)
}

/// Inserts a memory and returns its rowid.
pub(crate) fn insert(
    conn: &Connection,
    id: &MemoryId,
    content: &str,
    status: MemoryStatus,
    ts: i64,
    changeset_id: ChangesetId,
    attributes: &MemoryAttributes,
) -> Result<i64> {
    conn.execute(
        "INSERT INTO memories (id, content, status, created_at_ms, updated_at_ms, changeset_id,
             memory_type, importance, source, agent_id, session_id, user_id, metadata)
         VALUES (?1, ?2, ?3, ?4, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
        params![
            id,
            content,
            status,
            ts,
            changeset_id,
            attributes.memory_type,
            attributes.importance,
            attributes.source,
            attributes.agent_id,
            attributes.session_id,
            attributes.user_id,
            attributes.metadata_json()
        ],
    )?;
    Ok(conn.last_insert_rowid())
}

/// Changes a memory's status (and, for `Active`, its timestamp when `ts_as_created`).
pub(crate) fn set_status(
    conn: &Connection,
    rowid: i64,
    status: MemoryStatus,
    superseded_by: Option<ChangesetId>,
    ts: i64,
) -> Result<()> {
    conn.execute(
        "UPDATE memories SET status = ?2, superseded_by = ?3, updated_at_ms = ?4 WHERE rowid = ?1",
        params![rowid, status, superseded_by, ts],
    )?;
    Ok(())
}

/// Makes a pending memory active, as a memory created at `ts`.
pub(crate) fn activate_pending(conn: &Connection, rowid: i64, ts: i64) -> Result<()> {
    conn.execute(
        "UPDATE memories SET status = 'active', created_at_ms = ?2, updated_at_ms = ?2 WHERE rowid = ?1",
        params![rowid, ts],
    )?;
    Ok(())
}

/// Deletes a pending memory (a proposal that was rejected or replaced; its text stays in
/// the changeset).
pub(crate) fn delete_pending(conn: &Connection, rowid: i64) -> Result<()> {
    conn.execute("DELETE FROM memories WHERE rowid = ?1 AND status = 'pending'", [rowid])?;
    Ok(())
}

/// Number of memories with a status that pass `filter`.
pub(crate) fn count(conn: &Connection, status: MemoryStatus, filter: &MemoryFilter) -> Result<usize> {
    // Active memories are counted per span of time already (the coarsest level has a
    // row or two); the others, and filtered counts, are counted in the index.
    let n: i64 = if !filter.is_empty() {
        let (sql, mut params) = super::filter::conditions(filter, 2);
        params.insert(0, rusqlite::types::Value::Text(status.as_str().to_owned()));
        conn.query_row(
            &format!("SELECT count(*) FROM memories m WHERE m.status = ?1{sql}"),
            rusqlite::params_from_iter(params),
            |r| r.get(0),
        )?
    } else if status == MemoryStatus::Active {
        conn.query_row(
            "SELECT coalesce(sum(active), 0) FROM latest_counts WHERE level = 40",
            [],
            |r| r.get(0),
        )?
    } else {
        conn.query_row("SELECT count(*) FROM memories WHERE status = ?1", [status], |r| {
            r.get(0)
        })?
    };
    Ok(usize::try_from(n).unwrap_or(0))
}

/// Whether the store has any memory, in any status.
pub(crate) fn any(conn: &Connection) -> Result<bool> {
    Ok(conn.query_row("SELECT EXISTS (SELECT 1 FROM memories)", [], |r| r.get(0))?)
}

/// Whether any memory has one of `statuses` (without counting them).
pub(crate) fn any_with(conn: &Connection, statuses: &[MemoryStatus]) -> Result<bool> {
    let mut stmt = conn.prepare_cached("SELECT EXISTS (SELECT 1 FROM memories WHERE status = ?1)")?;
    for status in statuses {
        if stmt.query_row([status], |r| r.get::<_, bool>(0))? {
            return Ok(true);
        }
    }
    Ok(false)
}

fn to_i64(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Memories matching a `WHERE` clause of this module's callers, in rowid order.
pub(crate) fn select(
    conn: &Connection,
    condition: &str,
    params: impl rusqlite::Params,
) -> Result<Vec<(i64, MemoryRecord)>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM memories WHERE {condition} ORDER BY rowid"
    ))?;
    let rows = stmt.query_map(params, from_row)?;
    Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
}

/// Every memory in rowid order (for export).
pub(crate) fn all(conn: &Connection) -> Result<Vec<MemoryRecord>> {
    let mut stmt = conn.prepare_cached(&format!("SELECT {COLUMNS} FROM memories ORDER BY rowid"))?;
    let rows = stmt.query_map([], from_row)?;
    Ok(rows.map(|r| r.map(|(_, m)| m)).collect::<rusqlite::Result<Vec<_>>>()?)
}

/// Inserts a memory exactly as recorded (for import) and returns its rowid.
pub(crate) fn restore(conn: &Connection, m: &MemoryRecord) -> Result<i64> {
    conn.execute(
        "INSERT INTO memories (id, content, status, created_at_ms, updated_at_ms, changeset_id, superseded_by,
             memory_type, importance, source, agent_id, session_id, user_id, metadata, pinned)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
        params![
            m.id,
            m.content,
            m.status,
            m.timestamp_ms,
            m.updated_at_ms,
            m.changeset_id,
            m.superseded_by,
            m.attributes.memory_type,
            m.attributes.importance,
            m.attributes.source,
            m.attributes.agent_id,
            m.attributes.session_id,
            m.attributes.user_id,
            m.attributes.metadata_json(),
            m.pinned
        ],
    )?;
    Ok(conn.last_insert_rowid())
}

/// Pins or unpins a memory.
pub(crate) fn set_pinned(conn: &Connection, rowid: i64, pinned: bool, ts: i64) -> Result<()> {
    conn.execute(
        "UPDATE memories SET pinned = ?2, updated_at_ms = ?3 WHERE rowid = ?1",
        params![rowid, pinned, ts],
    )?;
    Ok(())
}
