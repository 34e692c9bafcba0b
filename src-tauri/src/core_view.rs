//! Commands of the core view: four sections as cards, each editable, lockable and with
//! its own history to roll back to.

use haema_core::review::diff::Piece;
use haema_core::{CoreSections, CoreVersionId, Section, SectionChange};
use serde::Serialize;
use tauri::State;

use crate::error::CommandResult;
use crate::state::AppState;

/// The core profile as four sections, with their locks.
#[derive(Debug, Serialize, specta::Type)]
pub struct CoreView {
    /// The sections.
    pub sections: CoreSections,
    /// Locked ones.
    pub locked: Vec<Section>,
}

/// The core profile.
#[tauri::command]
#[specta::specta]
pub async fn core(state: State<'_, AppState>) -> CommandResult<CoreView> {
    let memory = state.memory().await?;
    Ok(CoreView {
        sections: memory.core_sections().await?,
        locked: memory.locked_sections().await?.into_iter().collect(),
    })
}

/// Saves a person's text for a section; returns the new version.
#[tauri::command]
#[specta::specta]
pub async fn set_section(state: State<'_, AppState>, section: Section, text: String) -> CommandResult<CoreVersionId> {
    Ok(state.memory().await?.set_core_section(section, &text).await?)
}

/// Locks or unlocks a section (a locked section is never changed by the LLM).
#[tauri::command]
#[specta::specta]
pub async fn set_lock(state: State<'_, AppState>, section: Section, locked: bool) -> CommandResult<()> {
    Ok(state.memory().await?.set_section_lock(section, locked).await?)
}

/// The texts a section had, newest first, each with what changed.
#[tauri::command]
#[specta::specta]
pub async fn section_history(state: State<'_, AppState>, section: Section) -> CommandResult<Vec<SectionChange>> {
    let versions = state.memory().await?.core_versions().await?;
    Ok(haema_core::section_history(&versions, section))
}

/// A line diff of two texts (what a person's edit changes, before saving).
#[tauri::command]
#[specta::specta]
pub fn text_diff(old: String, next: String) -> Vec<Piece> {
    haema_core::review::diff::lines(&old, &next)
}
