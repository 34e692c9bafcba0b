//! The serving side: the process that holds a store open answers its hooks' recalls.

use crate::memory::Memory;

/// Serves recalls for the store `current` returns, for as long as the task runs (abort it,
/// or drop the future, to stop: the socket is then removed). When another live process
/// already serves the store, this one waits and takes over when that one goes; when
/// `current` turns to another store (the desktop's store switcher), the socket moves with
/// it. It never fails: a store it cannot serve is simply served cold by the hooks.
pub async fn serve<F>(current: F)
where
    F: Fn() -> Option<Memory> + Send + Sync + 'static,
{
    #[cfg(unix)]
    unix::serve(std::sync::Arc::new(current)).await;
    #[cfg(not(unix))]
    drop(current);
}

/// [`serve`] in a task of its own, stopped (and its socket removed) when this is dropped.
#[must_use = "the socket is served only while this is kept"]
pub struct Serving(tokio::task::JoinHandle<()>);

impl Serving {
    /// Starts serving the store `current` returns; needs a Tokio runtime.
    pub fn spawn<F>(current: F) -> Self
    where
        F: Fn() -> Option<Memory> + Send + Sync + 'static,
    {
        Self(tokio::spawn(serve(current)))
    }
}

impl Drop for Serving {
    fn drop(&mut self) {
        self.0.abort();
    }
}

#[cfg(unix)]
mod unix {
    use std::io::ErrorKind;
    use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
    use std::path::{Path, PathBuf};
    use std::sync::Arc;
    use std::time::Duration;

    use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
    use tokio::net::{UnixListener, UnixStream};
    use tokio::sync::Semaphore;

    use super::super::{MAX_MESSAGE_BYTES, RecallReply, RecallRequest, is_private_folder, own_uid, socket_path};
    use crate::memory::Memory;

    /// How often a process that does not serve looks again, and a serving one checks
    /// that its socket and store are still the ones.
    const RECHECK: Duration = Duration::from_secs(5);
    /// The longest a client may take to send its request, and to take its answer.
    const CLIENT_LIMIT: Duration = Duration::from_secs(5);
    /// The longest an answer may take (a hook has long given up by then).
    const ANSWER_LIMIT: Duration = Duration::from_secs(10);
    /// Exchanges served at once; more connections are closed unanswered.
    const AT_ONCE: usize = 16;

    type Current = Arc<dyn Fn() -> Option<Memory> + Send + Sync>;

    pub async fn serve(current: Current) {
        loop {
            if let Some(dir) = current().map(|m| m.dir().to_path_buf())
                && let Ok(Some(claimed)) = Claimed::claim(&dir).await
            {
                claimed.run(&dir, &current).await;
            }
            tokio::time::sleep(RECHECK).await;
        }
    }

    /// The socket this process made; removed when dropped, unless another took its place.
    struct Claimed {
        listener: UnixListener,
        path: PathBuf,
        identity: (u64, u64),
    }

    impl Claimed {
        /// Makes the socket of the store in `dir`; `None` when another live process
        /// answers there, when what is there cannot be told stale, or when the folder is
        /// not this user's alone (where another could plant or replace a socket).
        async fn claim(dir: &Path) -> std::io::Result<Option<Self>> {
            let Some(path) = socket_path(dir) else { return Ok(None) };
            if !path.parent().is_some_and(is_private_folder) {
                return Ok(None);
            }
            match tokio::time::timeout(CLIENT_LIMIT, UnixStream::connect(&path)).await {
                // Someone answers, or is too busy to: theirs.
                Ok(Ok(_)) | Err(_) => return Ok(None),
                // A socket no one listens on (its process was killed): stale, replaced.
                Ok(Err(e)) if matches!(e.kind(), ErrorKind::ConnectionRefused | ErrorKind::NotFound) => {}
                // Anything else (not ours to open, not a socket): left alone.
                Ok(Err(_)) => return Ok(None),
            }
            // Made under a name of its own and renamed into place: a stale socket is
            // replaced in one step, and no one connects before it is private. The rename
            // keeps the socket's identity, read before it, so a rival's socket renamed
            // over this one at the same moment is never taken for this one's.
            let mut temp = path.clone().into_os_string();
            temp.push(format!(".{}", std::process::id()));
            let temp = PathBuf::from(temp);
            let _ = std::fs::remove_file(&temp);
            let listener = std::os::unix::net::UnixListener::bind(&temp)?;
            let made = std::fs::symlink_metadata(&temp).and_then(|meta| {
                if !meta.file_type().is_socket() || meta.uid() != own_uid() {
                    return Err(std::io::Error::other("the new socket was replaced"));
                }
                std::fs::set_permissions(&temp, std::fs::Permissions::from_mode(0o600))?;
                std::fs::rename(&temp, &path)?;
                Ok((meta.dev(), meta.ino()))
            });
            let identity = match made {
                Ok(identity) => identity,
                Err(e) => {
                    let _ = std::fs::remove_file(&temp);
                    return Err(e);
                }
            };
            listener.set_nonblocking(true)?;
            Ok(Some(Self {
                listener: UnixListener::from_std(listener)?,
                path,
                identity,
            }))
        }

        /// True while the socket at the path is still this one.
        fn still_mine(&self) -> bool {
            std::fs::symlink_metadata(&self.path).is_ok_and(|m| (m.dev(), m.ino()) == self.identity)
        }

        /// Answers until the store changes or the socket is taken away.
        async fn run(&self, dir: &Path, current: &Current) {
            let mut recheck = tokio::time::interval(RECHECK);
            recheck.tick().await;
            let at_once = Arc::new(Semaphore::new(AT_ONCE));
            loop {
                tokio::select! {
                    accepted = self.listener.accept() => match accepted {
                        Ok((stream, _)) => {
                            let Ok(permit) = Arc::clone(&at_once).try_acquire_owned() else { continue };
                            let (dir, current) = (dir.to_path_buf(), Arc::clone(current));
                            tokio::spawn(async move {
                                let _permit = permit;
                                answer(stream, dir, current).await;
                            });
                        }
                        // Out of file descriptors, or another passing error: not a spin.
                        Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
                    },
                    _ = recheck.tick() => {
                        // No store for a moment (the desktop opening another) keeps it.
                        let other_store = current().is_some_and(|m| m.dir() != dir);
                        if other_store || !self.still_mine() {
                            return;
                        }
                    }
                }
            }
        }
    }

    impl Drop for Claimed {
        fn drop(&mut self) {
            if self.still_mine() {
                let _ = std::fs::remove_file(&self.path);
            }
        }
    }

    /// One exchange: a request line in, a reply line out. Another user's connection is
    /// closed unanswered.
    async fn answer(stream: UnixStream, dir: PathBuf, current: Current) {
        if !stream.peer_cred().is_ok_and(|c| c.uid() == own_uid()) {
            return;
        }
        let (read, mut write) = stream.into_split();
        let mut line = String::new();
        let mut reader = BufReader::new(read.take(MAX_MESSAGE_BYTES));
        match tokio::time::timeout(CLIENT_LIMIT, reader.read_line(&mut line)).await {
            Ok(Ok(n)) if n > 0 => {}
            _ => return,
        }
        let reply = match serde_json::from_str::<RecallRequest>(&line) {
            Err(e) => RecallReply::Refused {
                reason: format!("not a recall request: {e}"),
            },
            Ok(request) => match current().filter(|m| m.dir() == dir) {
                None => RecallReply::Refused {
                    reason: "this process no longer holds that store".into(),
                },
                Some(memory) => match tokio::time::timeout(ANSWER_LIMIT, request.answer(&memory)).await {
                    Ok(Ok(text)) => RecallReply::Recall {
                        text,
                        pid: std::process::id(),
                    },
                    Ok(Err(e)) => RecallReply::Refused { reason: e.to_string() },
                    Err(_) => RecallReply::Refused {
                        reason: format!("no answer within {} s", ANSWER_LIMIT.as_secs()),
                    },
                },
            },
        };
        let mut out = serde_json::to_vec(&reply).unwrap_or_default();
        out.push(b'\n');
        let _ = tokio::time::timeout(CLIENT_LIMIT, async {
            let _ = write.write_all(&out).await;
            let _ = write.shutdown().await;
        })
        .await;
    }
}
