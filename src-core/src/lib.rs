//! haema-core: a local-first agent memory.
//!
//! One SQLite file (sqlite-vec + FTS5) and a `core.md` per store; [`Memory::add`] rebuilds
//! related memories with an LLM into a reviewable [`Changeset`]; nothing is ever lost
//! silently. Front ends (CLI, TUI, desktop, MCP) call only this crate.
//!
//! ```no_run
//! # async fn demo() -> haema_core::Result<()> {
//! use haema_core::{Memory, Settings};
//! let memory = Memory::open("/tmp/my-agent", Settings::default()).await?;
//! memory.add(vec!["The user prefers green tea.".to_string()]).await?;
//! let hits = memory.search("what does the user drink?", 3).await?;
//! # let _ = hits; Ok(()) }
//! ```
//!
//! The crate is laid out by concern (see `docs/architecture.md`):
//!
//! | module | what lives there |
//! |---|---|
//! | `types` | the values every layer shares: records, changesets, statuses, ids |
//! | `store` | the store boundary (`Reader`, `Writer`, `Backend`) and the SQLite backend, which holds every SQL statement |
//! | `memory` | [`Memory`], the API front ends call |
//! | `pipeline` | the write path: split, related memories, reconstruction, core update |
//! | [`provider`] | embedders and LLMs (OpenAI, Gemini, Ollama, the local model, the Hub) |
//! | `search` | hybrid, vector and full-text search, and the recall block |
//! | [`recall_socket`] | a hook's recall answered by the process that holds the store open |
//! | [`safety`] | hostile text: found at write time, fenced in prompts, neutralised in recall |
//! | [`secrets`] | credentials: found and replaced by markers before any text is written |
//! | [`review`] | diffs, the review view of a changeset, a core section's history |
//! | `transfer` | export, import, HAEMA store folders |
//! | `maintenance` | `doctor` and `reembed` |
//! | [`config`] | settings and where they come from |
//! | [`keys`] | API keys in the OS keyring |
//! | [`limits`] | the size limits of what a store takes |
//! | `eval` | the LoCoMo search eval and the LLM cost eval (feature `eval`) |

#![warn(missing_docs)]

#[macro_use]
mod macros;

pub mod config;
mod error;
#[cfg(feature = "eval")]
pub mod eval;
/// Test doubles for code that uses this crate: a deterministic embedder and a scripted LLM
/// that answers the pipeline's prompts (feature `test-util`).
#[cfg(any(test, feature = "test-util"))]
pub mod fake;
pub mod keys;
#[cfg(test)]
mod layers;
pub mod limits;
mod maintenance;
mod marked;
mod memory;
mod pipeline;
mod printable;
pub mod provider;
pub mod recall_socket;
pub mod review;
pub mod safety;
mod search;
pub mod secrets;
mod store;
mod text;
mod transfer;
mod types;

#[cfg(feature = "bench")]
#[doc(hidden)]
pub use eval::bench;
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod fuzzing;

pub use config::{KeyList, ReviewPolicy, Settings, StoreScope, TuiSettings, configured_store_dir, store_in_user_file};
pub use error::{Error, ErrorKind, Missing, Result, ReviewAction};
pub use maintenance::{Check, CheckProblem, ReembedProgress, ReembedReport, doctor, reembed};
pub use marked::{FLAGGED_NOTE, MarkedText, mark, mark_core, mark_record, record_flags, value_flags};
pub use memory::{
    ANCESTRY_LIMIT, ActivityEvent, ActivityWho, Ancestry, AncestryNode, CAPTURE_AGENT, CLIENT_EMBEDDER_PREFIX,
    CaptureCursor, CaptureOutcome, EmbeddingBacklog, LexicalReason, Lineage, MadeBy, Memory, OpenOptions, OpenProgress,
    StoreInfo, StoreStatus, StoreWatch, VectorRecall, WeekSummary,
};
pub use pipeline::AddInput;
pub use printable::{REPLACEMENT, is_unprintable, printable, printable_line};
pub use review::{ChangeCount, ChangesetView, ItemView, SectionChange, section_history};
pub use search::recall::{
    DEFAULT_RECALL_BUDGET, DEFAULT_RECALL_LATEST, DEFAULT_RECALL_MEMORIES, RECALL_HEADER, Recall, RecallItem,
    RecallOptions, RecallReason, estimate_tokens, without_recall_blocks,
};
pub use store::files::{create_private, is_inside};
pub use store::places::{
    default_store_dir, is_postgres_url, is_store_dir, store_dir_for, store_dir_given, store_folders_beside, store_name,
};
#[cfg(feature = "postgres")]
pub use store::postgres::address::link_postgres_store;
#[cfg(feature = "postgres")]
pub use store::postgres::admin::{
    PgInitReport, drop_postgres_store, forget_postgres_password, init_postgres, postgres_store_bytes,
    save_postgres_password,
};
pub use transfer::{
    CoreImport, EXPORT_FORMAT, HaemaReport, HaemaStore, ImportItem, ImportReport, ImportSummary, Imported, ItemsReport,
    MigrateReport, Record, claude_memory_folders, import_folder, is_claude_memory, is_export, is_haema_store,
    migrate_store, parse_items, read_claude_memory, read_haema_store,
};
pub use types::core_md;
pub use types::core_md::{CoreSections, TEMPLATE as CORE_TEMPLATE};
pub use types::{
    AGENT_KEY_PREFIX, AccessStats, AddOutcome, AddStatus, AgentAccess, AgentActivity, AgentKey, AgentState,
    AgentStateChange, AgentStateKey, AgentUndo, Changeset, ChangesetFilter, ChangesetId, ChangesetKind,
    ChangesetStatus, ChangesetSummary, CoreAuthor, CoreVersion, CoreVersionId, DEFAULT_AGENT, DecidedBy, ForgetPlan,
    ForgetReceipt, ForgetRecord, ForgetRequest, FoundBy, HostileFinding, HostileReason, Invalid, KeptChange, KeyCheck,
    LatestOptions, LatestStart, LlmCall, LlmStage, MAX_METADATA_BYTES, MCP_HTTP_ADDR, MEMORY_TYPES, MemoryAttributes,
    MemoryFilter, MemoryId, MemoryRecord, MemoryStatus, NewAgentKey, Outcome, PendingForget, ProposedItem,
    PurgeReceipt, RelatedItem, STALE_EDIT_MEANING, STALE_MEANING, SUMMARY_INPUT_CHARS, SearchHit, SearchMode,
    SearchOptions, SearchResults, Section, UndoStep, UnknownValue, format_utc, iso_utc, parse_time, parse_when,
};
