//! Conversation text captured from an agent's session (Claude Code's hooks). With an LLM
//! it is added as any text is, always split into facts and under the review policy, and
//! where the LLM fails nothing is stored. Without one nothing is stored at all: the
//! session's cursor ([`CaptureCursor`]) says its words wait, and they are read from the
//! agent's own transcript once an LLM is connected. A conversation is never stored as it
//! was said.

use serde::{Deserialize, Serialize};

use super::Memory;
use crate::error::Result;
use crate::pipeline::AddInput;
use crate::types::{AddOutcome, MemoryAttributes};

/// The agent whose state holds the capture cursors, one per captured session.
pub const CAPTURE_AGENT: &str = "haema-capture";

/// The largest part of a capture added at once, in bytes (well under one memory's limit).
const PART_BYTES: usize = 24 * 1024;

/// What became of a capture.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum CaptureOutcome {
    /// Nothing to capture (empty text).
    Empty,
    /// Added: one add per part, under the review policy.
    Added {
        /// Each part's outcome.
        outcomes: Vec<AddOutcome>,
    },
    /// No LLM is connected: nothing was stored, and the words wait where they were said.
    NeedsLlm,
}

/// Where the capture of one session stands: how far its transcript was read, and whether
/// words after that wait for an LLM.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CaptureCursor {
    /// The transcript (a file path), as the agent named it.
    pub transcript: String,
    /// Bytes of it read and captured.
    pub offset: u64,
    /// Words after `offset` wait for an LLM to be connected.
    #[serde(default)]
    pub waiting: bool,
    /// The user the session's memories are about.
    #[serde(default)]
    pub user_id: Option<String>,
}

impl Memory {
    /// Captures conversation text: with an LLM, adds it in parts of at most 24 KiB, each
    /// split into facts, merged and reviewed as any add; without one, stores nothing.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// use haema_core::{CaptureOutcome, MemoryAttributes};
    /// let said = "The user said: I moved to Porto last month.\nThe assistant said: Noted.";
    /// let outcome = memory.capture(said, MemoryAttributes::default()).await?;
    /// assert_eq!(outcome, CaptureOutcome::NeedsLlm); // no LLM: nothing stored as said
    /// assert_eq!(memory.info().await?.active, 0);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The errors of [`Memory::add_with`], and a provider error when the LLM could not
    /// split or merge a part (nothing of that part is stored; parts before it are).
    pub async fn capture(&self, text: &str, attributes: MemoryAttributes) -> Result<CaptureOutcome> {
        let parts = parts(text);
        if parts.is_empty() {
            return Ok(CaptureOutcome::Empty);
        }
        if self.inner.llm.is_none() {
            return Ok(CaptureOutcome::NeedsLlm);
        }
        let mut outcomes = Vec::new();
        for part in parts {
            outcomes.push(self.add_read(AddInput::Text(part), attributes.clone(), true).await?);
        }
        Ok(CaptureOutcome::Added { outcomes })
    }

    /// Whether an LLM is connected to split captured conversations.
    pub fn can_capture(&self) -> bool {
        self.inner.llm.is_some()
    }

    /// The cursor of session `session` of `source` (`claude-code`), if it was captured.
    ///
    /// # Errors
    /// The store's errors, and [`crate::Error::InvalidArgument`] for a session id that
    /// is no state key.
    pub async fn capture_cursor(&self, source: &str, session: &str) -> Result<Option<CaptureCursor>> {
        let key = cursor_key(source, session);
        let state = self.get_agent_state(CAPTURE_AGENT, &key).await?;
        Ok(state.and_then(|s| serde_json::from_value(s.value).ok()))
    }

    /// Records where the capture of `session` of `source` stands.
    ///
    /// # Errors
    /// The errors of [`Memory::set_agent_state`].
    pub async fn set_capture_cursor(&self, source: &str, session: &str, cursor: &CaptureCursor) -> Result<()> {
        let value = serde_json::to_value(cursor)
            .map_err(|e| crate::error::Error::Internal(format!("cannot keep a capture cursor: {e}")))?;
        self.set_agent_state(CAPTURE_AGENT, &cursor_key(source, session), value)
            .await?;
        Ok(())
    }

    /// The sessions of `source` whose words wait for an LLM, with their cursors.
    ///
    /// # Errors
    /// The store's errors.
    pub async fn captures_waiting(&self, source: &str) -> Result<Vec<(String, CaptureCursor)>> {
        let prefix = format!("{source}.");
        Ok(self
            .list_agent_state(CAPTURE_AGENT)
            .await?
            .into_iter()
            .filter_map(|s| {
                let session = s.key.strip_prefix(&prefix)?.to_owned();
                let cursor: CaptureCursor = serde_json::from_value(s.value).ok()?;
                cursor.waiting.then_some((session, cursor))
            })
            .collect())
    }
}

fn cursor_key(source: &str, session: &str) -> String {
    format!("{source}.{session}")
}

/// How many sessions' words wait for an LLM, from the capture cursors' values.
pub(super) fn waiting_count(values: impl Iterator<Item = serde_json::Value>) -> usize {
    values
        .filter(|v| v.get("waiting").and_then(serde_json::Value::as_bool) == Some(true))
        .count()
}

/// The text in parts of at most [`PART_BYTES`], cut between lines (a line longer than that
/// between characters), each trimmed, none empty.
fn parts(text: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut part = String::new();
    for line in text.lines() {
        let mut line = line;
        while line.len() > PART_BYTES {
            let mut cut = PART_BYTES;
            while !line.is_char_boundary(cut) {
                cut -= 1;
            }
            push(&mut parts, std::mem::take(&mut part));
            parts.push(line[..cut].to_owned());
            line = &line[cut..];
        }
        if part.len() + line.len() + 1 > PART_BYTES {
            push(&mut parts, std::mem::take(&mut part));
        }
        part.push_str(line);
        part.push('\n');
    }
    push(&mut parts, part);
    parts
}

fn push(parts: &mut Vec<String>, part: String) {
    let part = part.trim();
    if !part.is_empty() {
        parts.push(part.to_owned());
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_long_text_is_cut_between_lines_into_parts_that_keep_every_character() {
        let line = "word ".repeat(1000);
        let text = format!("{line}\n").repeat(20) + &"é".repeat(super::PART_BYTES);
        let parts = super::parts(&text);
        assert!(parts.len() > 3);
        assert!(parts.iter().all(|p| p.len() <= super::PART_BYTES));
        let kept: usize = parts
            .iter()
            .map(|p| p.chars().filter(|c| !c.is_whitespace()).count())
            .sum();
        assert_eq!(kept, 20 * 1000 * 4 + super::PART_BYTES);
        assert!(super::parts(" \n\n ").is_empty());
    }
}
