//! Live refresh: notices when another process writes the store (SQLite's `data_version`,
//! polled) or core.md (`notify`), and tells the app once per burst of changes.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use haema_core::Memory;
use notify::{RecursiveMode, Watcher as _};
use tokio::sync::mpsc::UnboundedSender;
use tokio::sync::watch;

use super::Incoming;
use super::app::Msg;

const POLL: Duration = Duration::from_millis(500);

/// Keeps the file watcher alive; the poller stops when the event loop goes away.
pub struct Watcher {
    store: watch::Sender<Memory>,
    files: Option<notify::RecommendedWatcher>,
    core_changed: Arc<AtomicBool>,
}

fn watch_core(dir: &Path, flag: &Arc<AtomicBool>) -> Option<notify::RecommendedWatcher> {
    let flag = Arc::clone(flag);
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        if let Ok(event) = event
            && event
                .paths
                .iter()
                .any(|p| p.file_name().is_some_and(|n| n == "core.md"))
        {
            flag.store(true, Ordering::Release);
        }
    })
    .ok()?;
    watcher.watch(dir, RecursiveMode::NonRecursive).ok()?;
    Some(watcher)
}

impl Watcher {
    /// Starts watching `memory`'s store.
    pub fn start(memory: &Memory, tx: UnboundedSender<Incoming>) -> Self {
        let (store, mut current) = watch::channel(memory.clone());
        let core_changed = Arc::new(AtomicBool::new(false));
        let files = watch_core(memory.dir(), &core_changed);
        let flag = Arc::clone(&core_changed);
        tokio::spawn(async move {
            let first = current.borrow().clone();
            let mut last = first.data_version().await.ok();
            loop {
                tokio::time::sleep(POLL).await;
                if current.has_changed().unwrap_or(false) {
                    current.borrow_and_update();
                    let memory = current.borrow().clone();
                    last = memory.data_version().await.ok();
                    continue;
                }
                let memory = current.borrow().clone();
                let version = memory.data_version().await.ok();
                let db_changed = version.is_some() && version != last;
                last = version;
                let core_changed = flag.swap(false, Ordering::AcqRel);
                if (db_changed || core_changed) && tx.send(Incoming::Msg(Msg::StoreChanged)).is_err() {
                    break;
                }
            }
        });
        Self {
            store,
            files,
            core_changed,
        }
    }

    /// Watches another store from now on.
    pub fn switch(&mut self, memory: &Memory) {
        self.files = watch_core(memory.dir(), &self.core_changed);
        let _ = self.store.send(memory.clone());
    }

    /// True when core.md is watched (false on file systems without notifications; the
    /// database poll still works there).
    pub fn watches_files(&self) -> bool {
        self.files.is_some()
    }
}
