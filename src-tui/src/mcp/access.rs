//! What an agent key lets a call over HTTP do: the tools its access allows. The HTTP layer
//! checks the key and puts it on the request; a call over standard input and output has no
//! key (it is the person's own process) and may do everything.

use haema_core::{AgentAccess, AgentKey};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::json;

/// The tools that only read: what a read key may call.
const READ_TOOLS: &[&str] = &[
    "search_memory",
    "latest_memories",
    "recall",
    "read_core",
    "read_core_section",
    "changeset_status",
    "get_agent_state",
];

/// The access a tool needs: read for the tools that only read, propose for any other (a
/// write, which waits for review under propose; an unknown name fails closed too).
pub fn needed(tool: &str) -> AgentAccess {
    if READ_TOOLS.contains(&tool) {
        AgentAccess::Read
    } else {
        AgentAccess::Propose
    }
}

/// The agent key the HTTP layer found on this call's request, if it came over HTTP.
pub fn agent_of(context: &RequestContext<RoleServer>) -> Option<AgentKey> {
    context
        .extensions
        .get::<http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<AgentKey>())
        .cloned()
}

/// Whether `agent` may call `tool`; the error says which access it lacks.
pub fn allowed(agent: &AgentKey, tool: &str) -> Result<(), ErrorData> {
    let needed = needed(tool);
    if agent.access.allows(needed) {
        return Ok(());
    }
    Err(ErrorData::invalid_request(
        format!(
            "agent key {} has {} access, and {tool} needs {needed} access: ask the store's owner for a key that may (haema agent-key create NAME --access {needed})",
            agent.name, agent.access
        ),
        Some(json!({"access": agent.access, "needed_access": needed})),
    ))
}
