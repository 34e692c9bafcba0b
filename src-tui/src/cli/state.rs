//! Arguments of `haema state`: an agent's small key/value store.

use clap::{Args, Subcommand};

/// Whose state: an agent's id.
#[derive(Debug, Args)]
pub struct AgentArg {
    /// The agent whose state it is.
    #[arg(long = "agent", value_name = "AGENT_ID", default_value = haema_core::DEFAULT_AGENT)]
    pub agent_id: String,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Subcommand)]
pub enum StateCommand {
    /// One key's value (exit 1 when it is not set; with --json, `null`).
    Get {
        /// The key, e.g. current_task.
        key: String,
        #[command(flatten)]
        agent: AgentArg,
    },
    /// Set a key. VALUE is read as JSON when it is JSON (`3`, `true`, `{"step": 2}`), else as
    /// text; - reads it from standard input.
    Set {
        /// The key, e.g. current_task.
        key: String,
        /// The value.
        value: String,
        #[command(flatten)]
        agent: AgentArg,
    },
    /// Every key of the agent's state.
    List {
        #[command(flatten)]
        agent: AgentArg,
    },
    /// Delete a key (its history keeps the deletion).
    Delete {
        /// The key.
        key: String,
        #[command(flatten)]
        agent: AgentArg,
    },
    /// Every value a key had, oldest first.
    History {
        /// The key.
        key: String,
        #[command(flatten)]
        agent: AgentArg,
    },
}
