//! What a memory carries and which memories a read returns: the attribute flags of `add`
//! and the filter flags of `search`, `latest` and `recall`.

use clap::Args;

/// The attributes an add gives its memories (`haema add --type preference --importance 0.8`).
#[derive(Debug, Args, Default)]
pub struct AttributeArgs {
    /// The kind of memory: fact, episode, preference, context, or a word of your own.
    #[arg(long = "type", visible_alias = "memory-type", value_name = "TYPE")]
    pub memory_type: Option<String>,
    /// How much it matters, from 0 to 1.
    #[arg(long, value_name = "0..1")]
    pub importance: Option<f64>,
    /// Where it came from (a document, a tool, a conversation).
    #[arg(long, value_name = "SOURCE")]
    pub source: Option<String>,
    /// The agent writing it.
    #[arg(long = "agent", value_name = "AGENT_ID")]
    pub agent_id: Option<String>,
    /// The session it is written in.
    #[arg(long = "session", value_name = "SESSION_ID")]
    pub session_id: Option<String>,
    /// The user it is about: the global `--user` (or HAEMA_USER).
    #[arg(skip)]
    pub user_id: Option<String>,
    /// One metadata entry; VALUE is read as JSON when it is JSON (`3`, `true`, `["a"]`),
    /// else as text. Repeat for more.
    #[arg(long = "meta", value_name = "KEY=VALUE")]
    pub meta: Vec<String>,
    /// All metadata as one JSON object (`--meta` entries are added to it).
    #[arg(long, value_name = "JSON")]
    pub metadata: Option<String>,
}

/// Which memories a search, `latest` or `recall` may return (all conditions must hold).
#[derive(Debug, Args, Default)]
pub struct FilterArgs {
    /// Only memories of this type.
    #[arg(long = "type", visible_alias = "memory-type", value_name = "TYPE")]
    pub memory_type: Option<String>,
    /// Only memories at least this important (0 to 1).
    #[arg(long, value_name = "0..1")]
    pub min_importance: Option<f64>,
    /// Only memories from this source.
    #[arg(long, value_name = "SOURCE")]
    pub source: Option<String>,
    /// Only memories written by this agent.
    #[arg(long = "agent", value_name = "AGENT_ID")]
    pub agent_id: Option<String>,
    /// Only memories written in this session.
    #[arg(long = "session", value_name = "SESSION_ID")]
    pub session_id: Option<String>,
    /// Only memories about this user: the global `--user` (or HAEMA_USER).
    #[arg(skip)]
    pub user_id: Option<String>,
    /// Only memories whose metadata has KEY = VALUE (VALUE read as JSON when it is JSON:
    /// `3`, `true`, `null`; else as text). Repeat for more.
    #[arg(long = "meta", value_name = "KEY=VALUE")]
    pub meta: Vec<String>,
    /// Only memories learned at or after this time: a date (2026-01-01), a date and time
    /// (2026-01-01T09:30:00Z) or a time ago (30m, 12h, 7d, 2w).
    #[arg(long, value_name = "WHEN")]
    pub since: Option<String>,
    /// Only memories learned before this time (same forms as --since).
    #[arg(long, value_name = "WHEN")]
    pub until: Option<String>,
}
