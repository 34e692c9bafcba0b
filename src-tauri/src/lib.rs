//! haema's desktop app: thin Tauri commands over `haema-core`; the window is `ui/`.
//!
//! Module map: [`commands`] (one `#[tauri::command]` per action), [`state`] (the open
//! store), [`error`] (errors as `{kind, message}`).

pub mod commands;
pub mod error;
pub mod live;
pub mod memories;
pub mod review;
pub mod state;

/// Builds and runs the app.
pub fn run() -> Result<(), tauri::Error> {
    tauri::Builder::default()
        .manage(state::AppState::default())
        .invoke_handler(tauri::generate_handler![
            commands::app_status,
            commands::open_store,
            commands::latest,
            memories::add,
            memories::search,
            memories::recall,
            memories::lineage,
            review::pending,
            review::approve,
            review::approve_edited,
            review::reject,
            review::revert,
            review::history,
            review::core,
            review::set_section,
            review::set_lock,
            review::core_versions,
            review::restore_version
        ])
        .run(tauri::generate_context!())
}
