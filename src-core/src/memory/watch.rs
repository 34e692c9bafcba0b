//! Change notification: tells a front end when another process (an agent, the CLI, another
//! window) changed the store, so that it can show the store as it is now. The database is
//! polled (SQLite's `data_version`, which moves on every commit by another connection) and
//! core.md is watched with the file system's notifications where there are any. A second
//! backend tells the same way (PostgreSQL: `LISTEN/NOTIFY`).

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use notify::{RecursiveMode, Watcher as _};
use tokio::sync::mpsc;

use super::Memory;

/// How often the database is asked whether it changed.
const POLL: Duration = Duration::from_millis(500);

/// A watch on one store: [`StoreWatch::changed`] returns once per burst of changes made
/// by others. Dropping it stops the watching.
#[derive(Debug)]
pub struct StoreWatch {
    changes: mpsc::Receiver<()>,
    poller: tokio::task::JoinHandle<()>,
    files: Option<notify::RecommendedWatcher>,
}

impl Memory {
    /// Starts watching this store for changes made by other processes. Must be called
    /// inside a Tokio runtime.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// use haema_core::Memory;
    /// let mut watch = memory.watch();
    /// // Another process (here another handle on the same folder) writes:
    /// let other = Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// other.add("Written elsewhere.").await?;
    /// assert!(watch.changed().await); // time to refresh the view
    /// # Ok(()) }
    /// ```
    pub fn watch(&self) -> StoreWatch {
        let core_changed = Arc::new(AtomicBool::new(false));
        let files = self
            .inner
            .store
            .core_file()
            .and_then(|file| watch_core_file(&file, &core_changed));
        let (tx, changes) = mpsc::channel(1);
        let memory = self.clone();
        // Read now, not in the task: a write made before the task first runs (another
        // process's, right after `watch()`) would otherwise be its starting point and never
        // be reported.
        let first = self.inner.store.data_version().ok();
        let poller = tokio::spawn(async move {
            let mut last = first;
            loop {
                tokio::time::sleep(POLL).await;
                let version = memory.data_version().await.ok();
                let database_changed = version.is_some() && version != last;
                last = version;
                // core.md changes that haema recorded (this process's own edits) are no
                // news: only a text its history lacks is someone else's edit.
                let core = core_changed.swap(false, Ordering::AcqRel) && memory.core_edited_outside().await;
                if database_changed || core {
                    // A change not yet taken is enough: the front end reloads everything.
                    match tx.try_send(()) {
                        Ok(()) | Err(mpsc::error::TrySendError::Full(())) => {}
                        Err(mpsc::error::TrySendError::Closed(())) => break,
                    }
                }
            }
        });
        StoreWatch { changes, poller, files }
    }
}

impl Memory {
    /// Whether core.md holds a text that its recorded history lacks (an edit made outside
    /// haema). A file that cannot be read counts as changed.
    async fn core_edited_outside(&self) -> bool {
        self.blocking(|inner| {
            let text = inner.store.read_core()?;
            let latest = inner.store.read(|c| c.core().latest())?;
            Ok(latest.is_none_or(|v| v.content != text))
        })
        .await
        .unwrap_or(true)
    }
}

impl StoreWatch {
    /// Waits for the next change; `false` once the watch has stopped.
    pub async fn changed(&mut self) -> bool {
        self.changes.recv().await.is_some()
    }

    /// True when core.md is watched too (false on file systems without notifications; the
    /// database is polled there all the same).
    pub fn watches_files(&self) -> bool {
        self.files.is_some()
    }
}

impl Drop for StoreWatch {
    fn drop(&mut self) {
        self.poller.abort();
    }
}

fn watch_core_file(file: &Path, flag: &Arc<AtomicBool>) -> Option<notify::RecommendedWatcher> {
    let (dir, name) = (file.parent()?, file.file_name()?.to_owned());
    let flag = Arc::clone(flag);
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        if let Ok(event) = event
            && event.paths.iter().any(|p| p.file_name().is_some_and(|n| n == name))
        {
            flag.store(true, Ordering::Release);
        }
    })
    .ok()?;
    watcher.watch(dir, RecursiveMode::NonRecursive).ok()?;
    Some(watcher)
}
