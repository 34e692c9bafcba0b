//! Live changes from other processes: a connection of its own that `LISTEN`s on the
//! store's channel and counts the notifications other connections send when they commit.
//!
//! Opening waits for the first `LISTEN` (or its failure), so a change made once the store is
//! open is never missed and none is counted that was not made. When it loses the server it
//! connects again (every second) and counts one change, since some may have been missed
//! meanwhile. While it is down [`Listener::counter`] says so and
//! the store reads its change stamp instead.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicI64, Ordering};
use std::time::Duration;

use tokio_postgres::AsyncMessage;
use tokio_postgres_rustls::MakeRustlsConnect;

use super::address::Address;
use super::{CHANNEL, client};
use crate::error::Result;

/// What the listening task shares with the store.
#[derive(Debug, Default)]
struct Shared {
    /// Commits of other connections seen.
    changes: AtomicI64,
    /// The server processes of the store's own two connections: their notifications are
    /// not changes from elsewhere.
    own_pids: [AtomicI32; 2],
    /// The listening connection is up.
    listening: AtomicBool,
    /// The last change stamp read while it was down (`None` until one was read; a store
    /// without commits yet has no stamp).
    stamp: std::sync::Mutex<Option<Option<String>>>,
}

/// The listening task of one store; it ends when the store closes.
#[derive(Debug)]
pub(super) struct Listener {
    shared: Arc<Shared>,
    task: std::sync::Mutex<Option<tokio::task::AbortHandle>>,
}

impl Listener {
    /// Starts listening for the store at `address`, whose own connection is `own_pid`.
    pub(super) fn start(address: &Address, own_pid: i32) -> Result<Self> {
        let shared = Arc::new(Shared::default());
        shared.own_pids[0].store(own_pid, Ordering::Relaxed);
        let (config, schema) = (address.config.clone(), address.schema.clone());
        let tls = address.tls.connector()?;
        let task_shared = Arc::clone(&shared);
        let (sender, receiver) = std::sync::mpsc::sync_channel(1);
        let (first_try, first_tried) = std::sync::mpsc::sync_channel(1);
        client::spawn(async move {
            let handle = tokio::spawn(listen(config, tls, schema, task_shared, first_try));
            let _ = sender.send(handle.abort_handle());
        })?;
        let task = receiver.recv_timeout(Duration::from_secs(10)).ok();
        // A server that does not answer in time leaves the store reading its change stamp
        // until the listener is up.
        let _ = first_tried.recv_timeout(Duration::from_secs(10));
        Ok(Self {
            shared,
            task: std::sync::Mutex::new(task),
        })
    }

    /// The store's own connection `which` (0: the main one, 1: core.md's) was made.
    pub(super) fn set_own_pid(&self, which: usize, pid: i32) {
        if let Some(slot) = self.shared.own_pids.get(which) {
            slot.store(pid, Ordering::Relaxed);
        }
    }

    /// The count of changes from elsewhere; `None` while not listening.
    pub(super) fn counter(&self) -> Option<i64> {
        self.shared
            .listening
            .load(Ordering::Acquire)
            .then(|| self.shared.changes.load(Ordering::Acquire))
    }

    /// The count while not listening, from the store's change stamp: one more whenever
    /// the stamp moved.
    pub(super) fn counter_from_stamp(&self, stamp: Option<String>) -> i64 {
        let mut seen = self
            .shared
            .stamp
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if seen.as_ref().is_some_and(|before| *before != stamp) {
            self.shared.changes.fetch_add(1, Ordering::AcqRel);
        }
        *seen = Some(stamp);
        self.shared.changes.load(Ordering::Acquire)
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        if let Some(task) = self
            .task
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
        {
            task.abort();
        }
    }
}

/// Listens until aborted, connecting again whenever the connection is lost; `first_try` is
/// told when the first attempt has listened or failed.
async fn listen(
    config: tokio_postgres::Config,
    tls: MakeRustlsConnect,
    schema: String,
    shared: Arc<Shared>,
    first_try: std::sync::mpsc::SyncSender<()>,
) {
    let mut first_try = Some(first_try);
    loop {
        if let Ok((client, mut connection)) = config.connect(tls.clone()).await {
            let (sender, mut notifications) = tokio::sync::mpsc::unbounded_channel();
            let driver = tokio::spawn(async move {
                while let Some(message) = std::future::poll_fn(|cx| connection.poll_message(cx)).await {
                    match message {
                        Ok(AsyncMessage::Notification(n)) => {
                            if sender.send((n.process_id(), n.payload().to_owned())).is_err() {
                                break;
                            }
                        }
                        Ok(_) => {}
                        Err(_) => break,
                    }
                }
            });
            let listened = client.batch_execute(&format!("LISTEN {CHANNEL}")).await.is_ok();
            if listened {
                shared.listening.store(true, Ordering::Release);
                // On a new connection after a lost one, whatever was committed meanwhile.
                if first_try.is_none() {
                    shared.changes.fetch_add(1, Ordering::AcqRel);
                }
            }
            if let Some(told) = first_try.take() {
                let _ = told.send(());
            }
            if listened {
                while let Some((pid, payload)) = notifications.recv().await {
                    let own = shared.own_pids.iter().any(|p| p.load(Ordering::Relaxed) == pid);
                    if payload == schema && !own {
                        shared.changes.fetch_add(1, Ordering::AcqRel);
                    }
                }
                shared.listening.store(false, Ordering::Release);
            }
            driver.abort();
            drop(client);
        }
        if let Some(told) = first_try.take() {
            let _ = told.send(());
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}
