//! Commands of the review and history views: changes as before/after views, and deciding
//! them (each decision can be undone: approve by revert, reject by reopen).

use haema_core::{AddOutcome, Changeset, ChangesetFilter, ChangesetId, ChangesetView, Memory, Section};
use serde::Serialize;
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

/// A change of the history, with what its undo left in place.
#[derive(Debug, Serialize, specta::Type)]
pub struct HistoryEntry {
    /// The change.
    pub view: ChangesetView,
    /// For a change that was undone, or one that undid another: the profile sections the
    /// undo left as they were, because they had been changed again since (empty when the
    /// undo was whole, and for every other change).
    pub profile_left: Vec<Section>,
}

/// Undoes a committed change (as a new change, itself undoable); says what the undo left.
#[tauri::command]
#[specta::specta]
pub async fn revert(state: State<'_, AppState>, id: ChangesetId) -> CommandResult<HistoryEntry> {
    let memory = state.memory().await?;
    let revert = memory.revert(id).await?;
    entry(&memory, revert).await
}

/// `changeset` with what its undo left in place ([`haema_core::review::revert_left`]).
async fn entry(memory: &Memory, changeset: Changeset) -> CommandResult<HistoryEntry> {
    use haema_core::review::revert_left;
    // An undo's only warnings are the profile sections it left; a change without a profile
    // part leaves none.
    let profile_left = match (changeset.reverts_id, changeset.reverted_by_id) {
        (Some(undone), _) if !changeset.warnings.is_empty() => {
            revert_left(&memory.changeset(undone).await?, &changeset)
        }
        (None, Some(by)) if changeset.core_after.is_some() => revert_left(&changeset, &memory.changeset(by).await?),
        _ => Vec::new(),
    };
    Ok(HistoryEntry {
        view: ChangesetView::new(changeset),
        profile_left,
    })
}

/// A page of every change, newest first; only those made through agent key `agent_key`
/// when it is given.
#[tauri::command]
#[specta::specta]
pub async fn history(
    state: State<'_, AppState>,
    before: Option<ChangesetId>,
    count: usize,
    agent_key: Option<String>,
) -> CommandResult<Vec<HistoryEntry>> {
    let memory = state.memory().await?;
    let count = count.clamp(1, haema_core::limits::MAX_HISTORY_PAGE);
    let page = match agent_key {
        Some(agent) => {
            let mut page = Vec::new();
            for summary in memory.agent_key_changesets(&agent, before, count).await? {
                page.push(memory.changeset(summary.id).await?);
            }
            page
        }
        None => memory.changesets_page(ChangesetFilter::All, before, count).await?,
    };
    let mut out = Vec::with_capacity(page.len());
    for changeset in page {
        out.push(entry(&memory, changeset).await?);
    }
    Ok(out)
}
