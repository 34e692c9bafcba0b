//! Reading plain memories: JSONL (one memory per line, optional timestamp) and mem0's JSON
//! export (`import_items` stores them). Each memory is stored as it is, with its timestamp;
//! texts already in the store are skipped, so importing a file twice adds nothing.

use serde::Serialize;
use serde_json::Value;

use crate::error::{Error, Result};
use crate::secrets::SecretTally;
use crate::types::{ChangesetId, MemoryAttributes, parse_time};

/// One memory to import.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ImportItem {
    /// Text.
    pub content: String,
    /// When it was learned (Unix ms), if the file says.
    pub timestamp_ms: Option<i64>,
    /// Its type, importance, source, writer, user and metadata, if the file says.
    pub attributes: MemoryAttributes,
}

/// What a plain import did.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct ItemsReport {
    /// Memories added.
    pub added: usize,
    /// Items whose text was already a memory (or repeated in the file).
    pub skipped: usize,
    /// The changeset that holds them, if any were added.
    pub changeset: Option<ChangesetId>,
    /// Items held for review: their text reads like a prompt injection (under the
    /// `guarded` and `review` policies), or held a secret under `secrets.policy = hold`.
    pub held: usize,
    /// The pending changeset that holds them, if any were held.
    pub pending: Option<ChangesetId>,
    /// The secrets replaced by markers, by kind (never the secrets).
    pub secrets: SecretTally,
    /// What the screens found and did.
    pub warnings: Vec<String>,
}

/// The attributes of an imported object: haema's own names (`memory_type`, `importance`,
/// `source`, `agent_id`, `session_id`, `user_id`, `metadata`) and mem0's (`run_id` is the
/// session, `categories` go into the metadata).
fn attributes_of(value: &Value) -> std::result::Result<MemoryAttributes, String> {
    let text = |key: &str| -> std::result::Result<Option<String>, String> {
        match value.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(Value::Number(n)) => Ok(Some(n.to_string())),
            Some(other) => Err(format!("`{key}` should be text, not {other}")),
        }
    };
    let mut metadata: std::collections::BTreeMap<String, Value> = match value.get("metadata") {
        None | Some(Value::Null) => Default::default(),
        Some(Value::Object(map)) => map.clone().into_iter().collect(),
        Some(other) => return Err(format!("`metadata` should be a JSON object, not {other}")),
    };
    if let Some(categories) = value.get("categories").filter(|c| !c.is_null()) {
        metadata.insert("categories".to_owned(), categories.clone());
    }
    let importance = match value.get("importance") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            v.as_f64()
                .ok_or_else(|| format!("`importance` should be a number, not {v}"))?,
        ),
    };
    let attributes = MemoryAttributes {
        memory_type: text("memory_type")?,
        importance,
        source: text("source")?,
        agent_id: text("agent_id")?,
        session_id: text("session_id")?.or(text("run_id")?),
        user_id: text("user_id")?,
        metadata,
    }
    .checked()
    .map_err(|e| e.to_string())?;
    crate::secrets::refuse_in_ids(&attributes).map_err(|e| match e {
        Error::InvalidArgument(message) => message,
        other => other.to_string(),
    })?;
    Ok(attributes)
}

/// Year 10000 in Unix ms: later times are mistakes (or nanoseconds).
const LATEST_TIME_MS: i64 = 253_402_300_800_000;

/// The time of an imported object: the first of `timestamp_ms`, `created_at`, `timestamp`,
/// `updated_at` it has (Unix ms or seconds, or ISO 8601 text). A time that cannot be read,
/// is before 1970 or after year 9999 is an error that names the field: it is never dropped
/// or made up.
fn time_of(value: &Value) -> std::result::Result<Option<i64>, String> {
    let Some((key, given)) = ["timestamp_ms", "created_at", "timestamp", "updated_at"]
        .iter()
        .find_map(|k| value.get(*k).filter(|v| !v.is_null()).map(|v| (*k, v)))
    else {
        return Ok(None);
    };
    let ms = match given {
        Value::Number(n) => n
            .as_i64()
            .or_else(|| n.as_f64().filter(|f| f.is_finite() && f.abs() < 9e15).map(|f| f as i64))
            // Seconds, as many exports write them.
            .map(|v| if (0..100_000_000_000).contains(&v) { v * 1000 } else { v }),
        Value::String(s) => parse_time(s),
        _ => None,
    };
    match ms {
        Some(ms) if (0..LATEST_TIME_MS).contains(&ms) => Ok(Some(ms)),
        Some(_) => Err(format!(
            "`{key}` is {given}: a memory's time must be between 1970 and the year 9999"
        )),
        None => Err(format!(
            "`{key}` is {given}, not a time: give Unix milliseconds or ISO 8601 such as 2026-01-01T09:30:00Z"
        )),
    }
}

fn item_of(value: &Value) -> std::result::Result<Option<ImportItem>, String> {
    if let Value::String(text) = value {
        return Ok(Some(ImportItem {
            content: text.trim().to_owned(),
            ..ImportItem::default()
        }));
    }
    let Some(content) = ["memory", "content", "text"]
        .iter()
        .find_map(|k| value.get(*k).and_then(Value::as_str))
    else {
        return Ok(None);
    };
    let content = content.trim().to_owned();
    let timestamp_ms = time_of(value)?;
    Ok(Some(ImportItem {
        content,
        timestamp_ms,
        attributes: attributes_of(value)?,
    }))
}

/// Reads JSONL (a JSON string or an object with `content`/`memory`/`text` per line) or a
/// mem0 export (a JSON array, or an object with a `results` or `memories` array).
///
/// ```
/// use haema_core::parse_items;
/// let jsonl = r#"{"content": "The user is vegetarian.", "created_at": "2024-07-20", "user_id": "ana"}
/// "The user lives in Lyon.""#;
/// let items = parse_items(jsonl)?;
/// assert_eq!(items[0].timestamp_ms, Some(1_721_433_600_000));
/// assert_eq!(items[0].attributes.user_id.as_deref(), Some("ana"));
/// assert_eq!(items[1].content, "The user lives in Lyon.");
/// # Ok::<(), haema_core::Error>(())
/// ```
pub fn parse_items(text: &str) -> Result<Vec<ImportItem>> {
    // A byte-order mark (as some editors on Windows write) is not part of the JSON.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let trimmed = text.trim_start();
    if trimmed.starts_with('[') || (trimmed.starts_with('{') && serde_json::from_str::<Value>(trimmed).is_ok()) {
        let value: Value = serde_json::from_str(trimmed).map_err(|e| {
            Error::InvalidArgument(format!(
                "the file starts with `[` but is not a valid JSON list ({e}): give a JSON list of memories, or JSONL with one memory per line"
            ))
        })?;
        let list = match &value {
            Value::Array(list) => Some(list),
            Value::Object(o) => o.get("results").or_else(|| o.get("memories")).and_then(Value::as_array),
            _ => None,
        };
        if let Some(list) = list {
            return list
                .iter()
                .enumerate()
                .map(|(i, v)| match item_of(v) {
                    Ok(Some(item)) => checked_size(item, &format!("item {}", i + 1)),
                    Ok(None) => Err(Error::InvalidArgument(format!(
                        "item {} has no `memory`, `content` or `text`: each item must be a JSON string or an object with one of them",
                        i + 1
                    ))),
                    Err(why) => Err(Error::InvalidArgument(format!("item {}: {why}", i + 1))),
                })
                .collect();
        }
        // One object: a file of one JSONL line, or a mem0 export without its list.
        if value.is_object() && trimmed.lines().filter(|l| !l.trim().is_empty()).count() > 1 {
            return Err(Error::InvalidArgument(
                "the file is one JSON object over several lines with no `results` or `memories` list: give a mem0 export, a JSON list, or JSONL with one memory per line".into(),
            ));
        }
    }
    let mut items = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        if line.trim().is_empty() {
            continue;
        }
        let value: Value = serde_json::from_str(line).map_err(|e| {
            Error::InvalidArgument(format!(
                "line {number} is not JSON ({e}): each line must be a JSON string or an object with `content`, `memory` or `text`"
            ))
        })?;
        match item_of(&value) {
            Ok(Some(item)) => items.push(checked_size(item, &format!("line {number}"))?),
            Ok(None) if value.is_object() => {
                return Err(Error::InvalidArgument(format!(
                    "line {number} has no `content`, `memory` or `text` (nor a `results` or `memories` list): each line must be a JSON string or an object with one of them"
                )));
            }
            Ok(None) => {
                return Err(Error::InvalidArgument(format!(
                    "line {number} is {}, not a memory: each line must be a JSON string or an object with `content`, `memory` or `text`",
                    kind_of(&value)
                )));
            }
            Err(why) => return Err(Error::InvalidArgument(format!("line {number}: {why}"))),
        }
    }
    Ok(items)
}

/// The item, unless its text is larger than one memory may be (`where`: "line 3").
fn checked_size(item: ImportItem, place: &str) -> Result<ImportItem> {
    crate::limits::check_memory_size_of(&item.content, &format!("the text of {place}"))?;
    Ok(item)
}

/// `a number`, `a list`, … for an error.
fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "true or false",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_that_holds_a_secret_is_refused_with_its_line() {
        let token = "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789";
        for field in ["agent_id", "session_id", "user_id"] {
            let text = format!("{{\"content\": \"ok\"}}\n{{\"content\": \"x\", \"{field}\": \"{token}\"}}\n");
            let error = parse_items(&text).unwrap_err().to_string();
            assert!(
                error.contains("line 2") && error.contains(&format!("`{field}` holds what looks like a secret")),
                "{field}: {error}"
            );
            assert!(!error.contains(token), "{error}");
        }
        assert_eq!(
            parse_items(r#"{"content": "x", "agent_id": "planner"}"#).unwrap().len(),
            1
        );
    }

    #[test]
    fn jsonl_and_mem0_shapes() {
        let jsonl = "\"plain string\"\n{\"content\": \"with time\", \"timestamp_ms\": 1700000000000}\n\n{\"text\": \"seconds\", \"timestamp\": 1700000000}\n";
        let items = parse_items(jsonl).unwrap();
        assert_eq!(
            items
                .iter()
                .map(|i| (i.content.as_str(), i.timestamp_ms))
                .collect::<Vec<_>>(),
            vec![
                ("plain string", None),
                ("with time", Some(1_700_000_000_000)),
                ("seconds", Some(1_700_000_000_000))
            ]
        );
        let mem0 = r#"{"results": [{"id": "a1", "memory": "Likes tea", "hash": "x", "metadata": null, "created_at": "2024-07-20T01:23:45.678-07:00", "updated_at": null, "user_id": "ana"}]}"#;
        let items = parse_items(mem0).unwrap();
        assert_eq!(items[0].content, "Likes tea");
        assert_eq!(items[0].timestamp_ms, parse_time("2024-07-20T08:23:45.678Z"));
        assert_eq!(
            parse_items(r#"[{"memory": "old mem0 list"}]"#).unwrap()[0].content,
            "old mem0 list"
        );
        assert!(parse_items("not json\n").unwrap_err().to_string().contains("line 1"));
        for (bad, says) in [
            (
                r#"{"content": "x", "timestamp_ms": -5}"#,
                "between 1970 and the year 9999",
            ),
            (r#"{"content": "x", "created_at": "last week"}"#, "not a time"),
            (r#"{"content": "x", "timestamp": 1e300}"#, "not a time"),
            (r#"{"content": "x", "timestamp_ms": 99999999999999999}"#, "between 1970"),
        ] {
            let error = parse_items(&format!("{{\"content\": \"ok\"}}\n{bad}\n"))
                .unwrap_err()
                .to_string();
            assert!(error.contains("line 2") && error.contains(says), "{bad}: {error}");
        }
        assert_eq!(
            parse_items(r#"{"content": "x", "created_at": null, "timestamp": 1700000000}"#).unwrap()[0].timestamp_ms,
            Some(1_700_000_000_000),
            "a null time is no time: the next field is read"
        );
        // A byte-order mark, a file of one line, and errors that say where and what.
        assert_eq!(
            parse_items("\u{feff}{\"content\": \"with a BOM\"}\n").unwrap()[0].content,
            "with a BOM"
        );
        assert_eq!(parse_items("\u{feff}[\"a\", \"b\"]").unwrap().len(), 2);
        assert_eq!(
            parse_items("{\"content\": \"one line\"}").unwrap()[0].content,
            "one line"
        );
        assert_eq!(parse_items("\"just a string\"").unwrap()[0].content, "just a string");
        for (bad, says) in [
            (
                r#"{"content": "x", "created_at": "soon"}"#,
                "line 1: `created_at` is \"soon\", not a time",
            ),
            ("{\"content\": \"ok\"}\n42\n", "line 2 is a number, not a memory"),
            ("{\"content\": \"ok\"}\n{\"content\": \n", "line 2 is not JSON"),
            ("[\"a\", ", "not a valid JSON list"),
            ("[1]", "item 1 has no `memory`, `content` or `text`"),
        ] {
            let error = parse_items(bad).unwrap_err().to_string();
            assert!(error.contains(says), "{bad}: {error}");
        }
        let big = format!("\"small\"\n\"{}\"\n", "x".repeat(crate::limits::MAX_MEMORY_BYTES + 1));
        let error = parse_items(&big).unwrap_err().to_string();
        assert!(
            error.contains("line 2") && error.contains("65,537 bytes") && error.contains("65,536"),
            "{error}"
        );
        assert!(
            parse_items(r#"{"other": 1}"#)
                .unwrap_err()
                .to_string()
                .contains("results")
        );
    }
}
