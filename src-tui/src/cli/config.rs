//! `haema config` and its `set` / `unset`.

use clap::{Args, Subcommand};

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct ConfigArgs {
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    #[command(subcommand)]
    pub action: Option<ConfigAction>,
}

#[derive(Debug, Subcommand)]
pub enum ConfigAction {
    /// Write a setting into the store's haema.toml, checked first; the rest of the file
    /// (comments too) stays as it was.
    Set {
        /// The setting, as `haema config` names it (`review`, `llm.model`).
        name: String,
        /// Its value (`guarded`, `llama3.1:8b`, `0.3`).
        value: String,
    },
    /// Remove a setting from haema.toml so its default applies again; `llm.api_key` or
    /// `embedder.api_key` removes the key saved in the system keyring for the configured
    /// service.
    Unset {
        /// The setting, as `haema config` names it.
        name: String,
    },
}
