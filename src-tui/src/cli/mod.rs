//! Command-line arguments.

use std::path::PathBuf;

mod agent_key;
mod config;
mod edit;
mod hooks;
mod measure;
mod memory_args;
mod postgres;
mod state;

pub use agent_key::AgentKeyCommand;
pub use config::{ConfigAction, ConfigArgs};
pub use edit::{MemoryTarget, UpdateArgs};
pub use hooks::{HookAgent, HookCommand, HookRunArgs, HookScope, HooksCommand, HooksInstallArgs, HooksStatusArgs};
pub use measure::{BenchArgs, BenchEmbedder, EvalCommand, LocomoArgs};
pub use memory_args::{AttributeArgs, FilterArgs};
pub use postgres::{MigrateArgs, PgCommand};
pub use state::{AgentArg, StateCommand};

use clap::{Args, Parser, Subcommand};
use haema_core::{ChangesetId, CoreVersionId, SearchMode, Section};

/// haema: a local-first memory for AI agents.
///
/// Without a command it opens the terminal UI on the store (or shows its status when not
/// run in a terminal). Settings come from <store>/haema.toml
/// and HAEMA_* environment variables (see docs/configuration.md).
#[derive(Debug, Parser)]
#[command(name = "haema", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    /// The store: a folder, a name beside the default store, or a postgres:// URL (default:
    /// $HAEMA_STORE, else `store` in config.toml, else $XDG_DATA_HOME/haema/default).
    #[arg(long, global = true, env = "HAEMA_STORE", value_name = "STORE")]
    pub store: Option<PathBuf>,

    /// The user to work for. In a store with `scope = "per_user"` every command needs it and
    /// sees only that user's memories and changes; in other stores it is the user an add's
    /// memories are about and the user search, latest and recall keep to.
    #[arg(long, global = true, env = "HAEMA_USER", value_name = "ID")]
    pub user: Option<String>,

    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Add what the agent learned: one text (split into facts by the LLM), --items, or - for stdin.
    Add(AddArgs),
    /// Search long-term memory.
    Search(SearchArgs),
    /// Show the newest memories.
    Latest(LatestArgs),
    /// Read and edit the core profile (core.md).
    #[command(subcommand)]
    Core(CoreCommand),
    /// Review changesets the LLM proposed.
    #[command(subcommand)]
    Review(ReviewCommand),
    /// Every changeset, newest first, one line each; or one changeset in full.
    History(HistoryArgs),
    /// Undo a committed changeset (as a new changeset).
    Revert(RevertArgs),
    /// Forget for good: memories by id (with the older memories they were built from), the
    /// matches of a search, or every memory mentioning a phrase; their text is blanked
    /// wherever the store recorded it. Asks first unless --yes.
    Forget(ForgetArgs),
    /// Remove everything of one user for good: their memories in every status and the
    /// changes made for them, with no copy left in the store's files. Asks first unless --yes.
    PurgeUser(PurgeUserArgs),
    /// Delete one memory: a change that `haema revert` undoes (`forget` removes text for good).
    Delete(MemoryTarget),
    /// Replace one memory's text: a new memory (a new id, the same attributes) replaces it,
    /// as a change that `haema revert` undoes.
    #[command(visible_alias = "edit")]
    Update(UpdateArgs),
    /// Pin a memory: no change replaces or rewrites it without your review, whatever the
    /// review policy.
    Pin(MemoryTarget),
    /// Unpin a memory.
    Unpin(MemoryTarget),
    /// The block an agent puts in its prompt: core, latest and relevant memories.
    Recall(RecallArgs),
    /// Counts, embedder, LLM and review policy of the store.
    Status(JsonFlag),
    /// Write the whole store: lossless JSONL (default) or Markdown for people.
    Export(ExportArgs),
    /// Import memories: a `haema export` file (into an empty store), JSONL (one memory per
    /// line), mem0's JSON export, or a HAEMA (Python) store folder. Importing the same
    /// source again adds nothing.
    Import(ImportArgs),
    /// The effective settings and where each comes from (secrets masked); `config set` and
    /// `config unset` change one in the store's haema.toml.
    Config(ConfigArgs),
    /// Set haema up in a few questions: connect an AI (one on this computer, OpenAI, Google
    /// Gemini or another service), test it with one real call, keep its key in the system
    /// keyring, and choose when haema asks you before changing memories.
    Setup,
    /// Check the store, the embedder and the LLM with one real call each.
    Doctor(JsonFlag),
    /// Switch the store to another embedder (or to vectors from lexical-only); resumable.
    Reembed(ReembedArgs),
    /// Make the search vectors of memories stored without them now (written while the
    /// embedder was down, or by adds with `embedder.on_add = "later"`), with progress.
    EmbedPending(JsonFlag),
    /// Open a demo store made from a bundled sample (offline) in the terminal UI.
    Demo(DemoArgs),
    /// Serve the store to agents as an MCP server on standard input and output, or with
    /// --http over Streamable HTTP, each agent with its key (haema agent-key).
    Mcp(McpArgs),
    /// An agent's state: a small key/value store (the current task, a cursor), not memories,
    /// never searched, every change kept.
    #[command(subcommand)]
    State(StateCommand),
    /// The keys agents present to `haema mcp --http`: create one per agent with what it may
    /// do (read, propose, write), list them with when each was last used, revoke, rotate.
    #[command(subcommand)]
    AgentKey(AgentKeyCommand),
    /// The local embedding models in the Hugging Face cache: download one, list them.
    #[command(subcommand)]
    Model(ModelCommand),
    /// Measure the search on a benchmark (each conversation in its own temporary store).
    #[command(subcommand)]
    Eval(EvalCommand),
    /// Copy a store whole to another place: a folder into a PostgreSQL database, back, or
    /// into a new folder. The copy is checked before it commits; an interrupted one leaves
    /// the target empty.
    Migrate(MigrateArgs),
    /// PostgreSQL: prepare a database for haema's stores (once, as an admin).
    #[command(subcommand)]
    Pg(PgCommand),
    /// What an agent's hook runs: `haema hook claude-code` answers one Claude Code event
    /// (recall on a prompt, capture after an answer). See docs/claude-code.md.
    #[command(subcommand)]
    Hook(HookCommand),
    /// Put haema's hooks into an agent's settings, take them out, or see where they are.
    #[command(subcommand)]
    Hooks(HooksCommand),
    /// Measure haema's own speed on stores of n memories, built in-process with instant
    /// providers: add, search, latest, recall, open, disk and memory, vector recall.
    Bench(BenchArgs),
}

#[derive(Debug, Subcommand)]
pub enum ModelCommand {
    /// Download a model into the Hugging Face cache ahead of time (resumes a cut download).
    Fetch {
        /// A Hugging Face name (default: the store's local model, else
        /// sentence-transformers/all-MiniLM-L6-v2).
        name: Option<String>,
        /// Print the result as JSON.
        #[arg(long)]
        json: bool,
    },
    /// The models in the Hugging Face cache: size on disk and which stores use them.
    List(JsonFlag),
}

#[derive(Debug, Args)]
pub struct DemoArgs {
    /// Start the demo store again from the sample (only a folder `haema demo` made).
    #[arg(long)]
    pub reset: bool,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// jsonl (lossless, for `haema import`) or markdown (for people).
    #[arg(long, default_value = "jsonl", value_parser = ["jsonl", "markdown"])]
    pub format: String,
    /// Write to this file instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The file, - for standard input, or a HAEMA store folder.
    pub file: PathBuf,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct ReembedArgs {
    /// none, openai or local (default: the configured embedder).
    #[arg(long, value_parser = parse_provider)]
    pub embedder: Option<haema_core::config::ProviderKind>,
    /// Model: a name, or for local a folder or Hugging Face name (default: the configured one).
    #[arg(long)]
    pub model: Option<String>,
    /// Vector length, for models that can shorten their vectors.
    #[arg(long)]
    pub dims: Option<usize>,
    /// Base URL of an OpenAI-compatible server.
    #[arg(long)]
    pub base_url: Option<String>,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

fn parse_provider(s: &str) -> Result<haema_core::config::ProviderKind, String> {
    haema_core::config::ProviderKind::from_setting(s).map_err(|e| e.to_string())
}

#[derive(Debug, Args)]
pub struct JsonFlag {
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct AddArgs {
    /// The text; `-` reads it from standard input.
    #[arg(value_name = "TEXT", required_unless_present = "items", conflicts_with = "items")]
    pub text: Option<String>,
    /// Take each argument as one memory item (no LLM split).
    #[arg(long, num_args = 1.., value_name = "ITEM")]
    pub items: Option<Vec<String>>,
    /// Print `{"changeset": ID, "status": ...}`.
    #[arg(long)]
    pub json: bool,
    /// What the new memories are, who wrote them and for whom.
    #[command(flatten)]
    pub attributes: AttributeArgs,
}

#[derive(Debug, Args)]
pub struct SearchArgs {
    /// What to look for.
    pub query: String,
    /// Number of results.
    #[arg(short = 'n', long = "limit", default_value_t = 5, allow_negative_numbers = true)]
    pub n: i64,
    /// hybrid, vector or lexical.
    #[arg(long, default_value = "hybrid", value_parser = parse_mode)]
    pub mode: SearchMode,
    /// Only hits scoring at least this (0 to 1; see "Scores" in docs/search.md).
    #[arg(long, value_name = "0..1")]
    pub min_score: Option<f64>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Only memories that pass these conditions.
    #[command(flatten)]
    pub filter: FilterArgs,
}

fn parse_mode(s: &str) -> Result<SearchMode, String> {
    s.parse().map_err(|e: haema_core::UnknownValue| e.to_string())
}

fn parse_section(s: &str) -> Result<Section, String> {
    s.parse().map_err(|e: haema_core::UnknownValue| e.to_string())
}

#[derive(Debug, Args)]
pub struct LatestArgs {
    /// 1-based position to start at (1 = newest).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = parse_begin)]
    pub begin: i64,
    /// How many.
    #[arg(long, default_value_t = 10, allow_negative_numbers = true)]
    pub count: i64,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Only memories that pass these conditions.
    #[command(flatten)]
    pub filter: FilterArgs,
}

fn parse_begin(s: &str) -> Result<i64, String> {
    let n: i64 = s.parse().map_err(|_| format!("`{s}` is not a whole number"))?;
    if n < 1 {
        return Err("begin must be >= 1 (1 is the newest memory)".into());
    }
    Ok(n)
}

#[derive(Debug, Subcommand)]
pub enum CoreCommand {
    /// Print core.md.
    Show,
    /// The four sections (with --json: {"SOUL": "...", ...}).
    Sections(JsonFlag),
    /// Replace one section's text from a file or - (stdin).
    Set {
        /// SOUL, TOOLS, RULE or USER.
        #[arg(value_parser = parse_section)]
        section: Section,
        /// File with the new text, or - for standard input.
        #[arg(long, value_name = "FILE")]
        file: PathBuf,
    },
    /// Keep the LLM from changing a section.
    Lock {
        /// SOUL, TOOLS, RULE or USER.
        #[arg(value_parser = parse_section)]
        section: Section,
    },
    /// Let the LLM change a section again.
    Unlock {
        /// SOUL, TOOLS, RULE or USER.
        #[arg(value_parser = parse_section)]
        section: Section,
    },
    /// Every version of core.md.
    History(JsonFlag),
    /// Write core.md to a file (- for standard output): in a PostgreSQL store core.md lives
    /// in the database.
    Export {
        /// The file to write; an existing file is not replaced.
        #[arg(value_name = "FILE")]
        file: PathBuf,
    },
    /// Make an old version current again.
    Restore {
        /// Version id from `core history`.
        #[arg(value_name = "VERSION")]
        version_id: CoreVersionId,
    },
}

#[derive(Debug, Subcommand)]
pub enum ReviewCommand {
    /// Changesets waiting for review.
    List(JsonFlag),
    /// One changeset: related memories, proposed memories, core change.
    Show {
        /// Changeset id.
        id: ChangesetId,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Apply a pending changeset (optionally with edited memories).
    Approve {
        /// Changeset id.
        id: ChangesetId,
        /// Replace the proposed memories with the lines of this file (- for stdin) first.
        #[arg(long, value_name = "FILE")]
        edited: Option<PathBuf>,
        /// Approve without asking a change that adds nothing and sets memories aside, or a
        /// request to forget.
        #[arg(long)]
        yes: bool,
    },
    /// Decline a pending or stale changeset.
    Reject {
        /// Changeset id.
        id: ChangesetId,
    },
    /// Build a stale changeset again against the memories as they are now.
    Rerun {
        /// Changeset id.
        id: ChangesetId,
    },
}

#[derive(Debug, Args)]
pub struct ForgetArgs {
    /// Memory ids to forget.
    pub ids: Vec<haema_core::MemoryId>,
    /// Forget the memories this search finds (shown first; asks before forgetting).
    #[arg(long, value_name = "QUERY")]
    pub search: Option<String>,
    /// How many search results to forget at most.
    #[arg(short = 'n', long = "limit", default_value_t = 5, requires = "search")]
    pub n: usize,
    /// Forget every memory mentioning this phrase (letter case ignored) and blank the phrase
    /// wherever it is written: earlier changes, core.md and its versions.
    #[arg(long, value_name = "PHRASE")]
    pub mentioning: Option<String>,
    /// Do not ask (for scripts).
    #[arg(long)]
    pub yes: bool,
    /// Print the receipt as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct PurgeUserArgs {
    /// The user whose memories and changes go.
    #[arg(value_name = "USER_ID")]
    pub user_id: String,
    /// Do not ask (for scripts).
    #[arg(long)]
    pub yes: bool,
    /// Print what was removed as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct HistoryArgs {
    /// Show this changeset in full (as `review show ID` does) instead of the list.
    #[arg(value_name = "ID", conflicts_with_all = ["limit", "before"])]
    pub id: Option<ChangesetId>,
    /// At most this many changesets (default: all of them).
    #[arg(short = 'n', long, value_name = "N", value_parser = parse_limit)]
    pub limit: Option<usize>,
    /// Only changesets older than this one: the next page after a `--limit` list.
    #[arg(long, value_name = "ID")]
    pub before: Option<ChangesetId>,
    /// Only the changes an agent made through this key (`haema agent-key list` names them).
    #[arg(long, value_name = "NAME", conflicts_with = "id")]
    pub agent_key: Option<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

fn parse_limit(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("`{s}` is not a count of at least 1")),
    }
}

#[derive(Debug, Args)]
pub struct RevertArgs {
    /// Changeset id.
    pub id: ChangesetId,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct RecallArgs {
    /// What the agent is about to work on.
    pub query: String,
    /// Token budget of the block.
    #[arg(long, default_value_t = haema_core::DEFAULT_RECALL_BUDGET)]
    pub budget: usize,
    /// At most this many relevant memories.
    #[arg(long, default_value_t = haema_core::DEFAULT_RECALL_MEMORIES, value_name = "N")]
    pub max_memories: usize,
    /// At most this many of the newest memories.
    #[arg(long, default_value_t = haema_core::DEFAULT_RECALL_LATEST, value_name = "N")]
    pub latest: usize,
    /// Relevant memories scoring below this (0 to 1) are left out.
    #[arg(long, value_name = "0..1")]
    pub min_score: Option<f64>,
    /// How long to wait for the search, in ms, before answering with core and the newest
    /// memories alone (default: recall.timeout_ms, 500; 0: no limit).
    #[arg(long, value_name = "MS")]
    pub timeout_ms: Option<u64>,
    /// Print JSON with the reason for each item.
    #[arg(long)]
    pub json: bool,
    /// Only memories that pass these conditions in the latest and relevant parts.
    #[command(flatten)]
    pub filter: FilterArgs,
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn the_command_definition_is_consistent() {
        super::Cli::command().debug_assert();
    }
}

/// How `haema mcp` serves.
#[derive(Debug, Args)]
pub struct McpArgs {
    /// Serve over Streamable HTTP at http://ADDR/mcp instead of standard input and output
    /// (default 127.0.0.1:8731); every request needs an agent key.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = haema_core::MCP_HTTP_ADDR)]
    pub http: Option<std::net::SocketAddr>,
    /// Allow an address other machines reach, without TLS: the network in between is yours.
    #[arg(long, requires = "http")]
    pub trusted_network: bool,
    /// Serve HTTPS with this certificate (PEM: the server's certificate, then its chain);
    /// an address other machines reach is then allowed.
    #[arg(long, value_name = "FILE", requires_all = ["http", "tls_key"])]
    pub tls_cert: Option<std::path::PathBuf>,
    /// The certificate's private key (PEM).
    #[arg(long, value_name = "FILE", requires_all = ["http", "tls_cert"])]
    pub tls_key: Option<std::path::PathBuf>,
    /// Sessions held at once, all agents together; a new one past it is told to come back.
    #[arg(long, value_name = "N", requires = "http", default_value_t = crate::mcp::DEFAULT_MAX_SESSIONS,
          value_parser = parse_limit)]
    pub max_sessions: usize,
    /// Sessions one agent key holds at once, so that one agent cannot take every slot.
    #[arg(long, value_name = "N", requires = "http", default_value_t = crate::mcp::DEFAULT_MAX_SESSIONS_PER_KEY,
          value_parser = parse_limit)]
    pub max_sessions_per_key: usize,
    /// Requests a minute each agent key may make (a minute's worth may come at once); past
    /// it the answer is 429 with when to come back.
    #[arg(long, value_name = "N", requires = "http", default_value_t = crate::mcp::DEFAULT_REQUESTS_PER_MINUTE,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub requests_per_minute: u32,
    /// A browser origin allowed to call (e.g. https://app.example.com); repeat for more.
    /// Without one, a request from any web page is refused.
    #[arg(long = "allow-origin", value_name = "URL", requires = "http")]
    pub allow_origins: Vec<String>,
}
