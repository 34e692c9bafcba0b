//! The lock on a store's vector work (re-embedding, catching up): one process at a time, so
//! that two never fill the same table at once.

use std::path::Path;

use crate::{Error, Result};

/// A held lock on a store's vector work; dropping it lets the next process in.
pub(crate) type WorkLock = Box<dyn HeldLock>;

/// A lock that may be lost while held (one kept by a database connection goes with it).
pub(crate) trait HeldLock: Send {
    /// Whether it is still held.
    fn still_held(&self) -> bool;
}

/// A lock file's lock lasts as long as the file is open.
impl HeldLock for std::fs::File {
    fn still_held(&self) -> bool {
        true
    }
}

/// The lock as a file in the store's folder (`<dir>/.vectors.lock`), for a store only this
/// machine opens. `None` when another process holds it and `wait` is false.
pub(crate) fn lock_file(dir: &Path, wait: bool) -> Result<Option<WorkLock>> {
    let path = dir.join(".vectors.lock");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| Error::io("open", &path, e))?;
    if wait {
        file.lock().map_err(|e| Error::io("lock", &path, e))?;
        return Ok(Some(Box::new(file)));
    }
    match file.try_lock() {
        Ok(()) => Ok(Some(Box::new(file))),
        Err(std::fs::TryLockError::WouldBlock) => Ok(None),
        Err(std::fs::TryLockError::Error(e)) => Err(Error::io("lock", &path, e)),
    }
}
