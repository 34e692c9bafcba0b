//! A store's second connection, on a thread of its own: it runs the full-text half of a
//! hybrid search while the caller's thread runs the vector half.
//!
//! The thread lives as long as the store, rather than one per search: a new thread on this
//! kind of machine is first scheduled on its parent's CPU and waits there until the parent
//! blocks (measured: about 0.7 ms, the whole vector half), while a waiting thread is woken
//! in microseconds.

use std::path::Path;
use std::sync::mpsc;
use std::thread::JoinHandle;

use rusqlite::{Connection, OpenFlags};

use crate::error::{Error, Result};

type Job = Box<dyn FnOnce(&Connection) + Send>;

/// The second connection and its thread. Dropping it ends the thread and closes the
/// connection before it returns, so the store's own connection closes last.
#[derive(Debug)]
pub(crate) struct SideReader {
    jobs: Option<mpsc::Sender<Job>>,
    thread: Option<JoinHandle<()>>,
}

/// The answer of a job started with [`SideReader::start`].
pub(crate) struct Pending<T>(mpsc::Receiver<Result<T>>);

impl SideReader {
    /// Opens a read-only connection to the store's database (already set up by the first
    /// connection) and starts its thread.
    pub(crate) fn open(db_path: &Path) -> Result<Self> {
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX | OpenFlags::SQLITE_OPEN_URI;
        let conn = Connection::open_with_flags(db_path, flags)?;
        super::configure(&conn, 4000)?;
        super::prepare_connection(&conn)?;
        let (jobs, queue) = mpsc::channel::<Job>();
        let thread = std::thread::Builder::new()
            .name("haema-store-side".into())
            .spawn(move || {
                for job in queue {
                    // A panicking job drops its answer channel: its caller gets an error,
                    // and the thread serves the next search.
                    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(&conn)));
                }
            })
            .map_err(|e| Error::Internal(format!("cannot start the store's search thread: {e}")))?;
        Ok(Self {
            jobs: Some(jobs),
            thread: Some(thread),
        })
    }

    /// Starts `f` on the second connection; [`Pending::wait`] gives its answer.
    pub(crate) fn start<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T> + Send + 'static,
    ) -> Pending<T> {
        let (answer, pending) = mpsc::sync_channel(1);
        let job: Job = Box::new(move |conn| {
            let _ = answer.send(f(conn));
        });
        if let Some(jobs) = &self.jobs {
            // A send fails only when the thread is gone; `wait` then reports it.
            let _ = jobs.send(job);
        }
        Pending(pending)
    }
}

impl<T> Pending<T> {
    /// Waits for the job's answer.
    pub(crate) fn wait(self) -> Result<T> {
        self.0.recv().unwrap_or_else(|_| {
            Err(Error::Internal(
                "the store's search thread stopped during a search".into(),
            ))
        })
    }
}

impl Drop for SideReader {
    fn drop(&mut self) {
        self.jobs = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store_file() -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let (store, _) = super::super::SqliteStore::open(dir.path()).unwrap();
        drop(store);
        let path = dir.path().join("memory.db");
        (dir, path)
    }

    #[test]
    fn runs_jobs_on_its_own_connection_and_survives_a_panicking_one() {
        let (_dir, path) = store_file();
        let side = SideReader::open(&path).unwrap();
        let tables: i64 = side
            .start(|conn| Ok(conn.query_row("SELECT count(*) FROM memories", [], |r| r.get(0))?))
            .wait()
            .unwrap();
        assert_eq!(tables, 0);
        let failed = side.start(|_| -> Result<()> { panic!("a job that panics") }).wait();
        assert!(matches!(failed, Err(Error::Internal(_))), "{failed:?}");
        assert_eq!(side.start(|_| Ok(7)).wait().unwrap(), 7);
    }

    #[test]
    fn is_read_only() {
        let (_dir, path) = store_file();
        let side = SideReader::open(&path).unwrap();
        let write = side.start(|conn| Ok(conn.execute("DELETE FROM memories", [])?)).wait();
        assert!(write.is_err());
    }
}
