//! The asking side: a hook's recall from the process that holds the store open.

use std::path::Path;
use std::time::Duration;

use super::{RecallReply, RecallRequest};
use crate::error::{Error, Result};

/// Asks the process serving the store in `dir` for `request`'s recall, waiting at most
/// `wait` for the whole exchange. `Ok(None)` when no process serves it (no socket, or a
/// stale one): the caller then does the work itself.
///
/// # Errors
/// [`Error::Io`] when the process listening there is another user's (it is not asked), or
/// did not answer in time, or answered something else than a reply.
pub async fn ask(dir: &Path, request: &RecallRequest, wait: Duration) -> Result<Option<RecallReply>> {
    #[cfg(unix)]
    return unix::ask(dir, request, wait).await;
    #[cfg(not(unix))]
    {
        let _ = (dir, request, wait);
        Ok(None)
    }
}

#[cfg(unix)]
mod unix {
    use super::super::{MAX_MESSAGE_BYTES, own_uid, socket_path};
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::UnixStream;

    pub async fn ask(dir: &Path, request: &RecallRequest, wait: Duration) -> Result<Option<RecallReply>> {
        let Some(path) = socket_path(dir) else { return Ok(None) };
        let failed = |source: std::io::Error| Error::io("ask the process holding the store through", &path, source);
        let deadline = tokio::time::Instant::now() + wait;
        let Ok(Ok(mut stream)) = tokio::time::timeout_at(deadline, UnixStream::connect(&path)).await else {
            return Ok(None);
        };
        // Only a process of this user is told the prompt, and only its answer is given to
        // the agent: a socket another user made at this name is not trusted.
        if !stream.peer_cred().is_ok_and(|c| c.uid() == own_uid()) {
            return Err(failed(std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                "the process listening there is another user's, so it was not asked",
            )));
        }
        let exchange = async {
            let mut line = serde_json::to_vec(request).map_err(std::io::Error::other)?;
            line.push(b'\n');
            stream.write_all(&line).await?;
            let mut reply = Vec::new();
            (&mut stream).take(MAX_MESSAGE_BYTES).read_to_end(&mut reply).await?;
            serde_json::from_slice::<RecallReply>(&reply)
                .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, format!("not a recall reply: {e}")))
        };
        match tokio::time::timeout_at(deadline, exchange).await {
            Ok(Ok(reply)) => Ok(Some(reply)),
            Ok(Err(e)) => Err(failed(e)),
            Err(_) => Err(failed(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                format!("no answer within {} ms", wait.as_millis()),
            ))),
        }
    }
}
