//! What a memory is, how much it matters, who wrote it and for whom: the attributes an
//! `add` may give (HatiData's typed, weighted, attributed memories; mem0's `user_id`,
//! `agent_id` and `metadata`), kept on every memory it makes and carried onto merged
//! memories by one rule ([`MemoryAttributes::merged`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::types::invalid::{Invalid, Result};

/// Longest `type`, in characters.
const MAX_TYPE_CHARS: usize = 64;
/// Longest `source`, `agent_id`, `session_id` or `user_id`, in characters.
const MAX_NAME_CHARS: usize = 256;
/// Largest `metadata`, as compact JSON, in bytes.
pub const MAX_METADATA_BYTES: usize = 16 * 1024;

/// The kinds of memory HatiData names; any other lowercase word is the user's own.
pub const MEMORY_TYPES: &[&str] = &["fact", "episode", "preference", "context"];

/// The attributes of a memory. Every field is optional; a memory without any behaves as
/// before attributes existed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct MemoryAttributes {
    /// What kind of memory (HatiData's `memory_type`): `fact`, `episode`, `preference`, `context`, or the user's own
    /// word (lowercase letters, digits, `_` and `-`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_type: Option<String>,
    /// How much it matters, from 0 to 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub importance: Option<f64>,
    /// Where it came from (a document, a tool, a conversation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The agent that wrote it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    /// The session it was written in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// The user it is about (for stores that hold several users' memories).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_id: Option<String>,
    /// Free JSON, key by key.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub metadata: BTreeMap<String, Value>,
}

fn check_name(field: &str, value: Option<&str>, max: usize) -> Result<()> {
    let Some(value) = value else { return Ok(()) };
    if value.trim().is_empty() {
        return Err(Invalid::Argument(format!(
            "`{field}` is empty: leave it out, or give a value"
        )));
    }
    if value.chars().count() > max {
        return Err(Invalid::Argument(format!("`{field}` is longer than {max} characters")));
    }
    if value.chars().any(char::is_control) {
        return Err(Invalid::Argument(format!(
            "`{field}` holds a control character (a line break, a tab…): give it on one line"
        )));
    }
    Ok(())
}

impl MemoryAttributes {
    /// The text an agent reads in the attributes, screened for prompt injection as a
    /// memory's text is: the source, the ids, and the metadata's keys and strings, one per
    /// line (empty when none is set).
    pub(crate) fn screened_text(&self) -> String {
        let mut lines: Vec<&str> = [&self.source, &self.agent_id, &self.session_id, &self.user_id]
            .into_iter()
            .flatten()
            .map(String::as_str)
            .collect();
        for (key, value) in &self.metadata {
            lines.push(key);
            crate::text::json_strings(value, &mut lines);
        }
        lines.join("\n")
    }

    /// True when no attribute is set.
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    /// The attributes as stored: the type in lowercase, names trimmed; an error that says
    /// which field is wrong and what to give instead.
    ///
    /// ```
    /// use haema_core::MemoryAttributes;
    /// let given = MemoryAttributes { memory_type: Some(" Preference ".into()), ..Default::default() };
    /// assert_eq!(given.checked()?.memory_type.as_deref(), Some("preference"));
    /// let wrong = MemoryAttributes { importance: Some(1.5), ..Default::default() };
    /// assert!(wrong.checked().is_err()); // importance is from 0 to 1
    /// # Ok::<(), haema_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Invalid::Argument`] for an importance outside [0, 1], an empty or over-long
    /// name, a type that is not one word, or metadata over 16 KB.
    pub fn checked(mut self) -> Result<Self> {
        if let Some(t) = &self.memory_type {
            let t = t.trim().to_lowercase();
            let word = !t.is_empty()
                && t.chars().count() <= MAX_TYPE_CHARS
                && t.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-');
            if !word {
                return Err(Invalid::Argument(format!(
                    "`memory_type` {:?} is not one word: use {} or a word of your own (letters, digits, `_`, `-`, at most {MAX_TYPE_CHARS})",
                    self.memory_type.as_deref().unwrap_or_default(),
                    MEMORY_TYPES.join(", ")
                )));
            }
            self.memory_type = Some(t);
        }
        if let Some(importance) = self.importance
            && !(0.0..=1.0).contains(&importance)
        {
            return Err(Invalid::Argument(format!(
                "`importance` is {importance}: give a number from 0 to 1"
            )));
        }
        for (field, value) in [
            ("source", &mut self.source),
            ("agent_id", &mut self.agent_id),
            ("session_id", &mut self.session_id),
            ("user_id", &mut self.user_id),
        ] {
            check_name(field, value.as_deref(), MAX_NAME_CHARS)?;
            if let Some(v) = value {
                *v = v.trim().to_owned();
            }
        }
        if self.metadata.keys().any(|k| k.trim().is_empty()) {
            return Err(Invalid::Argument("a `metadata` key is empty".into()));
        }
        let size = serde_json::to_string(&self.metadata).map_or(usize::MAX, |s| s.len());
        if size > MAX_METADATA_BYTES {
            return Err(Invalid::Argument(format!(
                "`metadata` is {size} bytes as JSON: at most {MAX_METADATA_BYTES}"
            )));
        }
        Ok(self)
    }

    /// The attributes of a memory made by merging `older` memories (oldest first) with new
    /// text that came with `newest`: each field takes the newest value given, `metadata` is
    /// merged key by key (the newest value of a key wins), and `importance` is the highest
    /// given, so that merging never makes a memory matter less.
    ///
    /// ```
    /// use haema_core::MemoryAttributes;
    /// let old = MemoryAttributes { importance: Some(0.9), source: Some("chat".into()), ..Default::default() };
    /// let new = MemoryAttributes { importance: Some(0.3), source: Some("email".into()), ..Default::default() };
    /// let merged = MemoryAttributes::merged([&old], &new);
    /// assert_eq!((merged.importance, merged.source.as_deref()), (Some(0.9), Some("email")));
    /// ```
    pub fn merged<'a>(older: impl IntoIterator<Item = &'a Self>, newest: &'a Self) -> Self {
        let mut out = Self::default();
        for next in older.into_iter().chain(std::iter::once(newest)) {
            for (slot, value) in [
                (&mut out.memory_type, &next.memory_type),
                (&mut out.source, &next.source),
                (&mut out.agent_id, &next.agent_id),
                (&mut out.session_id, &next.session_id),
                (&mut out.user_id, &next.user_id),
            ] {
                if value.is_some() {
                    slot.clone_from(value);
                }
            }
            out.importance = match (out.importance, next.importance) {
                (Some(a), Some(b)) => Some(a.max(b)),
                (a, b) => a.or(b),
            };
            for (key, value) in &next.metadata {
                out.metadata.insert(key.clone(), value.clone());
            }
        }
        out
    }

    /// Metadata as stored in a column: `None` when empty.
    pub(crate) fn metadata_json(&self) -> Option<String> {
        (!self.metadata.is_empty()).then(|| serde_json::to_string(&self.metadata).unwrap_or_else(|_| "{}".into()))
    }

    /// Metadata from its column; text that is not a JSON object is kept under `_raw` rather
    /// than lost.
    pub(crate) fn metadata_from(text: Option<&str>) -> BTreeMap<String, Value> {
        match text {
            None => BTreeMap::new(),
            Some(text) => serde_json::from_str(text)
                .unwrap_or_else(|_| BTreeMap::from([("_raw".to_owned(), Value::String(text.to_owned()))])),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn attrs(value: Value) -> MemoryAttributes {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn checked_normalises_and_says_what_is_wrong() {
        let ok = attrs(json!({"memory_type": " Preference ", "importance": 1.0, "agent_id": " planner "}))
            .checked()
            .unwrap();
        assert_eq!(ok.memory_type.as_deref(), Some("preference"));
        assert_eq!(ok.agent_id.as_deref(), Some("planner"));
        for (bad, says) in [
            (json!({"importance": 1.5}), "from 0 to 1"),
            (json!({"importance": -0.1}), "from 0 to 1"),
            (json!({"memory_type": "two words"}), "not one word"),
            (json!({"memory_type": ""}), "not one word"),
            (json!({"source": "  "}), "`source` is empty"),
            (json!({"user_id": "a\nb"}), "control character"),
            (json!({"metadata": {"": 1}}), "key is empty"),
            (
                json!({"metadata": {"k": "x".repeat(MAX_METADATA_BYTES)}}),
                "bytes as JSON",
            ),
        ] {
            let error = attrs(bad.clone()).checked().unwrap_err().to_string();
            assert!(error.contains(says), "{bad}: {error}");
        }
    }

    #[test]
    fn merging_takes_the_newest_value_the_highest_importance_and_metadata_key_by_key() {
        let old =
            attrs(json!({"memory_type": "fact", "importance": 0.9, "source": "chat", "metadata": {"a": 1, "b": 1}}));
        let older = attrs(json!({"agent_id": "scout", "importance": 0.2, "metadata": {"c": 3}}));
        let new = attrs(json!({"memory_type": "preference", "importance": 0.4, "metadata": {"b": 2}}));
        let merged = MemoryAttributes::merged([&older, &old], &new);
        assert_eq!(
            merged,
            attrs(json!({
                "memory_type": "preference", "importance": 0.9, "source": "chat", "agent_id": "scout",
                "metadata": {"a": 1, "b": 2, "c": 3}
            }))
        );
        assert_eq!(MemoryAttributes::merged([], &new), new);
        assert!(MemoryAttributes::merged([], &MemoryAttributes::default()).is_empty());
    }

    #[test]
    fn serialises_only_what_is_set_and_refuses_nothing_silently() {
        assert_eq!(serde_json::to_string(&MemoryAttributes::default()).unwrap(), "{}");
        let text = serde_json::to_string(&attrs(json!({"memory_type": "fact"}))).unwrap();
        assert_eq!(text, r#"{"memory_type":"fact"}"#);
        assert_eq!(
            MemoryAttributes::metadata_from(Some("not json"))["_raw"],
            json!("not json")
        );
    }
}
