//! The Python program's own clients as the engine's [`Embedder`] and [`Llm`].
//!
//! Each wraps an adapter of `haema_rs._adapters`, which calls the user's client the way
//! HAEMA does (shapes checked, failed attempts tried again) and answers in plain types:
//! vectors as little-endian float32 bytes, an answer as JSON text. A call runs on the
//! blocking pool and holds the GIL only while Python runs. When the adapter gives up after
//! its attempts it raises `FailedAttempts`, which becomes a [`ProviderError`] the engine
//! answers with its fallback; any other exception ends the whole call and reaches the
//! caller unchanged ([`crate::calls::Call::raise`]).

use std::sync::Arc;

use async_trait::async_trait;
use haema_core::provider::{Embedder, Llm, ProviderError, ProviderErrorKind, StructuredRequest};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use serde_json::Value;

use crate::calls::current_call;

/// How a call of an adapter ended, when it did not answer.
enum Failed {
    /// The adapter gave up after its attempts: the engine falls back.
    Attempts(ProviderErrorKind, String),
    /// Anything else the client raised: the caller gets it.
    Raised(PyErr),
}

/// Runs `ask` (a call of the adapter, given the call's event loop or `None`, and the reading
/// of its answer) on the blocking pool with the GIL; the provider `id` names it in errors.
async fn call_adapter<T, F>(id: &str, adapter: &Arc<Py<PyAny>>, ask: F) -> Result<T, ProviderError>
where
    F: for<'py> FnOnce(&Bound<'py, PyAny>, Py<PyAny>) -> PyResult<T> + Send + 'static,
    T: Send + 'static,
{
    let adapter = Arc::clone(adapter);
    let call = current_call();
    let event_loop = call.as_ref().and_then(|c| c.event_loop.clone());
    let joined = tokio::task::spawn_blocking(move || {
        Python::attach(|py| {
            let event_loop = event_loop.map_or_else(|| py.None(), |l| l.clone_ref(py));
            ask(adapter.bind(py), event_loop).map_err(|error| classify(py, error))
        })
    })
    .await;
    let failed = match joined {
        Ok(Ok(value)) => return Ok(value),
        Ok(Err(failed)) => failed,
        Err(e) => Failed::Raised(pyo3::exceptions::PyRuntimeError::new_err(format!(
            "a client call did not finish: {e}"
        ))),
    };
    match failed {
        Failed::Attempts(kind, message) => Err(ProviderError::new(id, kind, message)),
        Failed::Raised(error) => {
            let message = Python::attach(|py| describe(py, &error));
            if let Some(call) = call {
                // The call ends here: this never answers, so the engine takes no step after
                // the failed call (no fallback, no commit) before it is dropped.
                call.raise(error);
                std::future::pending::<()>().await;
            }
            // Background work (vectors made later) has no caller to tell: it is tried
            // again later, as after any provider failure.
            Err(ProviderError::new(id, ProviderErrorKind::Config, message))
        }
    }
}

/// Whether the adapter gave up (`FailedAttempts`) or something else was raised.
fn classify(py: Python<'_>, error: PyErr) -> Failed {
    let gave_up = py
        .import("haema_rs._adapters")
        .and_then(|m| m.getattr("FailedAttempts"))
        .is_ok_and(|class| error.is_instance(py, &class));
    if !gave_up {
        return Failed::Raised(error);
    }
    let value = error.value(py);
    let kind: String = value
        .getattr("kind")
        .and_then(|k| k.extract())
        .unwrap_or_else(|_| "server".into());
    let kind = match kind.as_str() {
        "bad_answer" => ProviderErrorKind::BadAnswer,
        "timeout" => ProviderErrorKind::Timeout,
        "network" => ProviderErrorKind::Network,
        _ => ProviderErrorKind::Server,
    };
    Failed::Attempts(kind, describe(py, &error))
}

/// An exception as one line: its class and message.
fn describe(py: Python<'_>, error: &PyErr) -> String {
    let class = error
        .get_type(py)
        .name()
        .map_or_else(|_| "Exception".to_owned(), |n| n.to_string());
    format!("{class}: {}", error.value(py))
}

/// The program's embedding client.
pub(crate) struct PyEmbedder {
    adapter: Arc<Py<PyAny>>,
    id: String,
    dims: usize,
}

impl PyEmbedder {
    pub(crate) fn new(adapter: Py<PyAny>, id: String, dims: usize) -> Self {
        Self {
            adapter: Arc::new(adapter),
            id,
            dims,
        }
    }

    async fn embed(&self, kind: &'static str, texts: &[String]) -> Result<Vec<Vec<f32>>, ProviderError> {
        let texts_owned = texts.to_vec();
        let bytes = call_adapter(
            &self.id,
            &self.adapter,
            move |adapter: &Bound<'_, PyAny>, event_loop| {
                let answer = adapter.call_method1("embed", (kind, texts_owned, event_loop))?;
                Ok(answer.cast::<PyBytes>()?.as_bytes().to_vec())
            },
        )
        .await?;
        let numbers: Vec<f32> = bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        if self.dims == 0 || numbers.len() != texts.len() * self.dims {
            return Err(ProviderError::new(
                &self.id,
                ProviderErrorKind::BadAnswer,
                format!(
                    "the embedding client gave {} numbers for {} texts of {} dimensions",
                    numbers.len(),
                    texts.len(),
                    self.dims
                ),
            ));
        }
        Ok(numbers.chunks(self.dims).map(<[f32]>::to_vec).collect())
    }
}

#[async_trait]
impl Embedder for PyEmbedder {
    fn id(&self) -> String {
        self.id.clone()
    }

    fn dims(&self) -> usize {
        self.dims
    }

    async fn embed_query(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, ProviderError> {
        self.embed("query", texts).await
    }

    async fn embed_document(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, ProviderError> {
        self.embed("document", texts).await
    }
}

/// The program's LLM client.
pub(crate) struct PyLlm {
    adapter: Arc<Py<PyAny>>,
    id: String,
}

impl PyLlm {
    pub(crate) fn new(adapter: Py<PyAny>, id: String) -> Self {
        Self {
            adapter: Arc::new(adapter),
            id,
        }
    }
}

#[async_trait]
impl Llm for PyLlm {
    fn id(&self) -> String {
        self.id.clone()
    }

    async fn generate_structured(&self, request: StructuredRequest<'_>) -> Result<Value, ProviderError> {
        let args = (
            request.name.to_owned(),
            request.system.to_owned(),
            request.user.to_owned(),
        );
        let text = call_adapter(
            &self.id,
            &self.adapter,
            move |adapter: &Bound<'_, PyAny>, event_loop| {
                let (stage, system, user) = args;
                adapter
                    .call_method1("generate", (stage, system, user, event_loop))?
                    .extract::<String>()
            },
        )
        .await?;
        serde_json::from_str(&text).map_err(|e| {
            ProviderError::new(
                &self.id,
                ProviderErrorKind::BadAnswer,
                format!("the LLM client's answer is not JSON: {e}"),
            )
        })
    }
}
