//! Work that may wait on the OS keyring, off the window's async threads. A keyring read is a
//! blocking D-Bus call to the Secret Service: quick when it answers, up to libdbus's 25 s
//! when it does not (a busy or just-started daemon). On the async threads (as many as the
//! machine has cores) two such calls held up every other command of the window, down to
//! "is Ollama running here?", which then went unanswered until the keyring was done.

use crate::error::{CommandError, CommandResult, Problem};

/// Runs `work` on a thread of its own and waits for it without holding an async thread.
///
/// # Errors
/// `work`'s error, or [`Problem::Internal`] when it panicked.
pub async fn off_async<T: Send + 'static>(
    work: impl FnOnce() -> CommandResult<T> + Send + 'static,
) -> CommandResult<T> {
    tauri::async_runtime::spawn_blocking(work)
        .await
        .map_err(|e| CommandError::new(Problem::Internal, format!("The work stopped unexpectedly: {e}")))?
}
