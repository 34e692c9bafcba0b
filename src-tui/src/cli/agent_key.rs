//! Arguments of `haema agent-key`: the keys agents present to `haema mcp --http`.

use clap::Subcommand;
use haema_core::AgentAccess;

fn access(text: &str) -> Result<AgentAccess, String> {
    text.parse().map_err(|e: haema_core::UnknownValue| e.to_string())
}

#[derive(Debug, Subcommand)]
pub enum AgentKeyCommand {
    /// Make a key for an agent and print it once (haema keeps only its hash). With --user
    /// the key sees only that user's memories.
    Create {
        /// The agent's name, recorded on every change it makes (letters, digits, . _ -).
        name: String,
        /// What it may do: read (search, latest, recall, read core), propose (every change
        /// waits for your review) or write (the store's review policy).
        #[arg(long, value_parser = access)]
        access: AgentAccess,
        /// When it stops working: a date (2027-01-31) or a span from now (30d, 12h, 2w).
        #[arg(long, value_name = "WHEN")]
        expires: Option<String>,
        /// Print JSON (the key included).
        #[arg(long)]
        json: bool,
    },
    /// Every key, revoked and expired ones too, with when each was last used.
    List {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Stop a key working at once; it stays listed, with what its agent did (see it with
    /// `haema history --agent-key NAME`).
    Revoke {
        /// The agent's name.
        name: String,
    },
    /// Undo what an agent did through its key: its committed changes reverted (newest
    /// first), its proposals that wait for review rejected. Says what it cannot undo, and why.
    Undo {
        /// The agent's name.
        name: String,
        /// Do it without asking.
        #[arg(long)]
        yes: bool,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Give an agent a new key; the old one stops working at once.
    Rotate {
        /// The agent's name.
        name: String,
        /// Print JSON (the key included).
        #[arg(long)]
        json: bool,
    },
}
