//! Tool parameters, with the descriptions a model reads in their JSON schemas.

use rmcp::schemars;
use serde::Deserialize;

/// `add_memory`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddParams {
    /// One text to remember; it is split into self-contained facts.
    pub content: Option<String>,
    /// Facts already split, one per item.
    pub items: Option<Vec<String>>,
    /// fact, episode, preference, context, or a word of your own.
    pub memory_type: Option<String>,
    /// How much it matters, from 0 to 1.
    pub importance: Option<f64>,
    /// Where it came from (a document, a tool, a conversation).
    pub source: Option<String>,
    /// The agent writing it.
    pub agent_id: Option<String>,
    /// The session it is written in.
    pub session_id: Option<String>,
    /// The user it is about.
    pub user_id: Option<String>,
    /// Free JSON metadata (an object).
    pub metadata: Option<serde_json::Map<String, serde_json::Value>>,
}

impl AddParams {
    /// The attributes the memories get.
    pub fn attributes(&mut self) -> haema_core::MemoryAttributes {
        haema_core::MemoryAttributes {
            memory_type: self.memory_type.take(),
            importance: self.importance,
            source: self.source.take(),
            agent_id: self.agent_id.take(),
            session_id: self.session_id.take(),
            user_id: self.user_id.take(),
            metadata: self.metadata.take().unwrap_or_default().into_iter().collect(),
        }
    }
}

/// `search_memory`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchParams {
    /// What to look for, in plain words.
    pub query: String,
    /// How many memories (default 5, at most 50).
    pub limit: Option<i64>,
    /// hybrid (default), vector or lexical.
    pub mode: Option<String>,
}

/// `latest_memories`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LatestParams {
    /// How many (default 10, at most 100).
    pub count: Option<i64>,
    /// Position to start at, 1 = newest (default 1).
    pub begin: Option<i64>,
}

/// `read_core_section`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SectionParams {
    /// SOUL, TOOLS, RULE or USER.
    pub section: String,
}

/// `recall`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RecallParams {
    /// The user's request, or what the agent is about to do.
    pub query: String,
    /// Token budget of the block (default 800).
    pub budget_tokens: Option<usize>,
}

/// `changeset_status`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChangesetParams {
    /// The changeset number add_memory returned.
    pub changeset: i64,
}

/// `forget_memory`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ForgetParams {
    /// Ids of the memories to forget (as search_memory and latest_memories give them).
    pub memory_ids: Option<Vec<String>>,
    /// Forget every memory mentioning this phrase, and blank it wherever it is written.
    pub mentioning: Option<String>,
}
