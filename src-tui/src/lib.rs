//! The `haema` command: the CLI subcommands and the terminal UI over `haema-core`.
//!
//! Module map: [`cli`] holds the argument definitions, [`commands`] runs each command
//! against `haema-core`, [`output`] prints text and JSON, [`remedy`] words the next step after an error, [`store_path`] finds the store,
//! [`tui`] is the terminal UI that `haema` opens without a subcommand, [`mcp`] the MCP server.

pub mod cli;
pub mod commands;
pub mod mcp;
pub mod output;
pub mod remedy;
pub mod store_path;
pub mod tui;

/// An error caused by how the command was called: exit code 2.
#[derive(Debug)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}
