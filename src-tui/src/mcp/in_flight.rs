//! Writes that outlive their client: when the client closes standard input while an
//! `add_memory` waits on a slow LLM, rmcp ends the session and drops the call. Each write
//! therefore runs as a task of its own, and the server waits for every one before it exits.
//! A write whose answer never reached the client is said on standard error (what was
//! stored, or why not), and one that failed makes the exit status 1.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use rmcp::ErrorData;
use rmcp::model::CallToolResult;
use tokio::sync::RwLock;

/// What became of a write: which tool, what it answered, whether it failed.
#[derive(Debug, Clone)]
pub struct Finished {
    pub tool: &'static str,
    pub said: String,
    pub failed: bool,
}

/// The writes in flight.
#[derive(Clone, Default)]
pub struct InFlight {
    /// Held (shared) by each running write; the server takes it whole before it exits.
    running: Arc<RwLock<()>>,
    /// Writes that finished and whose answer has not been handed back to rmcp.
    unanswered: Arc<Mutex<BTreeMap<u64, Finished>>>,
    next: Arc<AtomicU64>,
    /// Set once the session has ended: an answer ready after it reaches no one.
    closed: Arc<AtomicBool>,
}

impl InFlight {
    /// Runs `work` (a write by `tool`) to its end even when the call is dropped.
    pub async fn run<F>(&self, tool: &'static str, work: F) -> Result<CallToolResult, ErrorData>
    where
        F: Future<Output = Result<CallToolResult, ErrorData>> + Send + 'static,
    {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let running = Arc::clone(&self.running).read_owned().await;
        let unanswered = Arc::clone(&self.unanswered);
        let task = tokio::spawn(async move {
            let answer = work.await;
            let finished = describe(tool, &answer);
            unanswered
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .insert(id, finished);
            drop(running);
            answer
        });
        let answer = task
            .await
            .unwrap_or_else(|e| Err(ErrorData::internal_error(format!("{tool} stopped: {e}"), None)));
        // rmcp sends the answer while the session lasts (and drains answers for a while
        // after the end of input); after that it reaches no one, and `finish` says so.
        if !self.closed.load(Ordering::SeqCst) {
            self.unanswered
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .remove(&id);
        }
        answer
    }

    /// Whether a write is running now.
    pub fn any_running(&self) -> bool {
        // A write holds a read lock; `try_write` fails while any does.
        self.running.try_write().is_err()
    }

    /// The session has ended: answers from now on reach no one.
    pub fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
    }

    /// Waits for every write to end (after [`InFlight::close`]), and returns those whose
    /// answer the client never got.
    pub async fn finish(&self) -> Vec<Finished> {
        let _all = self.running.write().await;
        // A write that ended just now may still be handing its answer back.
        tokio::task::yield_now().await;
        std::mem::take(&mut *self.unanswered.lock().unwrap_or_else(PoisonError::into_inner))
            .into_values()
            .collect()
    }
}

/// A write's answer in one line, and whether it failed.
fn describe(tool: &'static str, answer: &Result<CallToolResult, ErrorData>) -> Finished {
    let (said, failed) = match answer {
        Err(e) => (e.message.to_string(), true),
        Ok(result) if result.is_error == Some(true) => (
            result
                .content
                .iter()
                .filter_map(|c| c.as_text().map(|t| t.text.clone()))
                .collect::<Vec<_>>()
                .join(" "),
            true,
        ),
        Ok(result) => {
            let value = result.structured_content.clone().unwrap_or_default();
            let changeset = value
                .get("changeset")
                .filter(|c| !c.is_null())
                .map(|c| format!(" (changeset {c})"))
                .unwrap_or_default();
            let message = value
                .get("message")
                .or_else(|| value.get("status"))
                .and_then(|m| m.as_str())
                .unwrap_or("done");
            (format!("{message}{changeset}"), false)
        }
    };
    Finished { tool, said, failed }
}
