//! Thin `#[tauri::command]` wrappers over haema-core: each returns the core's serde view
//! model or a [`CommandError`].

use std::path::PathBuf;

use haema_core::{MemoryRecord, StoreInfo};
use serde::Serialize;
use tauri::State;

use crate::error::CommandResult;
use crate::state::{AppState, default_store};

/// What the first screen needs to know.
#[derive(Debug, Serialize)]
pub struct AppStatus {
    /// The open store's counts, if one is open.
    pub store: Option<StoreInfo>,
    /// Where the default store is (or would be).
    pub default_store: Option<PathBuf>,
    /// Whether the default store already exists.
    pub default_exists: bool,
}

/// Whether a store is open, and where the default one is.
#[tauri::command]
pub async fn app_status(state: State<'_, AppState>) -> CommandResult<AppStatus> {
    let store = match state.memory().await {
        Ok(memory) => Some(memory.info().await?),
        Err(_) => None,
    };
    let default = default_store();
    let default_exists = default.as_ref().is_some_and(|d| d.join("memory.db").is_file());
    Ok(AppStatus {
        store,
        default_store: default,
        default_exists,
    })
}

/// Opens the store in `dir` (the default store when `None`), creating it when missing.
#[tauri::command]
pub async fn open_store(
    app: tauri::AppHandle,
    state: State<'_, AppState>,
    dir: Option<PathBuf>,
) -> CommandResult<StoreInfo> {
    let dir = dir.or_else(default_store).ok_or_else(|| crate::error::CommandError {
        kind: "invalid",
        message: "There is no home folder to keep the memory in; choose a folder.".into(),
    })?;
    let memory = state.open(dir).await?;
    let mine = state.generation.fetch_add(1, std::sync::atomic::Ordering::AcqRel) + 1;
    crate::live::watch(app, memory.clone(), std::sync::Arc::clone(&state.generation), mine);
    Ok(memory.info().await?)
}

/// A page of the newest memories: from the top, or after the last one shown.
#[tauri::command]
pub async fn latest(
    state: State<'_, AppState>,
    after: Option<MemoryRecord>,
    count: usize,
) -> CommandResult<Vec<MemoryRecord>> {
    let memory = state.memory().await?;
    let count = count.clamp(1, 500);
    Ok(match after {
        Some(after) => memory.latest_after(&after, count).await?,
        None => {
            memory
                .get_latest_records(1, i64::try_from(count).unwrap_or(500))
                .await?
        }
    })
}
