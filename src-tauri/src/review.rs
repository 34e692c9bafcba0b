//! Commands of the review and history views: changes as before/after views, and deciding
//! them (each decision can be undone: approve by revert, reject by reopen).

use haema_core::{AddOutcome, ChangesetFilter, ChangesetId, ChangesetView};
use tauri::State;

use crate::error::CommandResult;
use crate::state::AppState;

fn views(changesets: Vec<haema_core::Changeset>) -> Vec<ChangesetView> {
    changesets.into_iter().map(ChangesetView::new).collect()
}

/// Changes waiting for a person (pending, then stale), as before/after views.
#[tauri::command]
#[specta::specta]
pub async fn awaiting_review(state: State<'_, AppState>) -> CommandResult<Vec<ChangesetView>> {
    Ok(views(state.memory().await?.awaiting_review().await?))
}

/// One change as a before/after view.
#[tauri::command]
#[specta::specta]
pub async fn changeset(state: State<'_, AppState>, id: ChangesetId) -> CommandResult<ChangesetView> {
    Ok(ChangesetView::new(state.memory().await?.changeset(id).await?))
}

/// Approves a change as proposed.
#[tauri::command]
#[specta::specta]
pub async fn approve(state: State<'_, AppState>, id: ChangesetId) -> CommandResult<ChangesetView> {
    Ok(ChangesetView::new(state.memory().await?.approve(id).await?))
}

/// Approves a change with a person's version of its memories (edited, some left out, or
/// old ones kept).
#[tauri::command]
#[specta::specta]
pub async fn approve_edited(
    state: State<'_, AppState>,
    id: ChangesetId,
    memories: Vec<String>,
) -> CommandResult<ChangesetView> {
    Ok(ChangesetView::new(
        state.memory().await?.approve_edited(id, memories).await?,
    ))
}

/// Declines a change.
#[tauri::command]
#[specta::specta]
pub async fn reject(state: State<'_, AppState>, id: ChangesetId) -> CommandResult<ChangesetView> {
    Ok(ChangesetView::new(state.memory().await?.reject(id).await?))
}

/// Takes back a rejection: the change waits for review again.
#[tauri::command]
#[specta::specta]
pub async fn reopen(state: State<'_, AppState>, id: ChangesetId) -> CommandResult<ChangesetView> {
    Ok(ChangesetView::new(state.memory().await?.reopen(id).await?))
}

/// Builds an outdated change again against the memories as they are now.
#[tauri::command]
#[specta::specta]
pub async fn rerun(state: State<'_, AppState>, id: ChangesetId) -> CommandResult<AddOutcome> {
    Ok(state.memory().await?.rerun(id).await?)
}

/// Undoes a committed change (as a new change, itself undoable).
#[tauri::command]
#[specta::specta]
pub async fn revert(state: State<'_, AppState>, id: ChangesetId) -> CommandResult<ChangesetView> {
    Ok(ChangesetView::new(state.memory().await?.revert(id).await?))
}

/// A page of every change, newest first.
#[tauri::command]
#[specta::specta]
pub async fn history(
    state: State<'_, AppState>,
    before: Option<ChangesetId>,
    count: usize,
) -> CommandResult<Vec<ChangesetView>> {
    Ok(views(
        state
            .memory()
            .await?
            .changesets_page(ChangesetFilter::All, before, count.clamp(1, 200))
            .await?,
    ))
}
