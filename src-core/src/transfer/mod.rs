//! Data in and out of a store: haema's lossless JSONL export and its import, lists of items
//! (JSON, JSONL, mem0 exports), and reading a HAEMA (Python) store folder or Claude Code's
//! memory folder.

mod claude_memory;
mod dispatch;
pub(crate) mod haema_store;
mod items;
pub(crate) mod jsonl;
mod migrate;
pub(crate) mod screen;

pub use claude_memory::{claude_memory_folders, import_folder, is_claude_memory, read_claude_memory};
pub use dispatch::{ImportSummary, Imported};
pub use haema_store::{CoreImport, HaemaReport, HaemaStore, is_haema_store, read_haema_store};
pub use items::{ImportItem, ItemsReport, parse_items};
pub use jsonl::{EXPORT_FORMAT, ImportReport, Record, is_export};
pub use migrate::{MigrateReport, migrate_store};
