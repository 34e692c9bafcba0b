//! Which memories have their search vector, for [`MemoryRecord::has_embedding`]: every
//! active and superseded memory of a store with vectors that is not behind, none in a store
//! searched by words, and in a store behind (memories written while the embedder was down
//! or before a deferred embedding) the ones the vector table holds.

use std::collections::HashSet;
use std::rc::Rc;

use rusqlite::Connection;
use rusqlite::types::Value;

use super::vectors;
use crate::error::Result;
use crate::store::MetaKey;
use crate::types::{MemoryRecord, MemoryStatus};

/// Sets `has_embedding` on memories just read.
pub(crate) fn mark<'a>(conn: &Connection, records: impl IntoIterator<Item = &'a mut MemoryRecord>) -> Result<()> {
    let mut records: Vec<&mut MemoryRecord> = records.into_iter().collect();
    if records.is_empty() {
        return Ok(());
    }
    // One cached statement: does the store keep vectors, and is it behind?
    let (has_vectors, behind): (bool, bool) = conn
        .prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE name = ?1),
                    EXISTS (SELECT 1 FROM meta WHERE key = ?2)",
        )?
        .query_row([vectors::TABLE, MetaKey::VectorsBehind.as_str()], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })?;
    if !has_vectors {
        return Ok(());
    }
    if !behind {
        for r in &mut records {
            r.has_embedding = matches!(r.status, MemoryStatus::Active | MemoryStatus::Superseded);
        }
        return Ok(());
    }
    let ids: Vec<Value> = records.iter().map(|r| Value::Text(r.id.to_string())).collect();
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT m.id FROM memories m JOIN {} v ON v.rowid = m.rowid WHERE m.id IN rarray(?1)",
        vectors::TABLE
    ))?;
    let with: HashSet<String> = stmt
        .query_map([Rc::new(ids)], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    for r in &mut records {
        r.has_embedding = with.contains(r.id.as_str());
    }
    Ok(())
}
