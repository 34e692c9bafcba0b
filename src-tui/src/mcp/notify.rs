//! Keeping a client's view live: when the store changes (a write through this server, by
//! any session, or another process's commit or core.md edit), each session is sent
//! `notifications/resources/list_changed` and, for every resource it subscribed to with
//! `resources/subscribe`, `notifications/resources/updated`. A burst of writes is one round
//! of notifications. A session has one watcher however often its client says it is
//! initialized; it ends when the client has gone, and over HTTP when the client has been
//! silent past the session's idle time (notifications would otherwise keep an abandoned
//! session, and its slot, alive for ever).

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

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

/// What one session's client asked for, and when it was last heard from.
#[derive(Debug, Clone)]
pub struct Subscriptions {
    uris: Arc<Mutex<BTreeSet<String>>>,
    /// The session's watcher was started.
    watching: Arc<AtomicBool>,
    /// When the client last sent anything.
    heard: Arc<Mutex<Instant>>,
    /// How long a client may stay silent before the watcher stops (`None`: for as long as
    /// its transport is open, as over standard input and output).
    idle_limit: Option<Duration>,
}

impl Default for Subscriptions {
    fn default() -> Self {
        Self::new(None)
    }
}

impl Subscriptions {
    /// A session's, whose watcher stops after `idle_limit` of the client's silence.
    pub fn new(idle_limit: Option<Duration>) -> Self {
        Self {
            uris: Arc::default(),
            watching: Arc::default(),
            heard: Arc::new(Mutex::new(Instant::now())),
            idle_limit,
        }
    }

    /// The client sent something now.
    pub fn heard(&self) {
        *self.heard.lock().unwrap_or_else(PoisonError::into_inner) = Instant::now();
    }

    /// Adds `uri`.
    pub fn add(&self, uri: String) {
        self.uris.lock().unwrap_or_else(PoisonError::into_inner).insert(uri);
    }

    /// Removes `uri`.
    pub fn remove(&self, uri: &str) {
        self.uris.lock().unwrap_or_else(PoisonError::into_inner).remove(uri);
    }

    fn all(&self) -> Vec<String> {
        self.uris
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .cloned()
            .collect()
    }

    /// Whether the client has been silent past the idle limit.
    fn idle(&self) -> bool {
        let heard = *self.heard.lock().unwrap_or_else(PoisonError::into_inner);
        self.idle_limit.is_some_and(|limit| heard.elapsed() > limit)
    }
}

/// Tells `peer` of every change to the store (`store`) or through this server (`own`),
/// until its client has gone.
pub fn watch_for(
    peer: Peer<RoleServer>,
    store: impl FnOnce() -> StoreWatch,
    own: &OwnWrites,
    subscribed: Subscriptions,
) {
    if subscribed.watching.swap(true, Ordering::AcqRel) {
        return;
    }
    let mut store = store();
    let mut own = own.0.subscribe();
    tokio::spawn(async move {
        loop {
            tokio::select! {
                changed = store.changed() => if !changed { break },
                received = own.recv() => if matches!(received, Err(broadcast::error::RecvError::Closed)) { break },
                () = tokio::time::sleep(CLIENT_CHECK) => {
                    if peer.is_transport_closed() || subscribed.idle() { break }
                    continue;
                }
            }
            if peer.is_transport_closed() || subscribed.idle() {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_is_idle_only_past_its_limit_and_stdio_never_is() {
        let http = Subscriptions::new(Some(Duration::from_secs(60)));
        assert!(!http.idle());
        *http.heard.lock().unwrap() = Instant::now() - Duration::from_secs(61);
        assert!(http.idle(), "a client silent past the limit is no longer notified");
        http.heard();
        assert!(!http.idle(), "a word from the client keeps it live");
        let stdio = Subscriptions::default();
        *stdio.heard.lock().unwrap() = Instant::now() - Duration::from_secs(86_400);
        assert!(!stdio.idle());
    }

    #[test]
    fn a_session_starts_one_watcher() {
        let session = Subscriptions::default();
        assert!(!session.watching.swap(true, Ordering::AcqRel));
        assert!(
            session.clone().watching.swap(true, Ordering::AcqRel),
            "a second start sees the first"
        );
    }
}
