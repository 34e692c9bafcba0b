//! The deletes of a purge in SQLite (what a purge removes, and in which order, is
//! [`crate::store::forgetting::purge_user`]'s); the scrub that follows leaves no copy in the
//! files.

use rusqlite::Connection;

use crate::error::Result;
use crate::types::MemoryId;

/// Blanks the text of every item, of any changeset, that names one of `memories`.
pub(crate) fn blank_items_naming(conn: &Connection, memories: &[MemoryId]) -> Result<()> {
    let mut stmt = conn.prepare_cached("UPDATE changeset_items SET content = '' WHERE memory_id = ?1")?;
    for id in memories {
        stmt.execute([id.as_str()])?;
    }
    Ok(())
}

/// Deletes user `user_id`'s changesets and their items; references to them from what stays
/// are cleared first. Returns how many changesets.
pub(crate) fn delete_changesets_of(conn: &Connection, user_id: &str) -> Result<usize> {
    let owned = "SELECT id FROM changesets WHERE user_id = ?1";
    for clear in [
        format!("UPDATE changesets SET reverts_id = NULL WHERE reverts_id IN ({owned})"),
        format!("UPDATE changesets SET reverted_by_id = NULL WHERE reverted_by_id IN ({owned})"),
        format!("UPDATE core_versions SET changeset_id = NULL WHERE changeset_id IN ({owned})"),
        format!("UPDATE memories SET superseded_by = NULL WHERE superseded_by IN ({owned})"),
        format!("UPDATE memories SET changeset_id = NULL WHERE changeset_id IN ({owned})"),
        format!("DELETE FROM changeset_items WHERE changeset_id IN ({owned})"),
    ] {
        conn.execute(&clear, [user_id])?;
    }
    Ok(conn.execute("DELETE FROM changesets WHERE user_id = ?1", [user_id])?)
}

/// Deletes user `user_id`'s memories, in any status; returns how many.
pub(crate) fn delete_memories_of(conn: &Connection, user_id: &str) -> Result<usize> {
    Ok(conn.execute("DELETE FROM memories WHERE user_id = ?1", [user_id])?)
}
