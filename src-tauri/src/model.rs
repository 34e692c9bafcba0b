//! The embedding model on first use: a store that waits for it (or for its vectors) gets
//! them in the background, with `progress` events, and is then swapped in place.

use haema_core::{LexicalReason, Memory, OpenOptions, OpenProgress};
use tauri::{AppHandle, Manager};
use tauri_specta::Event;

use crate::live::StoreChanged;
use crate::progress::{Reporter, Task};
use crate::state::AppState;

/// When `memory` waits for its embedding model or vectors, downloads and makes them in the
/// background and puts the store, opened again, in place (unless another store was opened
/// meanwhile), then tells the window to refresh.
pub fn upgrade_in_background(app: AppHandle, memory: &Memory, generation: u64) {
    if !memory.lexical_reason().is_some_and(LexicalReason::waits_for_model) {
        return;
    }
    let (dir, settings) = (memory.dir().to_path_buf(), memory.settings().clone());
    tauri::async_runtime::spawn(async move {
        let progress = Reporter::new(app.clone(), Task::Model);
        let reporter = progress.clone();
        let options = OpenOptions::full(move |p| match p {
            OpenProgress::Download(p) => reporter.step(
                usize::try_from(p.bytes_done / 1_000_000).unwrap_or(0),
                usize::try_from(p.bytes_total.unwrap_or(0) / 1_000_000).unwrap_or(0),
                "Downloading the model that lets search understand meaning (MB):",
            ),
            OpenProgress::Vectors(p) => reporter.step(p.done, p.total, "Preparing memories for search by meaning:"),
        });
        let opened = Memory::open_with_options(&dir, settings, options).await;
        progress.finish();
        match opened {
            Ok(next) => {
                let state = app.state::<AppState>();
                if state.replace_if_current(generation, next).await {
                    let _ = StoreChanged.emit(&app);
                }
            }
            // The store stays as it is (by words); the window learns why from its searches.
            Err(e) => eprintln!("haema-desktop: cannot get the embedding model: {e}"),
        }
    });
}
