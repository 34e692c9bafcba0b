//! One call from Python into the engine: run on haema's runtime with the GIL released, and
//! stopped at once when a client raises an exception that is not a failed attempt, which is
//! then raised to the caller as it was (HAEMA lets such exceptions through unchanged), or
//! when the program is interrupted (Ctrl-C).

use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use tokio::runtime::Runtime;
use tokio::sync::Notify;

use crate::errors::to_py_err;

/// How often a call waiting for the engine lets Python handle its signals.
const SIGNAL_CHECK: Duration = Duration::from_millis(100);

/// What one call into the engine carries: the event loop its `async def` clients run on,
/// and the exception that ends it.
pub(crate) struct Call {
    /// The asyncio loop of the `AsyncMemory` call waiting for this one, if any.
    pub(crate) event_loop: Option<Arc<Py<PyAny>>>,
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
    /// The call the engine works for.
    static CALL: Arc<Call>;
}

/// The call the current task works for; `None` in the engine's background work (vectors
/// made later), whose failures are only reported.
pub(crate) fn current_call() -> Option<Arc<Call>> {
    CALL.try_with(Arc::clone).ok()
}

/// haema's runtime and the process it was made in.
static RUNTIME: Mutex<Option<(u32, &'static Runtime)>> = Mutex::new(None);

/// haema's runtime, one per process: two worker threads for the engine, and the blocking
/// pool where its database work and the calls of Python clients run. A child made by
/// `fork()` has none of its parent's threads, so it gets a runtime of its own (the parent's
/// is left as it is: dropping it would wait for threads that are not there).
fn runtime() -> PyResult<&'static Runtime> {
    let pid = std::process::id();
    let mut slot = RUNTIME.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((owner, runtime)) = *slot
        && owner == pid
    {
        return Ok(runtime);
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("haema")
        .enable_all()
        .build()
        .map_err(|e| PyRuntimeError::new_err(format!("haema could not start its runtime: {e}")))?;
    let runtime: &'static Runtime = Box::leak(Box::new(runtime));
    *slot = Some((pid, runtime));
    Ok(runtime)
}

/// The event loop `AsyncMemory` set for this call (`haema_rs._adapters.CURRENT_LOOP`).
fn current_loop(py: Python<'_>) -> Option<Arc<Py<PyAny>>> {
    let event_loop = py
        .import("haema_rs._adapters")
        .and_then(|m| m.getattr("CURRENT_LOOP"))
        .and_then(|var| var.call_method1("get", (py.None(),)))
        .ok()?;
    (!event_loop.is_none()).then(|| Arc::new(event_loop.unbind()))
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
    let call = Arc::new(Call {
        event_loop: current_loop(py),
        raised: Mutex::new(None),
        stop: Notify::new(),
    });
    let scoped = Arc::clone(&call);
    let result = py.detach(move || {
        runtime.block_on(CALL.scope(Arc::clone(&scoped), async move {
            tokio::pin!(work);
            loop {
                // The stop is checked first on every wake-up. A client that raised never
                // answers the engine (see `clients`), so the engine takes no step after it.
                tokio::select! {
                    biased;
                    () = scoped.stop.notified() => return None,
                    result = &mut work => return Some(result),
                    () = tokio::time::sleep(SIGNAL_CHECK) => {
                        // Ctrl-C reaches the program here rather than after the engine ends.
                        if let Err(interrupt) = Python::attach(|py| py.check_signals()) {
                            scoped.raise(interrupt);
                        }
                    }
                }
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
