//! The lock held while a blob is written, shared with `huggingface_hub` (which locks the
//! same file): `<cache>/.locks/models--org--name/<etag>.lock`.

use std::fs::File;
use std::path::Path;

use super::HubError;

/// An exclusive lock on a blob, released when dropped.
#[derive(Debug)]
pub(crate) struct BlobLock {
    _file: File,
}

/// Waits for the exclusive lock of the lock file `path` (made if missing), without
/// blocking the async runtime.
pub(crate) async fn lock_blob(path: &Path) -> Result<BlobLock, HubError> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(HubError::io(parent))?;
    }
    let file = File::options()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(path)
        .map_err(HubError::io(path))?;
    // Most of the time nobody holds it; only a waiter needs a thread to block on.
    match file.try_lock() {
        Ok(()) => return Ok(BlobLock { _file: file }),
        Err(std::fs::TryLockError::WouldBlock) => {}
        Err(std::fs::TryLockError::Error(e)) => return Err(HubError::io(path)(e)),
    }
    let locked = tokio::task::spawn_blocking(move || file.lock().map(|()| file))
        .await
        .map_err(|e| HubError::io(path)(std::io::Error::other(e)))?;
    locked.map(|file| BlobLock { _file: file }).map_err(HubError::io(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_second_locker_waits_for_the_first() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(".locks/m/e.lock");
        let first = lock_blob(&path).await.unwrap();
        let waiter = {
            let path = path.clone();
            tokio::spawn(async move { lock_blob(&path).await.map(|_| ()) })
        };
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        assert!(!waiter.is_finished(), "the second lock must wait");
        drop(first);
        tokio::time::timeout(std::time::Duration::from_secs(5), waiter)
            .await
            .unwrap()
            .unwrap()
            .unwrap();
    }
}
