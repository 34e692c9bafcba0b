//! Agent state: a small key/value store per agent (HatiData's `get_agent_state` /
//! `set_agent_state`), for things like the current task. Not memories: never searched,
//! never merged; every change is kept in its history.

use serde::{Deserialize, Serialize};

use crate::types::invalid::{Invalid, Result};

/// The agent a state belongs to when none is named.
pub const DEFAULT_AGENT: &str = "default";
/// Longest key, in characters.
const MAX_KEY_CHARS: usize = 256;
/// Largest value, as JSON, in bytes (listed in [`crate::limits`]).
pub const MAX_STATE_VALUE_BYTES: usize = 64 * 1024;

/// One key of an agent's state and its value now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct AgentState {
    /// The agent it belongs to.
    pub agent_id: String,
    /// The key.
    pub key: String,
    /// Any JSON value.
    pub value: serde_json::Value,
    /// When it was last set (Unix ms).
    pub updated_at_ms: i64,
    /// The same instant in ISO 8601 UTC.
    pub updated_at: String,
}

/// One change of a key: the value it was given, or `None` when it was deleted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct AgentStateChange {
    /// True when the key was deleted (then `value` is `None`).
    pub deleted: bool,
    /// The value set (JSON `null` is a value too), or `None` for a deletion.
    pub value: Option<serde_json::Value>,
    /// When (Unix ms).
    pub at_ms: i64,
    /// The same instant in ISO 8601 UTC.
    pub at: String,
}

/// The agent id as used (trimmed), or why it cannot be one.
pub(crate) fn checked_agent(agent_id: &str) -> Result<String> {
    let agent = agent_id.trim();
    if agent.is_empty() {
        return Err(Invalid::Argument(format!(
            "the agent id is empty: name the agent, or use `{DEFAULT_AGENT}`"
        )));
    }
    Ok(agent.to_owned())
}

/// The key as used (trimmed), or why it cannot be one.
pub(crate) fn checked_key(key: &str) -> Result<String> {
    let key = key.trim();
    if key.is_empty() {
        return Err(Invalid::Argument(
            "the state key is empty: name it, e.g. current_task".into(),
        ));
    }
    if key.chars().count() > MAX_KEY_CHARS {
        return Err(Invalid::Argument(format!(
            "the state key is longer than {MAX_KEY_CHARS} characters: use a short name"
        )));
    }
    Ok(key.to_owned())
}

/// The value as stored (JSON text), or why it is too large.
pub(crate) fn checked_value(value: &serde_json::Value) -> Result<String> {
    let text = value.to_string();
    if text.len() > MAX_STATE_VALUE_BYTES {
        return Err(Invalid::Argument(format!(
            "the state value is {} bytes as JSON, more than {} KB: keep large things as memories or files",
            text.len(),
            MAX_STATE_VALUE_BYTES / 1024
        )));
    }
    Ok(text)
}
