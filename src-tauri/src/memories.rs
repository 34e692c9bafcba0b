//! Commands of the memories and search views, and adding.

use haema_core::{AddInput, AddOutcome, Lineage, Recall, SearchMode, SearchResults};
use tauri::State;

use crate::error::CommandResult;
use crate::state::AppState;

/// Adds what a person typed; the LLM (when configured) merges it with related memories.
/// Runs on the async runtime, never on the window's thread.
#[tauri::command]
pub async fn add(state: State<'_, AppState>, text: String) -> CommandResult<AddOutcome> {
    Ok(state.memory().await?.add(AddInput::Text(text)).await?)
}

/// Searches long-term memory.
#[tauri::command]
pub async fn search(
    state: State<'_, AppState>,
    query: String,
    mode: Option<SearchMode>,
    count: Option<i64>,
) -> CommandResult<SearchResults> {
    Ok(state
        .memory()
        .await?
        .search_records(&query, count.unwrap_or(20).clamp(1, 100), mode.unwrap_or_default())
        .await?)
}

/// What an assistant would be given for `query`.
#[tauri::command]
pub async fn recall(state: State<'_, AppState>, query: String, budget: Option<usize>) -> CommandResult<Recall> {
    Ok(state.memory().await?.recall(&query, budget.unwrap_or(800)).await?)
}

/// Where a memory came from and what became of it.
#[tauri::command]
pub async fn lineage(state: State<'_, AppState>, id: String) -> CommandResult<Lineage> {
    Ok(state.memory().await?.lineage(&id).await?)
}
