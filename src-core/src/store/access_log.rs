//! Access statistics gathered in the process: a search or recall notes what it returned
//! here (a map update, no write), and the notes go to the store in one transaction a few
//! seconds later, or when the last handle on the store goes. A crash loses at worst the
//! notes of those seconds; a read never waits for a write.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

use crate::types::{AccessStats, MemoryId};

/// Notes not yet in the store: hits and the last time, by memory.
#[derive(Debug, Default)]
pub(crate) struct AccessLog {
    pending: Mutex<HashMap<MemoryId, (u64, i64)>>,
    /// A flush is on its way.
    scheduled: AtomicBool,
}

impl AccessLog {
    /// Notes that `ids` were returned at `now`; true when the caller should schedule a
    /// flush (none is on its way).
    pub(crate) fn note(&self, ids: impl IntoIterator<Item = MemoryId>, now: i64) -> bool {
        let mut pending = self.pending.lock().unwrap_or_else(PoisonError::into_inner);
        let mut any = false;
        for id in ids {
            let entry = pending.entry(id).or_insert((0, now));
            entry.0 += 1;
            entry.1 = entry.1.max(now);
            any = true;
        }
        any && !self.scheduled.swap(true, Ordering::AcqRel)
    }

    /// Takes every note, for a flush (a later note schedules the next one).
    pub(crate) fn take(&self) -> Vec<(MemoryId, u64, i64)> {
        self.scheduled.store(false, Ordering::Release);
        let mut pending = self.pending.lock().unwrap_or_else(PoisonError::into_inner);
        pending.drain().map(|(id, (hits, last))| (id, hits, last)).collect()
    }

    /// Puts notes back after a flush failed (they go with the next one).
    pub(crate) fn put_back(&self, entries: Vec<(MemoryId, u64, i64)>) {
        let mut pending = self.pending.lock().unwrap_or_else(PoisonError::into_inner);
        for (id, hits, last) in entries {
            let entry = pending.entry(id).or_insert((0, last));
            entry.0 += hits;
            entry.1 = entry.1.max(last);
        }
    }

    /// `stored` with the notes not yet written added.
    pub(crate) fn with_pending(&self, id: &MemoryId, stored: Option<AccessStats>) -> AccessStats {
        let pending = self.pending.lock().unwrap_or_else(PoisonError::into_inner);
        let mut stats = stored.unwrap_or_default();
        if let Some((hits, last)) = pending.get(id) {
            stats.access_count += hits;
            stats.last_accessed_ms = Some(stats.last_accessed_ms.map_or(*last, |l| l.max(*last)));
        }
        stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_add_up_and_one_flush_is_asked_for_at_a_time() {
        let log = AccessLog::default();
        let (a, b) = (MemoryId::from("a"), MemoryId::from("b"));
        assert!(log.note([a.clone(), b.clone()], 10), "the first note asks for a flush");
        assert!(!log.note([a.clone()], 20), "one is on its way");
        assert_eq!(
            log.with_pending(&a, None),
            AccessStats {
                access_count: 2,
                last_accessed_ms: Some(20)
            }
        );
        let stored = AccessStats {
            access_count: 5,
            last_accessed_ms: Some(30),
        };
        assert_eq!(
            log.with_pending(&a, Some(stored)),
            AccessStats {
                access_count: 7,
                last_accessed_ms: Some(30)
            }
        );
        let mut taken = log.take();
        taken.sort();
        assert_eq!(taken, vec![(a.clone(), 2, 20), (b, 1, 10)]);
        assert!(log.note([a.clone()], 40), "after a flush the next note asks again");
        log.put_back(vec![(a.clone(), 3, 35)]);
        assert_eq!(
            log.with_pending(&a, None),
            AccessStats {
                access_count: 4,
                last_accessed_ms: Some(40)
            }
        );
    }
}
