//! The `haema` command: the CLI subcommands and the terminal UI over `haema-core`.
//!
//! Module map: [`cli`] holds the argument definitions, [`commands`] runs each command
//! against `haema-core`, [`output`] prints text and JSON, [`remedy`] words the next step after an error, [`store_path`] finds the store,
//! [`tui`] is the terminal UI that `haema` opens without a subcommand, [`mcp`] the MCP server, [`session`] the
//! opening of a store and the helpers the TUI and MCP share, [`hooks`] recall and capture inside other agents (Claude Code).

// Standard output and error for people, for the whole crate: these shadow `std`'s macros.
// Each control character of the text (an escape sequence in a memory or a state key could
// retitle or clear the terminal; a carriage return could show other text) prints as `�`
// (`haema_core::printable`), and a closed stream is never a panic: std's macros panic when
// the reader went away (`haema … 2>&1 | head`, a closed stderr pipe).

/// `eprintln!` that prints control characters as `�` and never panics.
macro_rules! eprintln {
    () => {
        $crate::output::to_stderr("\n")
    };
    ($($arg:tt)*) => {
        $crate::output::to_stderr(&format!("{}\n", format_args!($($arg)*)))
    };
}

/// `eprint!` that prints control characters as `�` and never panics.
macro_rules! eprint {
    ($($arg:tt)*) => {
        $crate::output::to_stderr(&format!($($arg)*))
    };
}

/// `println!` through [`output::print`]: control characters as `�`, a closed pipe ignored.
macro_rules! println {
    () => {
        $crate::output::to_stdout("\n")
    };
    ($($arg:tt)*) => {
        $crate::output::to_stdout(&format!("{}\n", format_args!($($arg)*)))
    };
}

pub mod cli;
pub mod commands;
pub mod hooks;
pub mod mcp;
pub mod output;
pub mod remedy;
pub mod session;
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
