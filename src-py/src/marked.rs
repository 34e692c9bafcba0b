//! What the wheel says about a memory's text besides the text: `flags`, why it (or its
//! source, ids or metadata) reads like a prompt injection (`haema_core::record_flags`, the
//! names the MCP server's `flags` give), and `marked`, the stored text as HAEMA's `search()` and `get_latest()` hand it to
//! a program's prompt: with the `[flagged: …] ` prefix of [`MarkedText::line`] when flagged,
//! otherwise exactly as stored. `content` stays the stored text: a program needs the real one.
//! Every text passes the secret screen on the way out, as every MCP read does: a secret
//! stored before the screen existed, or typed into core.md while the store is open, comes
//! out as its marker (`[secret: aws access key]`).

use haema_core::{MarkedText, MemoryRecord, SearchResults};
use serde_json::{Value, json};

/// One memory as the Python side reads it: the record's fields, `flags` and `marked`.
pub fn record(record: &MemoryRecord) -> serde_json::Result<Value> {
    let mut row = serde_json::to_value(record)?;
    mark(&mut row, record);
    Ok(row)
}

/// Memories as [`record`] gives each.
pub fn records(records: &[MemoryRecord]) -> serde_json::Result<Value> {
    records
        .iter()
        .map(record)
        .collect::<serde_json::Result<Vec<_>>>()
        .map(Value::Array)
}

/// A search's answer, each hit (a record with its scores) marked as [`record`] marks it.
pub fn search(results: &SearchResults) -> serde_json::Result<Value> {
    let mut answer = serde_json::to_value(results)?;
    if let Some(hits) = answer.get_mut("hits").and_then(Value::as_array_mut) {
        for (row, hit) in hits.iter_mut().zip(&results.hits) {
            mark(row, &hit.memory);
        }
    }
    Ok(answer)
}

/// Adds `flags` and `marked` for `memory` to the JSON object `row`.
fn mark(row: &mut Value, memory: &MemoryRecord) {
    let flags = haema_core::record_flags(memory);
    let (content, secrets) = haema_core::secrets::redact(&memory.content);
    if !secrets.is_empty()
        && let Some(object) = row.as_object_mut()
    {
        object.insert("content".into(), json!(content));
    }
    // Only the marker is wanted: the text stays as stored (not quoted, not cut).
    let marked = MarkedText {
        content,
        sanitized: false,
        truncated: false,
        flags,
    };
    if let Some(object) = row.as_object_mut() {
        object.insert("marked".into(), json!(marked.line()));
        object.insert("flags".into(), json!(marked.flags));
    }
}

/// core.md as HAEMA's `get_core()` hands it to a program's prompt: as stored, with the
/// recall block's note and the `[flagged: …]` marker on lines above it when text in it
/// reads like a prompt injection ([`MarkedText::block`]).
pub fn core(text: &str) -> String {
    let (text, _) = haema_core::secrets::redact(text);
    let flags = haema_core::safety::reasons(&text);
    MarkedText {
        content: text,
        sanitized: false,
        truncated: false,
        flags,
    }
    .block()
}

/// The sections of core.md `text`, each passed through the secret screen as [`core`] is.
pub fn sections(text: &str) -> haema_core::Result<haema_core::CoreSections> {
    Ok(haema_core::CoreSections::parse(&haema_core::secrets::redact(text).0)?)
}
