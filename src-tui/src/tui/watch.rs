//! Live refresh: forwards the core's [`haema_core::StoreWatch`] (another process wrote the
//! store or core.md) to the app, once per burst of changes.

use haema_core::Memory;
use tokio::sync::mpsc::UnboundedSender;

use super::Incoming;
use super::app::Msg;

/// Watches the open store while it lives; switching stores watches the new one.
pub struct Watcher {
    forward: tokio::task::JoinHandle<()>,
    watches_files: bool,
    tx: UnboundedSender<Incoming>,
}

impl Watcher {
    /// Starts watching `memory`'s store. Must be called inside the Tokio runtime.
    pub fn start(memory: &Memory, tx: UnboundedSender<Incoming>) -> Self {
        let mut changes = memory.watch();
        let watches_files = changes.watches_files();
        let sender = tx.clone();
        let forward = tokio::spawn(async move {
            while changes.changed().await {
                if sender.send(Incoming::Msg(Msg::StoreChanged)).is_err() {
                    break;
                }
            }
        });
        Self {
            forward,
            watches_files,
            tx,
        }
    }

    /// Watches another store from now on.
    pub fn switch(&mut self, memory: &Memory) {
        let next = Self::start(memory, self.tx.clone());
        self.forward.abort();
        *self = next;
    }

    /// True when core.md is watched (false on file systems without notifications; the
    /// database poll still works there).
    pub fn watches_files(&self) -> bool {
        self.watches_files
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        self.forward.abort();
    }
}
