//! The window keeps the size a person gave it: restored at start, remembered shortly after
//! each resize (however the window is later closed or killed).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tauri::{LogicalSize, Manager, Runtime, WebviewWindow, WindowEvent};

use crate::prefs::WindowSize;
use crate::state::AppState;

/// Quiet time after the last resize event before the size is written.
const SETTLE: Duration = Duration::from_millis(400);

/// Gives `window` the remembered size and remembers its size after it is resized.
pub fn keep_size<R: Runtime>(window: &WebviewWindow<R>) {
    let app = window.app_handle().clone();
    let remembered = tauri::async_runtime::block_on(async { app.state::<AppState>().prefs().await.window_size() });
    if let Some(size) = remembered
        && let Err(e) = window.set_size(LogicalSize::new(size.width, size.height))
    {
        eprintln!("haema-desktop: cannot restore the window size: {e}");
    }
    let resizes = Arc::new(AtomicU64::new(0));
    let watched = window.clone();
    window.on_window_event(move |event| {
        let WindowEvent::Resized(size) = event else {
            return;
        };
        let Ok(scale) = watched.scale_factor() else {
            return;
        };
        if size.width == 0 || size.height == 0 {
            return; // minimised
        }
        let logical = size.to_logical::<f64>(scale);
        let mine = resizes.fetch_add(1, Ordering::AcqRel) + 1;
        let resizes = Arc::clone(&resizes);
        let app = watched.app_handle().clone();
        tauri::async_runtime::spawn(async move {
            tokio::time::sleep(SETTLE).await;
            if resizes.load(Ordering::Acquire) != mine {
                return; // a newer resize will write
            }
            app.state::<AppState>()
                .update_prefs(|p| {
                    p.window = Some(WindowSize {
                        width: logical.width,
                        height: logical.height,
                    });
                })
                .await;
        });
    });
}
