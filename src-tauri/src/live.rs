//! Live refresh: tells the window when another process (an agent, the TUI) changed the
//! store or its core.md, through the core's [`haema_core::StoreWatch`].

use haema_core::Memory;
use serde::{Deserialize, Serialize};
use tauri::AppHandle;
use tauri_specta::Event;

/// The `store-changed` event: another process wrote to the open store.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, specta::Type, tauri_specta::Event)]
pub struct StoreChanged;

/// How often a watch of a store that is no longer open notices and stops.
const STILL_OPEN: std::time::Duration = std::time::Duration::from_secs(1);

/// Watches `memory` until the app's `generation` moves past `mine` (another store opened):
/// a store that was left stops being watched within a second, changes or not.
pub fn watch(app: AppHandle, memory: Memory, generation: std::sync::Arc<std::sync::atomic::AtomicU64>, mine: u64) {
    tauri::async_runtime::spawn(async move {
        let mut changes = memory.watch();
        while generation.load(std::sync::atomic::Ordering::Acquire) == mine {
            tokio::select! {
                changed = changes.changed() => {
                    if !changed {
                        break;
                    }
                    if generation.load(std::sync::atomic::Ordering::Acquire) == mine {
                        let _ = StoreChanged.emit(&app);
                    }
                }
                () = tokio::time::sleep(STILL_OPEN) => {}
            }
        }
    });
}
