//! Which memories a search, `latest` or recall may return: by attribute and by time. A
//! filter is applied inside the search (the store only ever ranks memories that pass), never
//! by fetching more and dropping.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::types::invalid::{Invalid, Result};

/// Conditions a memory must meet, all of them; an empty filter lets every memory through.
///
/// ```
/// use haema_core::{MemoryFilter, parse_when};
/// let now_ms = 1_767_225_600_000; // 2026-01-01
/// let filter = MemoryFilter {
///     memory_type: Some("preference".into()),
///     min_importance: Some(0.5),
///     since_ms: Some(parse_when("7d", now_ms)?),
///     ..MemoryFilter::default()
/// };
/// let filter = filter.checked()?; // what a search checks too
/// assert!(!filter.is_empty());
/// # Ok::<(), haema_core::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(deny_unknown_fields)]
pub struct MemoryFilter {
    /// Only memories of this type (HatiData's `memory_type`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_type: Option<String>,
    /// Only memories at least this important (0 to 1); a memory without an importance
    /// does not pass.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_importance: Option<f64>,
    /// Only memories from this source.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Only memories written by this agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    /// Only memories written in this session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// Only memories about this user.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_id: Option<String>,
    /// Only memories whose metadata has each key with this value (a string, number,
    /// boolean or null).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub metadata: BTreeMap<String, Value>,
    /// Only memories learned at or after this time (Unix ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since_ms: Option<i64>,
    /// Only memories learned before this time (Unix ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until_ms: Option<i64>,
}

impl MemoryFilter {
    /// True when it lets every memory through.
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    /// The filter as applied: the type in lowercase, names trimmed; an error that says what
    /// is wrong.
    ///
    /// # Errors
    /// [`Invalid::Argument`] for a minimum importance outside [0, 1], a metadata value
    /// that is an object or a list, or a time range that ends before it starts.
    pub fn checked(mut self) -> Result<Self> {
        if let Some(t) = self.memory_type.as_mut() {
            *t = t.trim().to_lowercase();
        }
        for name in [
            &mut self.source,
            &mut self.agent_id,
            &mut self.session_id,
            &mut self.user_id,
        ]
        .into_iter()
        .flatten()
        {
            *name = name.trim().to_owned();
        }
        if let Some(min) = self.min_importance
            && !(0.0..=1.0).contains(&min)
        {
            return Err(Invalid::Argument(format!(
                "the minimum importance is {min}: give a number from 0 to 1"
            )));
        }
        if let Some((key, _)) = self.metadata.iter().find(|(_, v)| v.is_object() || v.is_array()) {
            return Err(Invalid::Argument(format!(
                "the metadata filter on `{key}` is an object or a list: filter on a text, a number, true, false or null"
            )));
        }
        if let (Some(since), Some(until)) = (self.since_ms, self.until_ms)
            && until <= since
        {
            return Err(Invalid::Argument(
                "the time range ends before it starts: `until` must be later than `since`".into(),
            ));
        }
        Ok(self)
    }

    /// Whether `memory` passes (the same test the store applies inside a search). The
    /// examples on [`Memory::latest_records`](crate::Memory::latest_records)
    /// and [`Memory::recall_with`](crate::Memory::recall_with) filter inside the store.
    pub fn matches(&self, memory: &super::MemoryRecord) -> bool {
        let a = &memory.attributes;
        let same =
            |want: &Option<String>, have: &Option<String>| want.as_ref().is_none_or(|w| have.as_ref() == Some(w));
        same(&self.memory_type, &a.memory_type)
            && same(&self.source, &a.source)
            && same(&self.agent_id, &a.agent_id)
            && same(&self.session_id, &a.session_id)
            && same(&self.user_id, &a.user_id)
            && self
                .min_importance
                .is_none_or(|min| a.importance.is_some_and(|i| i >= min))
            && self
                .metadata
                .iter()
                .all(|(k, v)| a.metadata.get(k).unwrap_or(&Value::Null) == v)
            && self.since_ms.is_none_or(|s| memory.timestamp_ms >= s)
            && self.until_ms.is_none_or(|u| memory.timestamp_ms < u)
    }
}

/// Unix ms of a time as people write it on a command line: a date or date and time
/// (`2026-01-01`, `2026-01-01T09:30:00Z`, with an offset), or a time ago: `7d`, `12h`,
/// `30m`, `2w` (days, hours, minutes, weeks before `now_ms`).
///
/// ```
/// use haema_core::parse_when;
/// let now_ms = 1_767_225_600_000; // 2026-01-01T00:00:00Z
/// assert_eq!(parse_when("2026-01-01", now_ms)?, now_ms);
/// assert_eq!(parse_when("12h", now_ms)?, now_ms - 12 * 3_600_000);
/// assert!(parse_when("last tuesday", now_ms).is_err());
/// # Ok::<(), haema_core::Error>(())
/// ```
pub fn parse_when(text: &str, now_ms: i64) -> Result<i64> {
    let t = text.trim();
    let relative = t
        .char_indices()
        .last()
        .and_then(|(at, unit)| Some((t[..at].parse::<i64>().ok()?, unit)));
    if let Some((n, unit)) = relative {
        let unit_ms = match unit {
            'm' => 60_000,
            'h' => 3_600_000,
            'd' => 86_400_000,
            'w' => 7 * 86_400_000,
            _ => 0,
        };
        if unit_ms > 0 && n >= 0 {
            return Ok(now_ms.saturating_sub(n.saturating_mul(unit_ms)));
        }
    }
    super::time::parse_time(t).ok_or_else(|| {
        Invalid::Argument(format!(
            "{t:?} is not a time: write a date (2026-01-01), a date and time (2026-01-01T09:30:00Z) or a time ago (30m, 12h, 7d, 2w)"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn checked_normalises_and_refuses_what_cannot_be_filtered_on() {
        let f: MemoryFilter = serde_json::from_value(json!({"memory_type": " Fact ", "user_id": " ann "})).unwrap();
        let f = f.checked().unwrap();
        assert_eq!(
            (f.memory_type.as_deref(), f.user_id.as_deref()),
            (Some("fact"), Some("ann"))
        );
        for (bad, says) in [
            (json!({"min_importance": 1.2}), "from 0 to 1"),
            (json!({"metadata": {"tags": ["a"]}}), "object or a list"),
            (json!({"since_ms": 10, "until_ms": 10}), "ends before it starts"),
        ] {
            let f: MemoryFilter = serde_json::from_value(bad.clone()).unwrap();
            let error = f.checked().unwrap_err().to_string();
            assert!(error.contains(says), "{bad}: {error}");
        }
        assert!(serde_json::from_value::<MemoryFilter>(json!({"colour": "red"})).is_err());
    }

    #[test]
    fn times_are_dates_or_spans_ago() {
        let now = 1_000 * 86_400_000;
        assert_eq!(parse_when("7d", now).unwrap(), now - 7 * 86_400_000);
        assert_eq!(parse_when("12h", now).unwrap(), now - 12 * 3_600_000);
        assert_eq!(parse_when("2w", now).unwrap(), now - 14 * 86_400_000);
        assert_eq!(parse_when("2026-01-01", now).unwrap(), 1_767_225_600_000);
        let error = parse_when("last tuesday", now).unwrap_err().to_string();
        assert!(error.contains("a time ago"), "{error}");
        assert!(parse_when("-3d", now).is_err());
    }
}
