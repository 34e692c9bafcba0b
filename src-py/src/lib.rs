//! The native half of the Python package `haema_rs`: haema's engine behind a small class
//! that the package's Python modules wrap into HAEMA's `Memory`, an `AsyncMemory` and a
//! Promptise memory provider.
//!
//! What crosses the boundary is plain: strings, numbers and JSON text in the shapes of
//! `haema-core`'s serde types, which the Python side turns into its records. Every call
//! runs the engine with the GIL released ([`calls::run`]); the engine calls back into the
//! Python program's embedding and LLM clients ([`clients`]) holding the GIL only for the
//! length of that call.

mod args;
mod calls;
mod clients;
mod engine;
mod errors;
mod marked;

use pyo3::prelude::*;

/// haema's engine for Python; use it through `haema_rs`, not directly.
#[pymodule]
mod _native {
    #[pymodule_export]
    use super::engine::Engine;

    /// The version of haema this module was built from.
    #[pymodule_export]
    const VERSION: &str = env!("CARGO_PKG_VERSION");

    /// A recall block's token budget when none is given (haema-core's, as every surface's).
    #[pymodule_export]
    const DEFAULT_RECALL_BUDGET: usize = haema_core::DEFAULT_RECALL_BUDGET;

    /// How many relevant memories a recall block holds at most when no number is given.
    #[pymodule_export]
    const DEFAULT_RECALL_MEMORIES: usize = haema_core::DEFAULT_RECALL_MEMORIES;

    /// How many of the newest memories a recall block holds when no number is given.
    #[pymodule_export]
    const DEFAULT_RECALL_LATEST: usize = haema_core::DEFAULT_RECALL_LATEST;

    /// `text` without the recall blocks it holds: what an agent was given back from memory
    /// is not captured into it again.
    #[pyo3::pyfunction]
    fn without_recall_blocks(text: &str) -> String {
        haema_core::without_recall_blocks(text)
    }
}
