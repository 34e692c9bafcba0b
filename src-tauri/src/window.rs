//! The window keeps the size a person gave it: restored at start, remembered on close.

use tauri::{LogicalSize, Manager, Runtime, WebviewWindow, WindowEvent};

use crate::prefs::WindowSize;
use crate::state::AppState;

/// Gives `window` the remembered size and remembers its size when it closes.
pub fn keep_size<R: Runtime>(window: &WebviewWindow<R>) {
    let app = window.app_handle().clone();
    let remembered = tauri::async_runtime::block_on(async { app.state::<AppState>().prefs().await.window_size() });
    if let Some(size) = remembered
        && let Err(e) = window.set_size(LogicalSize::new(size.width, size.height))
    {
        eprintln!("haema-desktop: cannot restore the window size: {e}");
    }
    let watched = window.clone();
    window.on_window_event(move |event| {
        if !matches!(event, WindowEvent::CloseRequested { .. }) {
            return;
        }
        let (Ok(size), Ok(scale)) = (watched.inner_size(), watched.scale_factor()) else {
            return;
        };
        let logical = size.to_logical::<f64>(scale);
        let app = watched.app_handle().clone();
        tauri::async_runtime::block_on(async move {
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
