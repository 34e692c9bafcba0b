//! Keeping a client's view live: when the store changes (a write through this server, by
//! any session, or another process's commit or core.md edit), each session is sent
//! `notifications/resources/list_changed` and, for every resource it subscribed to with
//! `resources/subscribe`, `notifications/resources/updated`. A burst of writes is one round
//! of notifications; a session's watcher ends when its client has gone.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use haema_core::StoreWatch;
use rmcp::model::ResourceUpdatedNotificationParam;
use rmcp::{Peer, RoleServer};
use tokio::sync::broadcast;

/// Writes within this long of each other are announced once.
const SETTLE: Duration = Duration::from_millis(100);
/// How often a quiet watcher checks that its client is still there.
const CLIENT_CHECK: Duration = Duration::from_secs(30);

/// What the sessions of one server share: the news of its own writes.
#[derive(Debug, Clone)]
pub struct OwnWrites(broadcast::Sender<()>);

impl Default for OwnWrites {
    fn default() -> Self {
        Self(broadcast::channel(16).0)
    }
}

impl OwnWrites {
    /// A write through this server finished.
    pub fn wrote(&self) {
        // No session listening is no error.
        let _ = self.0.send(());
    }
}

/// The resources one session subscribed to.
#[derive(Debug, Clone, Default)]
pub struct Subscriptions(Arc<Mutex<BTreeSet<String>>>);

impl Subscriptions {
    /// Adds `uri`.
    pub fn add(&self, uri: String) {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).insert(uri);
    }

    /// Removes `uri`.
    pub fn remove(&self, uri: &str) {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).remove(uri);
    }

    fn all(&self) -> Vec<String> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .cloned()
            .collect()
    }
}

/// Tells `peer` of every change to the store (`store`) or through this server (`own`),
/// until its client has gone.
pub fn watch_for(peer: Peer<RoleServer>, mut store: StoreWatch, own: &OwnWrites, subscribed: Subscriptions) {
    let mut own = own.0.subscribe();
    tokio::spawn(async move {
        loop {
            tokio::select! {
                changed = store.changed() => if !changed { break },
                received = own.recv() => if matches!(received, Err(broadcast::error::RecvError::Closed)) { break },
                () = tokio::time::sleep(CLIENT_CHECK) => {
                    if peer.is_transport_closed() { break }
                    continue;
                }
            }
            if peer.is_transport_closed() {
                break;
            }
            tokio::time::sleep(SETTLE).await;
            while own.try_recv().is_ok() {}
            // A client without a stream for notifications yet misses these; the next
            // change is announced all the same.
            let _ = peer.notify_resource_list_changed().await;
            for uri in subscribed.all() {
                let _ = peer
                    .notify_resource_updated(ResourceUpdatedNotificationParam::new(uri))
                    .await;
            }
        }
    });
}
