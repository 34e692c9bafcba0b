//! Conversation text captured from an agent's session (Claude Code's hooks): with an LLM it
//! is added as any text is, split into facts under the review policy; without one it
//! waits, its secrets replaced, in the state of [`CAPTURE_AGENT`] until an LLM is
//! connected. It is never stored as a memory as it was said.

use serde::{Deserialize, Serialize};

use super::Memory;
use crate::error::Result;
use crate::types::{AddOutcome, MemoryAttributes};

/// The agent whose state holds captured text that waits for an LLM.
pub const CAPTURE_AGENT: &str = "haema-capture";

/// The largest part of a capture added or kept at once, in bytes: well under one memory's
/// and one state value's limit, its JSON escapes included.
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
    /// No LLM is connected: the text waits, and `waiting` parts wait in all.
    Queued {
        /// Parts of captures waiting for an LLM, this one's included.
        waiting: usize,
    },
}

/// One waiting part, as the state of [`CAPTURE_AGENT`] keeps it.
#[derive(Debug, Serialize, Deserialize)]
struct Waiting {
    text: String,
    attributes: MemoryAttributes,
}

impl Memory {
    /// Captures conversation text: with an LLM, adds it in parts of at most 24 KiB (each
    /// split into facts, merged and reviewed as any add); without one, keeps it waiting
    /// for one ([`Memory::add_waiting_captures`]), its secrets already replaced.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// use haema_core::{CaptureOutcome, MemoryAttributes};
    /// let said = "User: I moved to Porto last month.\nAssistant: Noted.";
    /// let outcome = memory.capture(said, MemoryAttributes::default()).await?;
    /// assert_eq!(outcome, CaptureOutcome::Queued { waiting: 1 }); // no LLM: nothing stored as said
    /// assert_eq!(memory.info().await?.active, 0);
    /// assert_eq!(memory.captures_waiting().await?, 1);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The errors of [`Memory::add_with`] and [`Memory::set_agent_state`].
    pub async fn capture(&self, text: &str, attributes: MemoryAttributes) -> Result<CaptureOutcome> {
        let parts = parts(text);
        if parts.is_empty() {
            return Ok(CaptureOutcome::Empty);
        }
        if self.inner.llm.is_none() {
            for part in parts {
                let (text, _) = crate::secrets::redact(&part);
                let key = format!("{:013}.{:08x}", crate::types::now_ms(), fingerprint(&text));
                let value = serde_json::to_value(Waiting {
                    text,
                    attributes: attributes.clone(),
                })
                .map_err(|e| crate::error::Error::Internal(format!("cannot keep a capture: {e}")))?;
                self.set_agent_state(CAPTURE_AGENT, &key, value).await?;
            }
            return Ok(CaptureOutcome::Queued {
                waiting: self.captures_waiting().await?,
            });
        }
        let mut outcomes = Vec::new();
        for part in parts {
            outcomes.push(self.add_with(part, attributes.clone()).await?);
        }
        Ok(CaptureOutcome::Added { outcomes })
    }

    /// Parts of captures waiting for an LLM.
    ///
    /// # Errors
    /// The store's errors.
    pub async fn captures_waiting(&self) -> Result<usize> {
        Ok(self.list_agent_state(CAPTURE_AGENT).await?.len())
    }

    /// Adds the captures that waited for an LLM, oldest first, each removed once added;
    /// returns how many were added. Without an LLM nothing happens (0).
    ///
    /// # Errors
    /// The errors of [`Memory::add_with`]: the parts not yet added keep waiting.
    pub async fn add_waiting_captures(&self) -> Result<usize> {
        if self.inner.llm.is_none() {
            return Ok(0);
        }
        let mut added = 0;
        for state in self.list_agent_state(CAPTURE_AGENT).await? {
            // A value that is no capture (written by hand) is left for a person.
            if let Ok(waiting) = serde_json::from_value::<Waiting>(state.value) {
                self.add_with(waiting.text, waiting.attributes).await?;
                self.delete_agent_state(CAPTURE_AGENT, &state.key).await?;
                added += 1;
            }
        }
        Ok(added)
    }
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

/// A short fingerprint that keeps two parts kept in one millisecond apart.
fn fingerprint(text: &str) -> u32 {
    text.bytes()
        .fold(0x811c_9dc5_u32, |h, b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193))
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
