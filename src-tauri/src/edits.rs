//! A person's direct edits of one memory from the window: change its text, delete it, pin
//! it. The person at the window decides, so each is committed at once (a change the
//! History can undo), whatever the review policy.

use haema_core::{AddOutcome, MemoryAttributes, MemoryId, MemoryRecord};
use tauri::State;

use crate::error::{CommandError, CommandResult};
use crate::state::AppState;

/// Replaces a memory's text: a new memory with the same attributes and pin takes its place
/// (its id is in `memory_ids`). The same text changes nothing.
#[tauri::command]
#[specta::specta]
pub async fn update_memory(state: State<'_, AppState>, id: MemoryId, text: String) -> CommandResult<AddOutcome> {
    if text.trim().is_empty() {
        return Err(CommandError::invalid(
            "The new text is empty. To remove the memory, delete it instead.",
        ));
    }
    Ok(state.memory().await?.update_memory(&id, &text).await?)
}

/// Replaces a memory's attributes (all of them, as given): a new memory with the same text
/// and pin takes its place (its id is in `memory_ids`). The same attributes change nothing.
#[tauri::command]
#[specta::specta]
pub async fn update_attributes(
    state: State<'_, AppState>,
    id: MemoryId,
    attributes: MemoryAttributes,
) -> CommandResult<AddOutcome> {
    Ok(state.memory().await?.update_attributes(&id, attributes).await?)
}

/// Sets a memory aside: it leaves search and the lists; undoing the change brings it back.
#[tauri::command]
#[specta::specta]
pub async fn delete_memory(state: State<'_, AppState>, id: MemoryId) -> CommandResult<AddOutcome> {
    Ok(state.memory().await?.delete_memory(&id).await?)
}

/// Pins or unpins a memory: nothing replaces a pinned memory without the person's review.
#[tauri::command]
#[specta::specta]
pub async fn set_pinned(state: State<'_, AppState>, id: MemoryId, pinned: bool) -> CommandResult<MemoryRecord> {
    Ok(state.memory().await?.set_pinned(&id, pinned).await?)
}
