//! The open store, shared by every command.

use std::path::PathBuf;

use haema_core::{Memory, Settings};
use tokio::sync::RwLock;

use crate::error::{CommandError, CommandResult};

/// The app's state: the open store, if any.
#[derive(Default)]
pub struct AppState {
    memory: RwLock<Option<Memory>>,
    /// Bumped when another store opens, so that the old store's watcher stops.
    pub generation: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

/// `$XDG_DATA_HOME/haema/default`, the store the CLI and TUI use by default.
pub fn default_store() -> Option<PathBuf> {
    directories::BaseDirs::new().map(|b| b.data_dir().join("haema").join("default"))
}

impl AppState {
    /// The open store.
    pub async fn memory(&self) -> CommandResult<Memory> {
        self.memory.read().await.clone().ok_or_else(CommandError::no_store)
    }

    /// Opens (creating when missing) the store in `dir` with its settings.
    pub async fn open(&self, dir: PathBuf) -> CommandResult<Memory> {
        let settings = Settings::load(&dir)?;
        let memory = Memory::open(&dir, settings).await?;
        *self.memory.write().await = Some(memory.clone());
        Ok(memory)
    }
}
