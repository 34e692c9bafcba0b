//! How the MCP tools answer: a memory as JSON, a result, or an error an agent can read and
//! act on.

use rmcp::ErrorData;
use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::{Value, json};

/// A memory as the tools give it: id, text, HAEMA's ISO `timestamp`, `learned_at` in words
/// and its attributes (type, importance, source, writer, user, metadata; each when set).
pub fn memory_json(m: &haema_core::MemoryRecord) -> Value {
    let mut row = json!({
        "id": m.id,
        "content": m.content,
        "timestamp": m.timestamp,
        "learned_at": haema_core::format_utc(m.timestamp_ms),
        "pinned": m.pinned,
        "has_embedding": m.has_embedding,
    });
    if let (Some(object), Ok(Value::Object(attributes))) = (row.as_object_mut(), serde_json::to_value(&m.attributes)) {
        object.extend(attributes);
    }
    row
}

/// The server's store as a call's `user_id` sees it, or the tool error that says why not.
macro_rules! scoped {
    ($server:expr, $user:expr) => {
        match $server.memory_for($user) {
            Ok(memory) => memory,
            Err(e) => return core_error(&e),
        }
    };
}

pub fn ok(value: Value) -> Result<CallToolResult, ErrorData> {
    Ok(CallToolResult::structured(value))
}

/// A tool error the model can read and act on (not a protocol error, which clients hide).
pub fn tool_error(message: impl std::fmt::Display) -> Result<CallToolResult, ErrorData> {
    Ok(CallToolResult::error(vec![ContentBlock::text(message.to_string())]))
}

/// A core error as a tool error, with what an agent can do about it.
pub fn core_error(error: &haema_core::Error) -> Result<CallToolResult, ErrorData> {
    tool_error(crate::remedy::with_agent_remedy(error))
}

/// An argument outside its closed set, with the values to send instead.
pub fn bad_value(error: &haema_core::UnknownValue) -> Result<CallToolResult, ErrorData> {
    tool_error(crate::remedy::agent_value(error))
}
