//! Commands of the review, history and core views.

use haema_core::{Changeset, ChangesetFilter, ChangesetStatus, CoreSections, CoreVersion, Section};
use serde::Serialize;
use tauri::State;

use crate::error::CommandResult;
use crate::state::AppState;

/// Changes waiting for a person: pending first, then stale ones.
#[tauri::command]
pub async fn pending(state: State<'_, AppState>) -> CommandResult<Vec<Changeset>> {
    let memory = state.memory().await?;
    let mut items = memory.pending().await?;
    items.extend(
        memory
            .changesets_page(ChangesetFilter::Status(ChangesetStatus::Stale), None, 100)
            .await?,
    );
    Ok(items)
}

/// Approves a change as proposed.
#[tauri::command]
pub async fn approve(state: State<'_, AppState>, id: i64) -> CommandResult<Changeset> {
    Ok(state.memory().await?.approve(id).await?)
}

/// Approves a change with a person's version of its memories.
#[tauri::command]
pub async fn approve_edited(state: State<'_, AppState>, id: i64, memories: Vec<String>) -> CommandResult<Changeset> {
    Ok(state.memory().await?.approve_edited(id, memories).await?)
}

/// Declines a change.
#[tauri::command]
pub async fn reject(state: State<'_, AppState>, id: i64) -> CommandResult<Changeset> {
    Ok(state.memory().await?.reject(id).await?)
}

/// Undoes a committed change (as a new change).
#[tauri::command]
pub async fn revert(state: State<'_, AppState>, id: i64) -> CommandResult<Changeset> {
    Ok(state.memory().await?.revert(id).await?)
}

/// A page of every change, newest first.
#[tauri::command]
pub async fn history(state: State<'_, AppState>, before: Option<i64>, count: usize) -> CommandResult<Vec<Changeset>> {
    Ok(state
        .memory()
        .await?
        .changesets_page(ChangesetFilter::All, before, count.clamp(1, 200))
        .await?)
}

/// The core profile as four sections, with their locks.
#[derive(Debug, Serialize)]
pub struct CoreView {
    /// The sections.
    pub sections: CoreSections,
    /// Locked ones.
    pub locked: Vec<Section>,
}

/// The core profile.
#[tauri::command]
pub async fn core(state: State<'_, AppState>) -> CommandResult<CoreView> {
    let memory = state.memory().await?;
    Ok(CoreView {
        sections: memory.core_sections().await?,
        locked: memory.locked_sections().await?.into_iter().collect(),
    })
}

/// Saves a person's text for a section; returns the new version.
#[tauri::command]
pub async fn set_section(state: State<'_, AppState>, section: Section, text: String) -> CommandResult<i64> {
    Ok(state.memory().await?.set_core_section(section, &text).await?)
}

/// Locks or unlocks a section.
#[tauri::command]
pub async fn set_lock(state: State<'_, AppState>, section: Section, locked: bool) -> CommandResult<()> {
    Ok(state.memory().await?.set_section_lock(section, locked).await?)
}

/// Every version of the core profile, newest first.
#[tauri::command]
pub async fn core_versions(state: State<'_, AppState>) -> CommandResult<Vec<CoreVersion>> {
    Ok(state.memory().await?.core_versions().await?)
}

/// Makes an old version current again; returns the new version.
#[tauri::command]
pub async fn restore_version(state: State<'_, AppState>, id: i64) -> CommandResult<i64> {
    Ok(state.memory().await?.restore_core_version(id).await?)
}
