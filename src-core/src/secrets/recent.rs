//! The texts screened last and what was found in them: one write screens the same text at
//! several points (its size check, the changeset's input, the memory, the LLM's prompt),
//! and [`super::find`] answers each again from here.

use std::collections::VecDeque;
use std::sync::{Mutex, PoisonError};

use super::SecretFinding;

/// How many texts are kept.
const KEPT: usize = 16;

/// A text longer than this is screened every time (the cache holds small texts only).
const LONGEST: usize = 16 * 1024;

static RECENT: Mutex<VecDeque<(String, Vec<SecretFinding>)>> = Mutex::new(VecDeque::new());

/// What was found in `text` when it was screened lately.
pub(super) fn found(text: &str) -> Option<Vec<SecretFinding>> {
    if text.len() > LONGEST {
        return None;
    }
    let recent = RECENT.lock().unwrap_or_else(PoisonError::into_inner);
    recent.iter().find(|(t, _)| t == text).map(|(_, f)| f.clone())
}

/// Keeps what was found in `text` (the oldest text goes).
pub(super) fn keep(text: &str, found: &[SecretFinding]) {
    if text.len() > LONGEST {
        return;
    }
    let mut recent = RECENT.lock().unwrap_or_else(PoisonError::into_inner);
    if recent.len() == KEPT {
        recent.pop_front();
    }
    recent.push_back((text.to_owned(), found.to_vec()));
}
