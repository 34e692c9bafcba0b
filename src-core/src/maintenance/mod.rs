//! Looking after a store: checking its parts with real calls (`doctor`) and switching it to
//! another embedder (`reembed`).

mod doctor;
pub(crate) use reembed::{fill_missing, reembed_unless_busy};
mod reembed;

pub use doctor::{Check, CheckProblem, doctor};
pub use reembed::{ReembedProgress, ReembedReport, reembed};
