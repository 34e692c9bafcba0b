//! Claude Code's own memory on this computer (`~/.claude/projects/<project>/memory/`),
//! found for the person and brought in with one click.

use haema_core::ImportSummary;
use serde::Serialize;
use tauri::{AppHandle, State};

use crate::error::{CommandError, CommandResult};
use crate::progress::{Reporter, Task};
use crate::state::AppState;

/// One Claude Code project's memory folder.
#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct ClaudeMemory {
    /// The memory folder.
    pub dir: String,
    /// The project, as Claude Code names its folder (its path with `-` for `/`).
    pub project: String,
    /// The Markdown files in it (`MEMORY.md` and its topic files).
    pub files: u32,
}

/// Claude Code's memory folders on this computer.
#[tauri::command]
#[specta::specta]
pub async fn claude_memories() -> CommandResult<Vec<ClaudeMemory>> {
    crate::blocking::off_async(|| {
        Ok(haema_core::claude_memory_folders()
            .into_iter()
            .map(|dir| {
                let files = std::fs::read_dir(&dir)
                    .into_iter()
                    .flatten()
                    .filter_map(|e| e.ok())
                    .filter(|e| e.path().extension().is_some_and(|x| x == "md"))
                    .count();
                ClaudeMemory {
                    project: dir
                        .parent()
                        .and_then(|p| p.file_name())
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default(),
                    dir: dir.display().to_string(),
                    files: u32::try_from(files).unwrap_or(u32::MAX),
                }
            })
            .collect())
    })
    .await
}

/// Brings in the Claude Code memory folder `dir`: each list item and paragraph a memory
/// with `source = "claude-code"`, screened and imported once, like any import.
#[tauri::command]
#[specta::specta]
pub async fn import_claude_memory(
    app: AppHandle,
    state: State<'_, AppState>,
    dir: String,
) -> CommandResult<ImportSummary> {
    let path = std::path::PathBuf::from(&dir);
    if !haema_core::is_claude_memory(&path) {
        return Err(CommandError::invalid(format!(
            "{dir} is not Claude Code's memory (it has no MEMORY.md): choose one of the folders listed."
        )));
    }
    let memory = state.memory().await?;
    let progress = Reporter::new(app, Task::Import);
    progress.say("Reading Claude Code's memory…");
    let step = progress.clone();
    let result = memory
        .import_path(&path, move |done, total| {
            step.step(done, total, "Making the memories searchable…")
        })
        .await;
    progress.finish();
    Ok(result?.summary())
}
