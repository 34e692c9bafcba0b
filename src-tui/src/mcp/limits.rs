//! How much one agent key may ask of `haema mcp --http`: requests per minute, as a bucket
//! per key that holds a minute's requests and fills again at that rate (a burst is served,
//! a flood is told when to come back). The sessions limits are the server's, counted where
//! the sessions are kept, and each key's, counted by [`SessionOwners`].

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Requests per minute each key may make unless the person says otherwise.
pub const DEFAULT_REQUESTS_PER_MINUTE: u32 = 600;
/// Sessions the server holds at once unless the person says otherwise.
pub const DEFAULT_MAX_SESSIONS: usize = 100;
/// Sessions one agent key holds at once unless the person says otherwise: one agent cannot
/// take every slot of the server.
pub const DEFAULT_MAX_SESSIONS_PER_KEY: usize = 25;

/// Which agent key opened each session the server holds, to count a key's sessions.
#[derive(Debug, Default)]
pub struct SessionOwners(HashMap<String, String>);

impl SessionOwners {
    /// Forgets the sessions that have ended (`live` says which are held), then counts how
    /// many `key` holds.
    pub fn held_by(&mut self, key: &str, live: impl Fn(&str) -> bool) -> usize {
        self.0.retain(|session, _| live(session));
        self.0.values().filter(|owner| *owner == key).count()
    }

    /// Notes that `key` opened `session`.
    pub fn opened(&mut self, session: &str, key: &str) {
        self.0.insert(session.to_owned(), key.to_owned());
    }
}

/// One key's bucket.
#[derive(Debug, Clone, Copy)]
struct Bucket {
    /// Requests it may still make now.
    tokens: f64,
    /// When `tokens` was last brought up to date.
    at: Instant,
}

/// The requests each agent key may still make.
#[derive(Debug)]
pub struct RequestLimit {
    per_minute: u32,
    buckets: Mutex<HashMap<String, Bucket>>,
}

impl RequestLimit {
    /// At most `per_minute` requests a minute per key (at least one).
    pub fn new(per_minute: u32) -> Self {
        Self {
            per_minute: per_minute.max(1),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// The limit, per minute.
    pub fn per_minute(&self) -> u32 {
        self.per_minute
    }

    /// Takes one request for key `name` at `now`: `Ok` when it may go ahead, else how long
    /// until it may.
    pub fn take(&self, name: &str, now: Instant) -> Result<(), Duration> {
        let capacity = f64::from(self.per_minute);
        let per_second = capacity / 60.0;
        let mut buckets = self.buckets.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let bucket = buckets.entry(name.to_owned()).or_insert(Bucket {
            tokens: capacity,
            at: now,
        });
        let elapsed = now.saturating_duration_since(bucket.at).as_secs_f64();
        bucket.tokens = (bucket.tokens + elapsed * per_second).min(capacity);
        bucket.at = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - bucket.tokens) / per_second))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_minute_s_requests_go_at_once_then_one_per_interval() {
        let limit = RequestLimit::new(60);
        let t0 = Instant::now();
        for _ in 0..60 {
            assert!(limit.take("bot", t0).is_ok());
        }
        let wait = limit.take("bot", t0).unwrap_err();
        assert!(
            wait <= Duration::from_secs(1) && wait > Duration::from_millis(900),
            "{wait:?}"
        );
        assert!(limit.take("other", t0).is_ok(), "each key has its own bucket");
        assert!(limit.take("bot", t0 + Duration::from_secs(1)).is_ok());
        assert!(limit.take("bot", t0 + Duration::from_secs(1)).is_err());
        // A quiet hour fills the bucket, never beyond a minute's worth.
        let later = t0 + Duration::from_secs(3600);
        for _ in 0..60 {
            assert!(limit.take("bot", later).is_ok());
        }
        assert!(limit.take("bot", later).is_err());
    }

    #[test]
    fn a_key_s_sessions_are_counted_until_they_end() {
        let mut owners = SessionOwners::default();
        owners.opened("s1", "bot");
        owners.opened("s2", "bot");
        owners.opened("s3", "other");
        assert_eq!(owners.held_by("bot", |_| true), 2);
        assert_eq!(
            owners.held_by("bot", |s| s != "s1"),
            1,
            "an ended session is no longer counted"
        );
        assert_eq!(owners.held_by("other", |_| true), 1);
        assert_eq!(owners.held_by("nobody", |_| true), 0);
    }

    #[test]
    fn a_zero_limit_still_lets_one_request_a_minute_through() {
        let limit = RequestLimit::new(0);
        let t0 = Instant::now();
        assert!(limit.take("bot", t0).is_ok());
        let wait = limit.take("bot", t0).unwrap_err();
        assert!(wait > Duration::from_secs(59), "{wait:?}");
    }
}
