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
    /// Its new text, or - to read it from standard input (leave it out to change only
    /// attributes).
    #[arg(required_unless_present_any = ["memory_type", "importance", "source", "agent_id", "session_id", "meta", "metadata"])]
    pub text: Option<String>,
    /// New attributes: each flag given replaces that attribute (`--meta` entries are
    /// merged into the metadata); the others stay.
    #[command(flatten)]
    pub attributes: super::AttributeArgs,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}
