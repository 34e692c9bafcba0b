//! The settings view: every setting of the open store as the one registry declares it
//! (`haema_core::config::SETTINGS`, the same lines as `haema config`), with its value in
//! force, where that value came from and where it can be changed.

use std::path::{Path, PathBuf};

use haema_core::config::SettingLine;
use haema_core::{Memory, Settings};
use serde::Serialize;
use tauri::State;

use crate::error::CommandResult;
use crate::state::AppState;

/// The open store's settings, as the window shows them.
#[derive(Debug, Serialize, specta::Type)]
pub struct StoreSettings {
    /// The store's settings file (`<store>/haema.toml`), where most settings are changed.
    pub file: PathBuf,
    /// Whether that file exists yet (a store needs none: every setting has a default).
    pub file_exists: bool,
    /// The user's settings file for every store (`config.toml`, the terminal UI's
    /// settings); `None` without a home folder.
    pub user_file: Option<PathBuf>,
    /// Every setting (but the store folder, which the window shows itself) in the
    /// registry's order: its value (keys masked), where it came from, its variable, its
    /// default and a line of help.
    pub settings: Vec<SettingLine>,
    /// Whether the files now say something else than the settings the open store was
    /// opened with: the values shown apply once the store is opened again.
    pub reopen_needed: bool,
}

/// The open store's settings, read from its `haema.toml`, the user's `config.toml` and this
/// process's environment.
#[tauri::command]
#[specta::specta]
pub async fn settings(state: State<'_, AppState>) -> CommandResult<StoreSettings> {
    let memory = state.memory().await?;
    crate::blocking::off_async(move || {
        store_settings(&memory, Settings::user_file_path().as_deref(), |name| {
            std::env::var(name).ok()
        })
    })
    .await
}

/// [`settings`] with the user's file and the environment given.
///
/// # Errors
/// A settings file cannot be read or holds what is not a setting.
pub fn store_settings(
    memory: &Memory,
    user_file: Option<&Path>,
    env: impl Fn(&str) -> Option<String>,
) -> CommandResult<StoreSettings> {
    let dir = memory.dir();
    let file = Settings::file_path(dir);
    // Keys come from the keyring as when the store was opened, so that a saved key is shown
    // (masked, from `keyring`) and does not read as a change of settings.
    let keys = haema_core::keys::from_env(&env);
    let settings = Settings::explain_with_keys(dir, user_file, &env, &*keys)?;
    let mut now = Settings::load_with_keys(dir, user_file, &env, &*keys)?;
    // The terminal UI's settings are read by the terminal UI, not by the open store.
    now.tui = memory.settings().tui.clone();
    Ok(StoreSettings {
        file_exists: file.is_file(),
        file,
        user_file: user_file.map(Path::to_path_buf),
        settings,
        reopen_needed: now != *memory.settings(),
    })
}
