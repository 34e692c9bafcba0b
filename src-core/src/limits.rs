//! The size limits of what a store takes, in one place.
//!
//! | limit | value | what it bounds |
//! |---|---|---|
//! | [`MAX_MEMORY_BYTES`] | 64 KiB | one text given to `add` (or one item), one memory's text in an edit, a review edit or an import, and one memory an LLM proposes; measured before and after secrets are replaced by their markers, so every stored memory keeps to it |
//! | [`MAX_METADATA_BYTES`] | 16 KiB | a memory's metadata, as JSON |
//! | [`MAX_STATE_VALUE_BYTES`] | 64 KiB | one agent-state value, as JSON |
//!
//! And how much one answer to an agent (MCP) or a window (the desktop) holds at most: the
//! HAEMA-compatible calls of the library, the CLI and the Python wheel return what is asked.
//!
//! | limit | value | what it bounds |
//! |---|---|---|
//! | [`MAX_SEARCH_HITS`] | 100 | the hits of one search |
//! | [`MAX_LATEST_PAGE`] | 500 | one page of the newest memories |
//! | [`MAX_HISTORY_PAGE`] | 200 | one page of history (changesets) |
//! | [`MAX_RECALL_MEMORIES`] | 50 | the relevant memories of one recall block |
//! | [`RECALL_BUDGET`] | 50 to 32,000 | the token budget of one recall block |
//!
//! ```
//! use haema_core::limits::{MAX_MEMORY_BYTES, check_memory_size};
//! assert!(check_memory_size("The user likes tea.").is_ok());
//! let error = check_memory_size(&"x".repeat(MAX_MEMORY_BYTES + 1)).unwrap_err();
//! assert!(error.to_string().contains("65,537 bytes"));
//! ```

use crate::error::{Error, Result};

pub use crate::types::MAX_METADATA_BYTES;

/// Largest text of one memory (and of one text given to `add`), in bytes of UTF-8.
pub const MAX_MEMORY_BYTES: usize = 64 * 1024;

/// Largest agent-state value, as JSON, in bytes.
pub const MAX_STATE_VALUE_BYTES: usize = crate::types::MAX_STATE_VALUE_BYTES;

/// The most hits one search gives an agent or a window.
pub const MAX_SEARCH_HITS: usize = 100;

/// The most memories one page of the newest gives an agent or a window.
pub const MAX_LATEST_PAGE: usize = 500;

/// The most changesets one page of history gives an agent or a window.
pub const MAX_HISTORY_PAGE: usize = 200;

/// The most relevant memories one recall block an agent asks for holds.
pub const MAX_RECALL_MEMORIES: usize = 50;

/// The token budgets an agent may give a recall block.
pub const RECALL_BUDGET: std::ops::RangeInclusive<usize> = 50..=32_000;

/// A count asked for (`None`: `default`), kept between 1 and `max`: what an agent or a
/// window gets for a page or a search.
///
/// ```
/// use haema_core::limits::{MAX_SEARCH_HITS, page_size};
/// assert_eq!(page_size(None, 5, MAX_SEARCH_HITS), 5);
/// assert_eq!(page_size(Some(0), 5, MAX_SEARCH_HITS), 1);
/// assert_eq!(page_size(Some(10_000), 5, MAX_SEARCH_HITS), 100);
/// ```
pub fn page_size(asked: Option<usize>, default: usize, max: usize) -> usize {
    asked.unwrap_or(default).clamp(1, max)
}

/// A count with its thousands grouped (`1,234,567`), as every surface writes sizes and counts.
pub fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Why `text` is too large for one memory, if it is: an error naming its size and the
/// limit.
///
/// # Errors
/// [`Error::InvalidArgument`] when `text` is longer than [`MAX_MEMORY_BYTES`].
pub fn check_memory_size(text: &str) -> Result<()> {
    check_memory_size_of(text, "the text")
}

/// [`check_memory_size`] naming what the text is (`"item 3"`, `"line 7"`). The text is
/// measured as given and as it would be stored, its secrets replaced by their markers (a
/// marker can be longer than the secret it stands for): every stored memory keeps to the
/// limit, so a store's own export always restores.
pub(crate) fn check_memory_size_of(text: &str, what: &str) -> Result<()> {
    let (size, then) = if text.len() > MAX_MEMORY_BYTES {
        (text.len(), "")
    } else {
        let stored = crate::secrets::redact(text).0.len();
        if stored <= MAX_MEMORY_BYTES {
            return Ok(());
        }
        (stored, " once its secrets are replaced by markers")
    };
    Err(Error::InvalidArgument(format!(
        "{what} is {} bytes{then}, more than the limit of {} bytes (64 KiB) for one memory: split it into smaller memories (nothing was stored)",
        grouped(size),
        grouped(MAX_MEMORY_BYTES)
    )))
}

/// Why a memory an LLM proposed is too large, if one is: the reason given back to the model
/// (which then splits it, or the pipeline falls back to the texts as given).
pub(crate) fn oversized_proposal(memories: &[String]) -> Option<String> {
    memories.iter().enumerate().find_map(|(i, text)| {
        check_memory_size_of(text, &format!("memory {}", i + 1))
            .err()
            .map(|e| e.to_string().replace(" (nothing was stored)", ""))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_that_grows_past_the_limit_once_redacted_is_refused() {
        // Each 3-character password becomes an 18-character marker.
        let text = "password=abc ".repeat(MAX_MEMORY_BYTES / 13);
        assert!(text.len() <= MAX_MEMORY_BYTES);
        let error = check_memory_size_of(&text, "item 1").unwrap_err().to_string();
        assert!(
            error.contains("item 1 is") && error.contains("once its secrets are replaced by markers"),
            "{error}"
        );
        assert!(check_memory_size_of(&"password=abc ".repeat(100), "item 1").is_ok());
    }
}
