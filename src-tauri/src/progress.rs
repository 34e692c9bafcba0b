//! Progress of long work (adding with an LLM, importing, re-embedding), sent to the window
//! as `progress` events while the work runs on the async runtime.

use serde::{Deserialize, Serialize};
use tauri::AppHandle;
use tauri_specta::Event;

/// Which long task a progress event is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "snake_case")]
pub enum Task {
    /// Adding with an LLM.
    Add,
    /// Importing a file.
    Import,
    /// Making the search vectors again.
    Reembed,
    /// The embedding model downloading, vectors being made.
    Model,
    /// Forgetting, and scrubbing the old bytes.
    Forget,
}

/// The `progress` event: one step of a long task.
#[derive(Debug, Clone, Serialize, Deserialize, specta::Type, tauri_specta::Event)]
pub struct Progress {
    /// The task.
    pub task: Task,
    /// Units done (memories embedded), 0 when unknown.
    pub done: usize,
    /// Units in all, 0 when unknown.
    pub total: usize,
    /// What is happening, in plain words.
    pub message: String,
    /// True on the last event of the task.
    pub finished: bool,
}

/// Sends progress events for one task.
#[derive(Clone)]
pub struct Reporter {
    app: AppHandle,
    task: Task,
}

impl Reporter {
    /// A reporter for `task`.
    pub fn new(app: AppHandle, task: Task) -> Self {
        Self { app, task }
    }

    /// Says what is happening.
    pub fn say(&self, message: impl Into<String>) {
        self.send(0, 0, message.into(), false);
    }

    /// `done` of `total` units.
    pub fn step(&self, done: usize, total: usize, message: &str) {
        self.send(done, total, message.to_owned(), false);
    }

    /// The task ended (well or not).
    pub fn finish(&self) {
        self.send(0, 0, String::new(), true);
    }

    fn send(&self, done: usize, total: usize, message: String, finished: bool) {
        // A window that went away cannot be told; the work itself is not affected.
        let _ = Progress {
            task: self.task,
            done,
            total,
            message,
            finished,
        }
        .emit(&self.app);
    }
}
