//! haema's desktop app: thin Tauri commands over `haema-core`; the window is `ui/`.
//!
//! Module map: [`commands`] (stores and the newest memories), [`memories`] (add, search,
//! import, re-embed), [`review`] (changes and history), [`core_view`] (the core profile),
//! [`state`] (the open store), [`prefs`] (recent stores, window size), [`window`],
//! [`live`] (refresh when another process writes), [`progress`] (events of long work),
//! [`model`] (the embedding model fetched in the background), [`settings`] (every setting
//! and where it came from), [`connect`] (connect an AI, the review policy, merge
//! sensitivity), [`backup`] (the store's size, a backup or a readable copy to a file), [`pictures`]
//! (activity, ancestry, the week), [`forget`] (what a forget would remove, then the
//! forget), [`agents`] (keys of agents on other computers, what each did, undoing it),
//! [`error`] (errors as `{kind, message, remedy}`), [`bindings`] (the window's generated
//! TypeScript).

pub mod agents;
pub mod backup;
pub mod bindings;
pub mod blocking;
pub mod claude_memory;
pub mod command_names;
pub mod commands;
pub mod connect;
pub mod core_view;
pub mod edits;
pub mod error;
pub mod forget;
pub mod live;
pub mod memories;
pub mod model;
pub mod pictures;
pub mod prefs;
pub mod progress;
pub mod review;
pub mod settings;
pub mod state;
pub mod window;

use tauri::Manager;
use tauri_specta::{Builder, collect_commands, collect_events};

/// Every command and event of the app, with their types: the invoke handler, and the source
/// of the window's generated TypeScript (`ui/src/bindings.ts`, see [`bindings`]).
pub fn specta_builder() -> Builder<tauri::Wry> {
    Builder::<tauri::Wry>::new()
        .commands(collect_commands![
            commands::app_status,
            commands::open_store,
            commands::choose_user,
            commands::stores,
            commands::latest,
            memories::add,
            memories::search,
            memories::recall,
            memories::lineage,
            memories::import_file,
            claude_memory::claude_memories,
            claude_memory::import_claude_memory,
            memories::reembed,
            review::awaiting_review,
            review::changeset,
            review::approve,
            review::approve_edited,
            review::reject,
            review::reopen,
            review::rerun,
            review::revert,
            review::history,
            core_view::core,
            core_view::set_section,
            core_view::set_lock,
            core_view::section_history,
            core_view::text_diff,
            settings::settings,
            connect::ai_setup,
            connect::local_ai,
            connect::test_connection,
            connect::save_connection,
            connect::forget_saved_key,
            connect::set_setting,
            backup::store_facts,
            backup::write_copy,
            pictures::activity,
            pictures::ancestry,
            pictures::week_summary,
            forget::forget_plan,
            forget::pending_forget,
            forget::forget,
            edits::update_memory,
            edits::update_attributes,
            edits::delete_memory,
            edits::set_pinned,
            agents::agent_keys,
            agents::create_agent_key,
            agents::rotate_agent_key,
            agents::revoke_agent_key,
            agents::agent_key_activity,
            agents::undo_agent_key_changes,
        ])
        .events(collect_events![live::StoreChanged, progress::Progress])
        .constant("SECTIONS", haema_core::Section::ALL)
        .constant("STALE_MEANING", haema_core::STALE_MEANING)
        .constant("STALE_EDIT_MEANING", haema_core::STALE_EDIT_MEANING)
        .constant("MCP_HTTP_ADDR", haema_core::MCP_HTTP_ADDR)
        .error_handling(tauri_specta::ErrorHandlingMode::Throw)
        .dangerously_cast_bigints_to_number()
        .disable_serde_phases()
}

/// Builds and runs the app.
pub fn run() -> Result<(), tauri::Error> {
    let builder = specta_builder();
    tauri::Builder::default()
        .invoke_handler(builder.invoke_handler())
        .setup(move |app| {
            builder.mount_events(app);
            let prefs_file = app.path().app_config_dir().ok().map(|d| d.join("desktop.json"));
            app.manage(state::AppState::new(prefs_file));
            // Claude Code's hooks are answered warm while the window holds a store open.
            let handle = app.handle().clone();
            tauri::async_runtime::spawn(haema_core::recall_socket::serve(move || {
                handle.state::<state::AppState>().held()
            }));
            if let Some(main) = app.get_webview_window("main") {
                window::keep_size(&main);
            }
            Ok(())
        })
        .run(tauri::generate_context!())
}
