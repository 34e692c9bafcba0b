//! The `changesets` and `changeset_items` tables.

use tokio_postgres::Row;

use super::client::Conn;
use super::memories::to_i64;
use super::values::{closed, closed_opt, json, to_json};
use crate::error::{Error, Result};
use crate::types::changeset::summary_text;
use crate::types::{
    Changeset, ChangesetFilter, ChangesetId, ChangesetStatus, ChangesetSummary, DecidedBy, LlmCall, MemoryAttributes,
    MemoryId, ProposedItem, RelatedItem, SUMMARY_INPUT_CHARS,
};

const COLUMNS: &str = "id, kind, status, outcome, created_at_ms, decided_at_ms, decided_by, raw_input, inputs, \
    core_before, core_after, llm, embedder, llm_log, warnings, reverts_id, reverted_by_id, forget, attributes, agent_key";

fn id_opt(row: &Row, index: usize) -> Result<Option<ChangesetId>> {
    Ok(row.try_get::<_, Option<i64>>(index)?.map(ChangesetId::from))
}

fn from_row(row: &Row) -> Result<Changeset> {
    let forget: Option<&str> = row.try_get(17)?;
    let attributes: Option<&str> = row.try_get(18)?;
    Ok(Changeset {
        id: ChangesetId::from(row.try_get::<_, i64>(0)?),
        kind: closed(row, 1)?,
        status: closed(row, 2)?,
        outcome: closed(row, 3)?,
        created_at_ms: row.try_get(4)?,
        decided_at_ms: row.try_get(5)?,
        decided_by: closed_opt(row, 6)?,
        raw_input: row.try_get(7)?,
        inputs: json(row, 8, "inputs")?,
        related: Vec::new(),
        proposed: Vec::new(),
        core_before: row.try_get(9)?,
        core_after: row.try_get(10)?,
        llm: row.try_get(11)?,
        embedder: row.try_get(12)?,
        llm_calls: json::<Vec<LlmCall>>(row, 13, "llm_log")?,
        warnings: json(row, 14, "warnings")?,
        reverts_id: id_opt(row, 15)?,
        reverted_by_id: id_opt(row, 16)?,
        forget: match forget {
            Some(_) => Some(json(row, 17, "forget")?),
            None => None,
        },
        attributes: match attributes {
            Some(_) => json(row, 18, "attributes")?,
            None => MemoryAttributes::default(),
        },
        agent_key: row.try_get(19)?,
    })
}

/// Inserts a changeset with its items; returns its id. With `id`, exactly as recorded (an
/// import), and the id sequence moves past it.
pub(super) fn insert(conn: &Conn, c: &Changeset, id: Option<ChangesetId>) -> Result<ChangesetId> {
    let row = conn.query_one(
        "INSERT INTO changesets (kind, status, outcome, created_at_ms, decided_at_ms, decided_by, raw_input, inputs,
             core_before, core_after, llm, embedder, llm_log, warnings, reverts_id, forget, attributes, agent_key, id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18,
                 coalesce($19, nextval(pg_get_serial_sequence('changesets', 'id'))))
         RETURNING id",
        &[
            &c.kind.as_str(),
            &c.status.as_str(),
            &c.outcome.as_str(),
            &c.created_at_ms,
            &c.decided_at_ms,
            &c.decided_by.map(DecidedBy::as_str),
            &c.raw_input,
            &to_json(&c.inputs),
            &c.core_before,
            &c.core_after,
            &c.llm,
            &c.embedder,
            &to_json(&c.llm_calls),
            &to_json(&c.warnings),
            &c.reverts_id.map(ChangesetId::get),
            &c.forget.as_ref().map(to_json),
            &attributes_json(&c.attributes),
            &c.agent_key,
            &id.map(ChangesetId::get),
        ],
    )?;
    let new = ChangesetId::from(row.try_get::<_, i64>(0)?);
    if id.is_some() {
        conn.execute(
            "SELECT setval(pg_get_serial_sequence('changesets', 'id'), (SELECT max(id) FROM changesets))",
            &[],
        )?;
    }
    write_related(conn, new, &c.related)?;
    write_proposed(conn, new, &c.proposed)?;
    Ok(new)
}

/// Sets the reverting changeset of a restored changeset.
pub(super) fn restore_reverted_by(conn: &Conn, id: ChangesetId, by: ChangesetId) -> Result<()> {
    conn.execute(
        "UPDATE changesets SET reverted_by_id = $2 WHERE id = $1",
        &[&id.get(), &by.get()],
    )?;
    Ok(())
}

fn position(n: usize) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

/// Writes the related items of a changeset that has none yet.
fn write_related(conn: &Conn, id: ChangesetId, related: &[RelatedItem]) -> Result<()> {
    for (n, item) in related.iter().enumerate() {
        conn.execute(
            "INSERT INTO changeset_items (changeset_id, role, position, memory_id, content, distance, kept)
             VALUES ($1, 'related', $2, $3, $4, $5, $6)",
            &[
                &id.get(),
                &position(n),
                &item.memory_id.as_str(),
                &item.content,
                &item.distance,
                &item.kept,
            ],
        )?;
    }
    Ok(())
}

/// Replaces the proposed items of a changeset.
pub(super) fn write_proposed(conn: &Conn, id: ChangesetId, proposed: &[ProposedItem]) -> Result<()> {
    conn.execute(
        "DELETE FROM changeset_items WHERE changeset_id = $1 AND role = 'proposed'",
        &[&id.get()],
    )?;
    for (n, item) in proposed.iter().enumerate() {
        conn.execute(
            "INSERT INTO changeset_items (changeset_id, role, position, memory_id, content, kept, attributes)
             VALUES ($1, 'proposed', $2, $3, $4, $5, $6)",
            &[
                &id.get(),
                &position(n),
                &item.memory_id.as_ref().map(MemoryId::as_str),
                &item.content,
                &item.kept,
                &attributes_json(&item.attributes),
            ],
        )?;
    }
    Ok(())
}

/// Attributes as the text of their column: `NULL` when none is set.
fn attributes_json(attributes: &MemoryAttributes) -> Option<String> {
    (!attributes.is_empty()).then(|| to_json(attributes))
}

/// Replaces the warnings of a changeset.
pub(super) fn set_warnings(conn: &Conn, id: ChangesetId, warnings: &[String]) -> Result<()> {
    conn.execute(
        "UPDATE changesets SET warnings = $2 WHERE id = $1",
        &[&id.get(), &to_json(&warnings)],
    )?;
    Ok(())
}

/// Rewrites every text a changeset records from `c`, as forgetting does.
pub(super) fn rewrite_text(conn: &Conn, c: &Changeset) -> Result<()> {
    conn.execute(
        "UPDATE changesets SET raw_input = $2, inputs = $3, core_before = $4, core_after = $5, llm_log = $6,
             warnings = $7, forget = $8, attributes = $9 WHERE id = $1",
        &[
            &c.id.get(),
            &c.raw_input,
            &to_json(&c.inputs),
            &c.core_before,
            &c.core_after,
            &to_json(&c.llm_calls),
            &to_json(&c.warnings),
            &c.forget.as_ref().map(to_json),
            &attributes_json(&c.attributes),
        ],
    )?;
    conn.execute(
        "DELETE FROM changeset_items WHERE changeset_id = $1 AND role = 'related'",
        &[&c.id.get()],
    )?;
    write_related(conn, c.id, &c.related)?;
    write_proposed(conn, c.id, &c.proposed)
}

/// Marks which related memories are kept.
pub(super) fn write_related_kept(conn: &Conn, id: ChangesetId, related: &[RelatedItem]) -> Result<()> {
    for (n, item) in related.iter().enumerate() {
        conn.execute(
            "UPDATE changeset_items SET kept = $3 WHERE changeset_id = $1 AND role = 'related' AND position = $2",
            &[&id.get(), &position(n), &item.kept],
        )?;
    }
    Ok(())
}

/// Reads the items of `changesets` (one query for them all).
fn load_items(conn: &Conn, changesets: &mut [Changeset]) -> Result<()> {
    if changesets.is_empty() {
        return Ok(());
    }
    let ids: Vec<i64> = changesets.iter().map(|c| c.id.get()).collect();
    let rows = conn.query(
        "SELECT changeset_id, role, memory_id, content, distance, kept, attributes FROM changeset_items
         WHERE changeset_id = ANY($1::bigint[]) ORDER BY changeset_id, role, position",
        &[&ids],
    )?;
    let index: std::collections::HashMap<i64, usize> = ids.iter().enumerate().map(|(i, id)| (*id, i)).collect();
    for row in &rows {
        let Some(&at) = index.get(&row.try_get::<_, i64>(0)?) else {
            continue;
        };
        let changeset = &mut changesets[at];
        let role: &str = row.try_get(1)?;
        let memory_id: Option<String> = row.try_get(2)?;
        let (content, distance, kept): (String, Option<f64>, bool) =
            (row.try_get(3)?, row.try_get(4)?, row.try_get(5)?);
        if role == "related" {
            let memory_id = memory_id.ok_or_else(|| {
                Error::InvalidState(format!(
                    "changeset {} lists a related memory without an id; the store was changed by hand",
                    changeset.id
                ))
            })?;
            changeset.related.push(RelatedItem {
                memory_id: MemoryId::from(memory_id),
                content,
                distance,
                kept,
            });
        } else {
            let attributes = match row.try_get::<_, Option<&str>>(6)? {
                Some(text) => serde_json::from_str(text).map_err(|e| {
                    Error::InvalidState(format!(
                        "changeset {} holds attributes this haema cannot read ({e}); the store was changed by hand",
                        changeset.id
                    ))
                })?,
                None => MemoryAttributes::default(),
            };
            changeset.proposed.push(ProposedItem {
                memory_id: memory_id.map(MemoryId::from),
                content,
                kept,
                attributes,
            });
        }
    }
    Ok(())
}

/// One changeset with its items.
pub(super) fn get(conn: &Conn, id: ChangesetId) -> Result<Option<Changeset>> {
    let Some(row) = conn.query_opt(&format!("SELECT {COLUMNS} FROM changesets WHERE id = $1"), &[&id.get()])? else {
        return Ok(None);
    };
    let mut one = [from_row(&row)?];
    load_items(conn, &mut one)?;
    let [changeset] = one;
    Ok(Some(changeset))
}

/// At most `limit` changesets (only `owner`'s, when given) with an id below `before`,
/// newest first.
pub(super) fn page(
    conn: &Conn,
    filter: ChangesetFilter,
    owner: Option<&str>,
    before: Option<ChangesetId>,
    limit: usize,
) -> Result<Vec<Changeset>> {
    let before = before.map_or(i64::MAX, ChangesetId::get);
    let status = match filter {
        ChangesetFilter::All => None,
        ChangesetFilter::Status(s) => Some(s.as_str()),
    };
    let rows = conn.query(
        &format!(
            "SELECT {COLUMNS} FROM changesets WHERE id < $1 AND ($3::text IS NULL OR status = $3)
               AND ($4::text IS NULL OR user_id = $4) ORDER BY id DESC LIMIT $2"
        ),
        &[&before, &to_i64(limit), &status, &owner],
    )?;
    let mut out = rows.iter().map(from_row).collect::<Result<Vec<_>>>()?;
    load_items(conn, &mut out)?;
    Ok(out)
}

/// At most `limit` changeset summaries (only `owner`'s, and only those made through agent key
/// `made_by`, when given) below `before`, newest first, in one statement.
pub(super) fn summaries(
    conn: &Conn,
    owner: Option<&str>,
    made_by: Option<&str>,
    before: Option<ChangesetId>,
    limit: usize,
) -> Result<Vec<ChangesetSummary>> {
    // One character more than is kept tells `summary_text` that the text was cut.
    let cut = i32::try_from(SUMMARY_INPUT_CHARS + 1).unwrap_or(i32::MAX);
    let rows = conn.query(
        "SELECT c.id, c.kind, c.status, c.outcome, c.created_at_ms, c.decided_at_ms, c.decided_by,
             substr(c.raw_input, 1, $3),
             (SELECT coalesce(json_agg(substr(value, 1, $3)), '[]')::text
                FROM (SELECT value FROM jsonb_array_elements_text(c.inputs::jsonb) WITH ORDINALITY AS e(value, n)
                      ORDER BY n LIMIT 3) first),
             jsonb_array_length(c.inputs::jsonb)::bigint,
             (SELECT count(*) FROM changeset_items i WHERE i.changeset_id = c.id AND i.role = 'related' AND NOT i.kept),
             (SELECT count(*) FROM changeset_items i WHERE i.changeset_id = c.id AND i.role = 'proposed' AND NOT i.kept),
             c.core_after IS NOT NULL,
             jsonb_array_length(c.warnings::jsonb)::bigint,
             c.reverts_id, c.reverted_by_id,
             (SELECT substr(i.content, 1, $3) FROM changeset_items i
                WHERE i.changeset_id = c.id AND i.role = 'related' AND NOT i.kept ORDER BY i.position LIMIT 1),
             (SELECT substr(i.content, 1, $3) FROM changeset_items i
                WHERE i.changeset_id = c.id AND i.role = 'proposed' AND NOT i.kept ORDER BY i.position LIMIT 1),
             c.agent_key
         FROM changesets c
         WHERE c.id < $1 AND ($4::text IS NULL OR c.user_id = $4) AND ($5::text IS NULL OR c.agent_key = $5)
         ORDER BY c.id DESC LIMIT $2",
        &[&before.map_or(i64::MAX, ChangesetId::get), &to_i64(limit), &cut, &owner, &made_by],
    )?;
    let count = |n: i64| usize::try_from(n).unwrap_or(0);
    rows.iter()
        .map(|row| {
            let first: Vec<String> = json(row, 8, "inputs")?;
            Ok(ChangesetSummary {
                id: ChangesetId::from(row.try_get::<_, i64>(0)?),
                kind: closed(row, 1)?,
                status: closed(row, 2)?,
                outcome: closed(row, 3)?,
                created_at_ms: row.try_get(4)?,
                decided_at_ms: row.try_get(5)?,
                decided_by: closed_opt(row, 6)?,
                raw_input: row.try_get::<_, Option<&str>>(7)?.map(summary_text),
                first_inputs: first.iter().map(|i| summary_text(i)).collect(),
                input_count: count(row.try_get(9)?),
                removed: count(row.try_get(10)?),
                added: count(row.try_get(11)?),
                changes_core: row.try_get(12)?,
                warnings: count(row.try_get(13)?),
                reverts_id: id_opt(row, 14)?,
                reverted_by_id: id_opt(row, 15)?,
                first_removed: row.try_get::<_, Option<&str>>(16)?.map(summary_text),
                first_added: row.try_get::<_, Option<&str>>(17)?.map(summary_text),
                agent_key: row.try_get(18)?,
            })
        })
        .collect()
}

/// Whether the store has any changeset.
pub(super) fn any(conn: &Conn) -> Result<bool> {
    Ok(conn
        .query_one("SELECT EXISTS (SELECT 1 FROM changesets)", &[])?
        .try_get(0)?)
}

/// Number of changesets (only `owner`'s, when given) waiting for review.
pub(super) fn count_pending(conn: &Conn, owner: Option<&str>) -> Result<usize> {
    let n: i64 = conn
        .query_one(
            "SELECT count(*) FROM changesets WHERE status = 'pending' AND ($1::text IS NULL OR user_id = $1)",
            &[&owner],
        )?
        .try_get(0)?;
    Ok(usize::try_from(n).unwrap_or(0))
}

/// Records a decision.
pub(super) fn decide(conn: &Conn, id: ChangesetId, status: ChangesetStatus, by: DecidedBy, ts: i64) -> Result<()> {
    conn.execute(
        "UPDATE changesets SET status = $2, decided_by = $3, decided_at_ms = $4 WHERE id = $1",
        &[&id.get(), &status.as_str(), &by.as_str(), &ts],
    )?;
    Ok(())
}

/// Puts a decided changeset back to waiting for review.
pub(super) fn reopen(conn: &Conn, id: ChangesetId) -> Result<()> {
    conn.execute(
        "UPDATE changesets SET status = 'pending', decided_by = NULL, decided_at_ms = NULL WHERE id = $1",
        &[&id.get()],
    )?;
    Ok(())
}

/// Links a reverted changeset to the changeset that reverted it.
pub(super) fn set_reverted_by(conn: &Conn, id: ChangesetId, by: ChangesetId) -> Result<()> {
    conn.execute(
        "UPDATE changesets SET status = 'reverted', reverted_by_id = $2 WHERE id = $1",
        &[&id.get(), &by.get()],
    )?;
    Ok(())
}
