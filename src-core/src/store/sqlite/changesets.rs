//! The `changesets` and `changeset_items` tables.

use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::error::Result;
use crate::types::changeset::summary_text;
use crate::types::{
    Changeset, ChangesetFilter, ChangesetId, ChangesetStatus, ChangesetSummary, DecidedBy, LlmCall, MemoryAttributes,
    ProposedItem, RelatedItem, SUMMARY_INPUT_CHARS,
};

const COLUMNS: &str = "id, kind, status, outcome, created_at_ms, decided_at_ms, decided_by, raw_input, inputs, \
    core_before, core_after, llm, embedder, llm_log, warnings, reverts_id, reverted_by_id, forget, attributes, agent_key";

/// A JSON column. Text that is not what haema writes (damaged, or with a value this haema
/// does not know, such as an unknown LLM stage) is an error that says which column.
fn json_column<T: serde::de::DeserializeOwned>(row: &Row<'_>, index: usize) -> rusqlite::Result<T> {
    let text: String = row.get(index)?;
    serde_json::from_str(&text).map_err(|e| {
        let column = COLUMNS.split(", ").nth(index).unwrap_or("?").trim().to_owned();
        rusqlite::Error::FromSqlConversionFailure(
            index,
            rusqlite::types::Type::Text,
            format!("the changeset column `{column}` holds JSON this haema cannot read: {e}").into(),
        )
    })
}

fn from_row(row: &Row<'_>) -> rusqlite::Result<Changeset> {
    Ok(Changeset {
        id: row.get(0)?,
        kind: row.get(1)?,
        status: row.get(2)?,
        outcome: row.get(3)?,
        created_at_ms: row.get(4)?,
        decided_at_ms: row.get(5)?,
        decided_by: row.get(6)?,
        raw_input: row.get(7)?,
        inputs: json_column(row, 8)?,
        related: Vec::new(),
        proposed: Vec::new(),
        core_before: row.get(9)?,
        core_after: row.get(10)?,
        llm: row.get(11)?,
        embedder: row.get(12)?,
        llm_calls: json_column::<Vec<LlmCall>>(row, 13)?,
        warnings: json_column(row, 14)?,
        reverts_id: row.get(15)?,
        reverted_by_id: row.get(16)?,
        forget: match row.get_ref(17)?.as_str_or_null()? {
            Some(_) => Some(json_column(row, 17)?),
            None => None,
        },
        attributes: match row.get_ref(18)?.as_str_or_null()? {
            Some(_) => json_column(row, 18)?,
            None => MemoryAttributes::default(),
        },
        agent_key: row.get(19)?,
    })
}

/// Inserts a changeset with its items and returns its id. `changeset.id` is ignored.
pub(crate) fn insert(conn: &Connection, changeset: &Changeset) -> Result<ChangesetId> {
    insert_row(conn, changeset, None)
}

/// Inserts a changeset exactly as recorded, with its id and decision (for import). The
/// link to a later reverting changeset is set by [`restore_reverted_by`] once that exists.
pub(crate) fn restore(conn: &Connection, changeset: &Changeset) -> Result<()> {
    insert_row(conn, changeset, Some(changeset.id)).map(drop)
}

/// Sets the reverting changeset of a restored changeset.
pub(crate) fn restore_reverted_by(conn: &Connection, id: ChangesetId, by: ChangesetId) -> Result<()> {
    conn.execute(
        "UPDATE changesets SET reverted_by_id = ?2 WHERE id = ?1",
        params![id, by],
    )?;
    Ok(())
}

fn insert_row(conn: &Connection, changeset: &Changeset, id: Option<ChangesetId>) -> Result<ChangesetId> {
    conn.execute(
        "INSERT INTO changesets (kind, status, outcome, created_at_ms, decided_at_ms, decided_by, raw_input, inputs,
             core_before, core_after, llm, embedder, llm_log, warnings, reverts_id, forget, attributes, agent_key, id)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)",
        params![
            changeset.kind,
            changeset.status,
            changeset.outcome,
            changeset.created_at_ms,
            changeset.decided_at_ms,
            changeset.decided_by,
            changeset.raw_input,
            serde_json::to_string(&changeset.inputs).unwrap_or_else(|_| "[]".into()),
            changeset.core_before,
            changeset.core_after,
            changeset.llm,
            changeset.embedder,
            serde_json::to_string(&changeset.llm_calls).unwrap_or_else(|_| "[]".into()),
            serde_json::to_string(&changeset.warnings).unwrap_or_else(|_| "[]".into()),
            changeset.reverts_id,
            changeset.forget.as_ref().and_then(|f| serde_json::to_string(f).ok()),
            attributes_json(&changeset.attributes),
            changeset.agent_key,
            id,
        ],
    )?;
    let id = ChangesetId::from(conn.last_insert_rowid());
    write_related(conn, id, &changeset.related)?;
    write_proposed(conn, id, &changeset.proposed)?;
    Ok(id)
}

/// Writes the related items of a changeset that has none yet.
fn write_related(conn: &Connection, id: ChangesetId, related: &[RelatedItem]) -> Result<()> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO changeset_items (changeset_id, role, position, memory_id, content, distance, kept) VALUES (?1, 'related', ?2, ?3, ?4, ?5, ?6)",
    )?;
    for (position, item) in related.iter().enumerate() {
        stmt.execute(params![
            id,
            position as i64,
            item.memory_id,
            item.content,
            item.distance,
            item.kept
        ])?;
    }
    Ok(())
}

/// Replaces the proposed items of a changeset.
pub(crate) fn write_proposed(conn: &Connection, id: ChangesetId, proposed: &[ProposedItem]) -> Result<()> {
    conn.execute(
        "DELETE FROM changeset_items WHERE changeset_id = ?1 AND role = 'proposed'",
        [id],
    )?;
    let mut stmt = conn.prepare_cached(
        "INSERT INTO changeset_items (changeset_id, role, position, memory_id, content, kept, attributes)
         VALUES (?1, 'proposed', ?2, ?3, ?4, ?5, ?6)",
    )?;
    for (position, item) in proposed.iter().enumerate() {
        stmt.execute(params![
            id,
            position as i64,
            item.memory_id,
            item.content,
            item.kept,
            attributes_json(&item.attributes)
        ])?;
    }
    Ok(())
}

/// Attributes as the text of their column: `NULL` when none is set.
fn attributes_json(attributes: &MemoryAttributes) -> Option<String> {
    (!attributes.is_empty()).then(|| to_json(attributes))
}

/// Replaces the warnings of a changeset.
pub(crate) fn set_warnings(conn: &Connection, id: ChangesetId, warnings: &[String]) -> Result<()> {
    conn.execute(
        "UPDATE changesets SET warnings = ?2 WHERE id = ?1",
        params![id, serde_json::to_string(warnings).unwrap_or_else(|_| "[]".into())],
    )?;
    Ok(())
}

/// Rewrites every text a changeset records (inputs, raw input, core before and after, LLM
/// exchanges, warnings, items, its forget record) from `changeset`, as forgetting does.
pub(crate) fn rewrite_text(conn: &Connection, changeset: &Changeset) -> Result<()> {
    conn.execute(
        "UPDATE changesets SET raw_input = ?2, inputs = ?3, core_before = ?4, core_after = ?5, llm_log = ?6,
             warnings = ?7, forget = ?8, attributes = ?9 WHERE id = ?1",
        params![
            changeset.id,
            changeset.raw_input,
            to_json(&changeset.inputs),
            changeset.core_before,
            changeset.core_after,
            to_json(&changeset.llm_calls),
            to_json(&changeset.warnings),
            changeset.forget.as_ref().map(to_json),
            attributes_json(&changeset.attributes),
        ],
    )?;
    conn.execute(
        "DELETE FROM changeset_items WHERE changeset_id = ?1 AND role = 'related'",
        [changeset.id],
    )?;
    write_related(conn, changeset.id, &changeset.related)?;
    write_proposed(conn, changeset.id, &changeset.proposed)
}

/// A value as the text of a JSON column.
fn to_json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "null".into())
}

/// Marks which related memories are kept.
pub(crate) fn write_related_kept(conn: &Connection, id: ChangesetId, related: &[RelatedItem]) -> Result<()> {
    let mut stmt = conn.prepare_cached(
        "UPDATE changeset_items SET kept = ?3 WHERE changeset_id = ?1 AND role = 'related' AND position = ?2",
    )?;
    for (position, item) in related.iter().enumerate() {
        stmt.execute(params![id, position as i64, item.kept])?;
    }
    Ok(())
}

fn load_items(conn: &Connection, changeset: &mut Changeset) -> Result<()> {
    let mut stmt = conn.prepare_cached(
        "SELECT role, memory_id, content, distance, kept, attributes FROM changeset_items WHERE changeset_id = ?1
         ORDER BY role, position",
    )?;
    let rows = stmt.query_map([changeset.id], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, Option<crate::types::MemoryId>>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, Option<f64>>(3)?,
            r.get::<_, bool>(4)?,
            r.get::<_, Option<String>>(5)?,
        ))
    })?;
    for row in rows {
        let (role, memory_id, content, distance, kept, attributes) = row?;
        if role == "related" {
            changeset.related.push(RelatedItem {
                memory_id: memory_id.ok_or_else(|| {
                    crate::error::Error::InvalidState(format!(
                        "changeset {} lists a related memory without an id; the store was changed by hand",
                        changeset.id
                    ))
                })?,
                content,
                distance,
                kept,
            });
        } else {
            let attributes = match attributes {
                Some(text) => serde_json::from_str(&text).map_err(|e| {
                    crate::error::Error::InvalidState(format!(
                        "changeset {} holds attributes this haema cannot read ({e}); the store was changed by hand",
                        changeset.id
                    ))
                })?,
                None => MemoryAttributes::default(),
            };
            changeset.proposed.push(ProposedItem {
                memory_id,
                content,
                kept,
                attributes,
            });
        }
    }
    Ok(())
}

/// One changeset with its items.
pub(crate) fn get(conn: &Connection, id: ChangesetId) -> Result<Option<Changeset>> {
    let mut stmt = conn.prepare_cached(&format!("SELECT {COLUMNS} FROM changesets WHERE id = ?1"))?;
    let Some(mut changeset) = stmt.query_row([id], from_row).optional()? else {
        return Ok(None);
    };
    load_items(conn, &mut changeset)?;
    Ok(Some(changeset))
}

/// The condition that keeps only user `?{n}`'s changesets (every one when it is NULL).
fn owned(n: usize) -> String {
    format!("(?{n} IS NULL OR user_id = ?{n})")
}

/// At most `limit` changesets (only `owner`'s, when given) with an id below `before` (all
/// when `None`), newest first.
pub(crate) fn page(
    conn: &Connection,
    filter: ChangesetFilter,
    owner: Option<&str>,
    before: Option<ChangesetId>,
    limit: usize,
) -> Result<Vec<Changeset>> {
    let before = before.map_or(i64::MAX, ChangesetId::get);
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    let mut stmt;
    let rows = match filter {
        ChangesetFilter::All => {
            stmt = conn.prepare_cached(&format!(
                "SELECT {COLUMNS} FROM changesets WHERE id < ?1 AND {} ORDER BY id DESC LIMIT ?2",
                owned(3)
            ))?;
            stmt.query_map(params![before, limit, owner], from_row)?
                .collect::<rusqlite::Result<Vec<_>>>()?
        }
        ChangesetFilter::Status(s) => {
            stmt = conn.prepare_cached(&format!(
                "SELECT {COLUMNS} FROM changesets WHERE status = ?3 AND id < ?1 AND {} ORDER BY id DESC LIMIT ?2",
                owned(4)
            ))?;
            stmt.query_map(params![before, limit, s, owner], from_row)?
                .collect::<rusqlite::Result<Vec<_>>>()?
        }
    };
    let mut out = Vec::with_capacity(rows.len());
    for mut changeset in rows {
        load_items(conn, &mut changeset)?;
        out.push(changeset);
    }
    Ok(out)
}

/// At most `limit` changeset summaries (only `owner`'s, and only those made through agent key
/// `made_by`, when given) with an id below `before` (all when `None`), newest first, in one
/// statement: the item counts come from the primary key of
/// `changeset_items` and the input texts are cut in SQL, so a changeset with 100,000 items
/// costs a count, not 100,000 rows.
pub(crate) fn summaries(
    conn: &Connection,
    owner: Option<&str>,
    made_by: Option<&str>,
    before: Option<ChangesetId>,
    limit: usize,
) -> Result<Vec<ChangesetSummary>> {
    let mut stmt = conn.prepare_cached(
        "SELECT c.id, c.kind, c.status, c.outcome, c.created_at_ms, c.decided_at_ms, c.decided_by,
             substr(c.raw_input, 1, ?3),
             (SELECT json_group_array(substr(value, 1, ?3)) FROM (SELECT value FROM json_each(c.inputs) LIMIT 3)),
             json_array_length(c.inputs),
             (SELECT count(*) FROM changeset_items i WHERE i.changeset_id = c.id AND i.role = 'related' AND NOT i.kept),
             (SELECT count(*) FROM changeset_items i WHERE i.changeset_id = c.id AND i.role = 'proposed' AND NOT i.kept),
             c.core_after IS NOT NULL,
             json_array_length(c.warnings),
             c.reverts_id, c.reverted_by_id,
             (SELECT substr(i.content, 1, ?3) FROM changeset_items i
                WHERE i.changeset_id = c.id AND i.role = 'related' AND NOT i.kept ORDER BY i.position LIMIT 1),
             (SELECT substr(i.content, 1, ?3) FROM changeset_items i
                WHERE i.changeset_id = c.id AND i.role = 'proposed' AND NOT i.kept ORDER BY i.position LIMIT 1),
             c.agent_key
         FROM changesets c
         WHERE c.id < ?1 AND (?4 IS NULL OR c.user_id = ?4) AND (?5 IS NULL OR c.agent_key = ?5)
         ORDER BY c.id DESC LIMIT ?2",
    )?;
    let before = before.map_or(i64::MAX, ChangesetId::get);
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    // One character more than is kept tells `summary_text` that the text was cut.
    let cut = i64::try_from(SUMMARY_INPUT_CHARS + 1).unwrap_or(i64::MAX);
    let count = |n: i64| usize::try_from(n).unwrap_or(0);
    let rows = stmt.query_map(params![before, limit, cut, owner, made_by], |row| {
        // Column 8 holds the first of the `inputs`, read like that column.
        let first: Vec<String> = json_column(row, 8)?;
        Ok(ChangesetSummary {
            id: row.get(0)?,
            kind: row.get(1)?,
            status: row.get(2)?,
            outcome: row.get(3)?,
            created_at_ms: row.get(4)?,
            decided_at_ms: row.get(5)?,
            decided_by: row.get(6)?,
            raw_input: row.get::<_, Option<String>>(7)?.as_deref().map(summary_text),
            first_inputs: first.iter().map(|i| summary_text(i)).collect(),
            input_count: count(row.get(9)?),
            removed: count(row.get(10)?),
            added: count(row.get(11)?),
            changes_core: row.get(12)?,
            warnings: count(row.get(13)?),
            reverts_id: row.get(14)?,
            reverted_by_id: row.get(15)?,
            first_removed: row.get::<_, Option<String>>(16)?.as_deref().map(summary_text),
            first_added: row.get::<_, Option<String>>(17)?.as_deref().map(summary_text),
            agent_key: row.get(18)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
}

/// Whether the store has any changeset.
pub(crate) fn any(conn: &Connection) -> Result<bool> {
    Ok(conn.query_row("SELECT EXISTS (SELECT 1 FROM changesets)", [], |r| r.get(0))?)
}

/// Number of changesets (only `owner`'s, when given) waiting for review.
pub(crate) fn count_pending(conn: &Connection, owner: Option<&str>) -> Result<usize> {
    let n: i64 = conn.query_row(
        &format!(
            "SELECT count(*) FROM changesets WHERE status = 'pending' AND {}",
            owned(1)
        ),
        [owner],
        |r| r.get(0),
    )?;
    Ok(usize::try_from(n).unwrap_or(0))
}

/// Records a decision.
pub(crate) fn decide(
    conn: &Connection,
    id: ChangesetId,
    status: ChangesetStatus,
    by: DecidedBy,
    ts: i64,
) -> Result<()> {
    conn.execute(
        "UPDATE changesets SET status = ?2, decided_by = ?3, decided_at_ms = ?4 WHERE id = ?1",
        params![id, status, by, ts],
    )?;
    Ok(())
}

/// Puts a decided changeset back to waiting for review.
pub(crate) fn reopen(conn: &Connection, id: ChangesetId) -> Result<()> {
    conn.execute(
        "UPDATE changesets SET status = 'pending', decided_by = NULL, decided_at_ms = NULL WHERE id = ?1",
        [id],
    )?;
    Ok(())
}

/// Links a reverted changeset to the changeset that reverted it.
pub(crate) fn set_reverted_by(conn: &Connection, id: ChangesetId, by: ChangesetId) -> Result<()> {
    conn.execute(
        "UPDATE changesets SET status = 'reverted', reverted_by_id = ?2 WHERE id = ?1",
        params![id, by],
    )?;
    Ok(())
}
