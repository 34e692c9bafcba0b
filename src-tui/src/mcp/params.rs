//! Tool parameters, with the descriptions a model reads in their JSON schemas.

use rmcp::schemars;
use serde::Deserialize;

/// `add_memory`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct AddParams {
    /// One text to remember; it is split into self-contained facts.
    pub content: Option<String>,
    /// Facts already split, one per item.
    pub items: Option<Vec<String>>,
}

/// `search_memory`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
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
pub struct LatestParams {
    /// How many (default 10, at most 100).
    pub count: Option<i64>,
    /// Position to start at, 1 = newest (default 1).
    pub begin: Option<i64>,
}

/// `read_core_section`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct SectionParams {
    /// SOUL, TOOLS, RULE or USER.
    pub section: String,
}

/// `recall`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct RecallParams {
    /// The user's request, or what the agent is about to do.
    pub query: String,
    /// Token budget of the block (default 800).
    pub budget_tokens: Option<usize>,
}

/// `changeset_status`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
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
