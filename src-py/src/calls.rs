//! One call from Python into the engine: run on haema's runtime with the GIL released, and
//! stopped at once when a client raises an exception that is not a failed attempt, which is
//! then raised to the caller as it was (HAEMA lets such exceptions through unchanged).

use std::future::Future;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use tokio::runtime::Runtime;
use tokio::sync::Notify;

use crate::errors::to_py_err;

/// What one call into the engine carries: the exception a client raised that ends it.
#[derive(Default)]
pub(crate) struct Call {
    raised: Mutex<Option<PyErr>>,
    stop: Notify,
}

impl Call {
    /// Ends the call with `error`, raised to the caller as it is; the first one wins.
    pub(crate) fn raise(&self, error: PyErr) {
        let mut raised = self.raised.lock().unwrap_or_else(PoisonError::into_inner);
        if raised.is_none() {
            *raised = Some(error);
            self.stop.notify_one();
        }
    }

    fn take(&self) -> Option<PyErr> {
        self.raised.lock().unwrap_or_else(PoisonError::into_inner).take()
    }
}

tokio::task_local! {
    /// The call the engine works for, where a client's exception is left.
    pub(crate) static CALL: Arc<Call>;
}

/// The call the current task works for; `None` in the engine's background work (vectors
/// made later), whose failures are only reported.
pub(crate) fn current_call() -> Option<Arc<Call>> {
    CALL.try_with(Arc::clone).ok()
}

static RUNTIME: OnceLock<Result<Runtime, String>> = OnceLock::new();

/// haema's runtime, one per process: two worker threads for the engine, and the blocking
/// pool where its database work and the calls of Python clients run.
fn runtime() -> PyResult<&'static Runtime> {
    RUNTIME
        .get_or_init(|| {
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .thread_name("haema")
                .enable_all()
                .build()
                .map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(|e| PyRuntimeError::new_err(format!("haema could not start its runtime: {e}")))
}

/// Runs `work` to its end without the GIL and gives its result to Python: a haema error as
/// the package's exception, a client's exception as it was raised.
pub(crate) fn run<T, F>(py: Python<'_>, work: F) -> PyResult<T>
where
    T: Send,
    F: Future<Output = haema_core::Result<T>> + Send,
{
    if tokio::runtime::Handle::try_current().is_ok() {
        return Err(PyRuntimeError::new_err(
            "haema was called from inside one of its own clients (an embedding or LLM client); call it from your program instead",
        ));
    }
    let runtime = runtime()?;
    let call = Arc::new(Call::default());
    let scoped = Arc::clone(&call);
    let result = py.detach(move || {
        runtime.block_on(CALL.scope(Arc::clone(&scoped), async move {
            // Checked first on every wake-up: once a client raised, the engine's work is
            // dropped before it takes another step, so nothing after the failed call (no
            // commit) happens.
            tokio::select! {
                biased;
                () = scoped.stop.notified() => None,
                result = work => Some(result),
            }
        }))
    });
    if let Some(raised) = call.take() {
        return Err(raised);
    }
    match result {
        Some(result) => result.map_err(|e| to_py_err(py, &e)),
        None => Err(PyRuntimeError::new_err("haema's call was stopped without a reason")),
    }
}
