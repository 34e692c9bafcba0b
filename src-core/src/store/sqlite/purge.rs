//! Purging a user in SQLite: every memory recorded for them and every changeset made for
//! them, removed for good (the scrub that follows leaves no copy in the files).

use rusqlite::{Connection, params};

use super::{forget, memories};
use crate::error::Result;
use crate::types::PurgeReceipt;

/// Removes user `user_id`'s memories (any status) and changesets. Text of theirs that other
/// changesets hold as items (a store without scopes may have merged users' memories) is
/// blanked; references to the removed changesets from what stays are cleared.
pub(crate) fn purge_user(conn: &Connection, user_id: &str) -> Result<PurgeReceipt> {
    let mine = memories::select(conn, "user_id = ?1", [user_id])?;
    for (rowid, _) in &mine {
        // Out of the full-text index and the vectors, text blanked.
        forget::forget_memory(conn, *rowid, 0)?;
    }
    conn.execute(
        "UPDATE changeset_items SET content = ''
         WHERE memory_id IN (SELECT id FROM memories WHERE user_id = ?1)",
        [user_id],
    )?;
    let owned = "SELECT id FROM changesets WHERE user_id = ?1";
    for clear in [
        format!("UPDATE changesets SET reverts_id = NULL WHERE reverts_id IN ({owned})"),
        format!("UPDATE changesets SET reverted_by_id = NULL WHERE reverted_by_id IN ({owned})"),
        format!("UPDATE core_versions SET changeset_id = NULL WHERE changeset_id IN ({owned})"),
        format!("UPDATE memories SET superseded_by = NULL WHERE superseded_by IN ({owned})"),
        format!("UPDATE memories SET changeset_id = NULL WHERE changeset_id IN ({owned})"),
    ] {
        conn.execute(&clear, [user_id])?;
    }
    conn.execute(
        &format!("DELETE FROM changeset_items WHERE changeset_id IN ({owned})"),
        [user_id],
    )?;
    let changesets = conn.execute("DELETE FROM changesets WHERE user_id = ?1", [user_id])?;
    let removed = conn.execute("DELETE FROM memories WHERE user_id = ?1", params![user_id])?;
    Ok(PurgeReceipt {
        memories: removed,
        changesets,
    })
}
