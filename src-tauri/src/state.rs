//! The open store and the remembered preferences, shared by every command.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use haema_core::{Memory, OpenOptions, Settings};
use tokio::sync::{Mutex, RwLock};

use crate::error::{CommandError, CommandResult};
use crate::prefs::Prefs;

/// The app's state.
pub struct AppState {
    /// The open store as the window works on it (one person's, in a store that keeps
    /// people's memories apart).
    memory: RwLock<Option<Memory>>,
    /// The open store without a person chosen: the way to another person's memories.
    base: RwLock<Option<Memory>>,
    /// Bumped when another store opens, so that the old store's watcher stops.
    pub generation: Arc<AtomicU64>,
    /// Preferences and the file they live in.
    prefs: Mutex<(Prefs, Option<PathBuf>)>,
}

pub use haema_core::{default_store_dir as default_store, is_store_dir as is_store};

impl AppState {
    /// State with the preferences in `prefs_file` (none remembered when `None`).
    pub fn new(prefs_file: Option<PathBuf>) -> Self {
        let prefs = prefs_file.as_deref().map(Prefs::load).unwrap_or_default();
        Self {
            memory: RwLock::new(None),
            base: RwLock::new(None),
            generation: Arc::new(AtomicU64::new(0)),
            prefs: Mutex::new((prefs, prefs_file)),
        }
    }

    /// The open store.
    pub async fn memory(&self) -> CommandResult<Memory> {
        self.memory.read().await.clone().ok_or_else(CommandError::no_store)
    }

    /// The open store without a person chosen, when no one is changing it right now: what
    /// the store's recall socket answers Claude Code's hooks with
    /// ([`haema_core::recall_socket`]).
    pub fn held(&self) -> Option<Memory> {
        self.base.try_read().ok().and_then(|base| base.clone())
    }

    /// Opens the store in `dir` with its settings (creating it when missing) and remembers
    /// it; returns the store and the generation its watcher runs under. It opens at once with
    /// what is on this machine: a missing embedding model comes in the background
    /// ([`crate::model::upgrade_in_background`]).
    pub async fn open(&self, dir: PathBuf) -> CommandResult<(Memory, u64)> {
        let settings = crate::blocking::off_async({
            let dir = dir.clone();
            move || Ok(Settings::load(&dir)?)
        })
        .await?;
        let base = Memory::open_with_options(&dir, settings, OpenOptions::quick()).await?;
        // A store that keeps people apart opens for `HAEMA_USER` when it is set; else the
        // window asks whose memories to show.
        let user = std::env::var("HAEMA_USER").ok().filter(|u| !u.trim().is_empty());
        let memory = match user {
            Some(user) if base.requires_user() => base.for_user(&user)?,
            _ => base.clone(),
        };
        *self.base.write().await = Some(base);
        *self.memory.write().await = Some(memory.clone());
        let generation = self.generation.fetch_add(1, Ordering::AcqRel) + 1;
        self.update_prefs(|p| p.opened(&dir)).await;
        Ok((memory, generation))
    }

    /// Puts `memory` (the open store, opened again) in place if no other store was opened
    /// since generation `generation`; returns whether it did.
    pub async fn replace_if_current(&self, generation: u64, memory: Memory) -> bool {
        let mut slot = self.memory.write().await;
        let same = slot.as_ref().is_some_and(|m| m.dir() == memory.dir());
        if !same || self.generation.load(Ordering::Acquire) != generation {
            return false;
        }
        let user = slot.as_ref().and_then(|m| m.user().map(str::to_owned));
        let scoped = match user.as_deref().map(|u| memory.for_user(u)) {
            Some(Ok(scoped)) => scoped,
            Some(Err(_)) => return false,
            None => memory.clone(),
        };
        *self.base.write().await = Some(memory);
        *slot = Some(scoped);
        true
    }

    /// Works on `user`'s memories of the open store from now on (a store that keeps
    /// people's memories apart); returns the store as that person sees it.
    pub async fn choose_user(&self, user: &str) -> CommandResult<Memory> {
        let base = self.base.read().await.clone().ok_or_else(CommandError::no_store)?;
        let memory = base.for_user(user)?;
        *self.memory.write().await = Some(memory.clone());
        Ok(memory)
    }

    /// The remembered preferences.
    pub async fn prefs(&self) -> Prefs {
        self.prefs.lock().await.0.clone()
    }

    /// Changes the preferences and writes them (a failed write only costs the memory of
    /// this change, so it is reported on stderr, not to the person).
    pub async fn update_prefs(&self, change: impl FnOnce(&mut Prefs)) {
        let mut guard = self.prefs.lock().await;
        change(&mut guard.0);
        if let Some(file) = &guard.1
            && let Err(e) = guard.0.save(file)
        {
            eprintln!("haema-desktop: cannot save preferences to {}: {e}", file.display());
        }
    }
}
