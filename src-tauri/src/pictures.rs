//! What the pictures are drawn from: activity over the last days by who decided (History),
//! a memory's whole ancestry (its "Where this came from"), and the week at a glance
//! (Memories).

use haema_core::{ActivityEvent, Ancestry, MemoryId, WeekSummary};
use tauri::State;

use crate::error::CommandResult;
use crate::state::AppState;

const DAY_MS: i64 = 86_400_000;

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// Every change of the last `days` days (at most a year), oldest first, by who decided.
#[tauri::command]
#[specta::specta]
pub async fn activity(state: State<'_, AppState>, days: u32) -> CommandResult<Vec<ActivityEvent>> {
    let days = i64::from(days.clamp(1, 366));
    Ok(state.memory().await?.activity(now_ms() - days * DAY_MS).await?)
}

/// A memory and every memory it was built from.
#[tauri::command]
#[specta::specta]
pub async fn ancestry(state: State<'_, AppState>, id: MemoryId) -> CommandResult<Ancestry> {
    Ok(state.memory().await?.ancestry(&id).await?)
}

/// The store over the last seven days.
#[tauri::command]
#[specta::specta]
pub async fn week_summary(state: State<'_, AppState>) -> CommandResult<WeekSummary> {
    Ok(state.memory().await?.week_summary(now_ms() - 7 * DAY_MS).await?)
}
