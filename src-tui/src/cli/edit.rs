//! Arguments of the direct edits of one memory: delete, update, pin, unpin.

use clap::Args;
use haema_core::MemoryId;

/// One memory, by id.
#[derive(Debug, Args)]
pub struct MemoryTarget {
    /// The memory's id (as `latest --json` and `search --json` show it).
    pub id: MemoryId,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct UpdateArgs {
    /// The memory's id (as `latest --json` and `search --json` show it).
    pub id: MemoryId,
    /// Its new text, or - to read it from standard input.
    pub text: String,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}
