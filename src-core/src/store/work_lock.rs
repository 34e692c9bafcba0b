//! The lock on a store's vector work (re-embedding, catching up): one process at a time, so
//! that two never fill the same table at once.

use std::path::Path;

use crate::error::{Error, Result};

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
    let mut options = std::fs::OpenOptions::new();
    options.create(true).truncate(false).write(true);
    // The owner's alone, as every file of the store is.
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let file = options.open(&path).map_err(|e| Error::io("open", &path, e))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // One an older haema made readable by others is tightened.
        if file.metadata().is_ok_and(|m| m.permissions().mode() & 0o077 != 0) {
            let _ = file.set_permissions(std::fs::Permissions::from_mode(0o600));
        }
    }
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

#[cfg(all(test, unix))]
mod lock_file_tests {
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn the_lock_file_is_the_owners_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".vectors.lock");
        drop(super::lock_file(dir.path(), true).unwrap());
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
        // One an older version left readable by others is tightened.
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        drop(super::lock_file(dir.path(), true).unwrap());
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
    }
}
