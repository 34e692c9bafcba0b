//! Progress reports of a fetch: one when a file starts and ends, and while bytes arrive
//! at most every [`REPORT_EVERY_BYTES`] or [`REPORT_EVERY`].

use std::time::{Duration, Instant};

use super::FetchProgress;

/// Bytes between two reports of one file.
pub(crate) const REPORT_EVERY_BYTES: u64 = 256 * 1024;
/// Time between two reports of one file.
pub(crate) const REPORT_EVERY: Duration = Duration::from_millis(100);

/// The callback and where the fetch stands.
pub(crate) struct Reporter<'a> {
    callback: &'a (dyn Fn(&FetchProgress) + Send + Sync),
    state: FetchProgress,
    last_at: Instant,
    last_bytes: u64,
}

impl<'a> Reporter<'a> {
    pub(crate) fn new(callback: &'a (dyn Fn(&FetchProgress) + Send + Sync), files_total: usize) -> Self {
        Self {
            callback,
            state: FetchProgress {
                file: String::new(),
                bytes_done: 0,
                bytes_total: None,
                files_done: 0,
                files_total,
            },
            last_at: Instant::now(),
            last_bytes: 0,
        }
    }

    /// A file starts, with `bytes_done` already on disk.
    pub(crate) fn start_file(&mut self, file: &str, bytes_done: u64, bytes_total: Option<u64>) {
        self.state.file = file.to_owned();
        self.state.bytes_total = bytes_total;
        self.set(bytes_done);
    }

    /// `bytes_done` of the current file are on disk; reported when enough time or bytes
    /// passed, or when the count went back (a restart).
    pub(crate) fn bytes(&mut self, bytes_done: u64) {
        self.state.bytes_done = bytes_done;
        let went_back = bytes_done < self.last_bytes;
        if went_back || bytes_done - self.last_bytes >= REPORT_EVERY_BYTES || self.last_at.elapsed() >= REPORT_EVERY {
            self.emit();
        }
    }

    /// The current file is done (downloaded, found in the cache, or skipped).
    pub(crate) fn finish_file(&mut self) {
        self.state.files_done = (self.state.files_done + 1).min(self.state.files_total);
        self.emit();
    }

    fn set(&mut self, bytes_done: u64) {
        self.state.bytes_done = bytes_done;
        self.emit();
    }

    fn emit(&mut self) {
        self.last_at = Instant::now();
        self.last_bytes = self.state.bytes_done;
        (self.callback)(&self.state);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn reports_are_throttled_but_files_always_reported() {
        let seen = Mutex::new(Vec::new());
        let record = |p: &FetchProgress| seen.lock().unwrap().push((p.file.clone(), p.bytes_done, p.files_done));
        let mut reporter = Reporter::new(&record, 2);
        reporter.start_file("a", 0, Some(1 << 20));
        for kib in 1..=1024u64 {
            reporter.bytes(kib * 1024);
        }
        reporter.finish_file();
        reporter.start_file("b", 0, None);
        reporter.finish_file();
        let seen = seen.into_inner().unwrap();
        // start, about four 256 KiB steps (more if the machine is slow), end; then b.
        assert!(seen.len() >= 6 && seen.len() < 40, "{}", seen.len());
        assert_eq!(seen[0], ("a".to_owned(), 0, 0));
        assert_eq!(seen[seen.len() - 3], ("a".to_owned(), 1 << 20, 1));
        assert_eq!(seen[seen.len() - 1], ("b".to_owned(), 0, 2));
    }
}
