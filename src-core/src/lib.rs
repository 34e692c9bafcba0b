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

#[cfg(feature = "bench")]
#[doc(hidden)]
pub mod bench;
pub mod config;
pub mod core_md;
pub mod diff;
mod doctor;
mod error;
pub mod eval;
mod import_haema;
mod import_items;
mod memory;
pub mod model;
mod pipeline;
pub mod provider;
mod recall;
mod reembed;
pub mod review_view;
mod sanitize;
mod search;
pub mod section_history;
mod store;
mod transfer;

pub use config::{KeyList, ReviewPolicy, Settings, TuiSettings};
pub use core_md::CoreSections;
pub use doctor::{Check, doctor};
pub use error::{Error, Result};
pub use import_haema::{CoreImport, HaemaReport, HaemaStore, is_haema_store, read_haema_store};
pub use import_items::{ImportItem, ItemsReport, parse_items, parse_time};
pub use memory::{
    LexicalReason, Lineage, Memory, OpenOptions, OpenProgress, StoreInfo, VectorRecall, store_folders_beside,
};
pub use model::*;
pub use pipeline::AddInput;
pub use recall::{Recall, RecallItem, RecallReason, estimate_tokens};
pub use reembed::{ReembedProgress, ReembedReport, reembed};
pub use review_view::{ChangesetView, ItemView};
pub use section_history::{SectionChange, section_history};
pub use transfer::{EXPORT_FORMAT, ImportReport, Record, is_export};
