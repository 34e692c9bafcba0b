//! `haema hook` (what Claude Code runs) and `haema hooks` (putting it in place).

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};

pub use crate::hooks::settings_file::Scope as HookScope;

#[derive(Debug, Subcommand)]
pub enum HookCommand {
    /// Answer one Claude Code hook event, given as JSON on standard input: SessionStart and
    /// UserPromptSubmit get the recall block for the prompt; Stop, PreCompact and SessionEnd
    /// capture the session's new words into memory in the background. Never fails: a
    /// problem is logged (see `haema hooks status`) and the prompt goes on.
    ClaudeCode(HookRunArgs),
}

#[derive(Debug, Args)]
pub struct HookRunArgs {
    /// Capture before returning instead of in the background (for scripts and tests).
    #[arg(long)]
    pub foreground: bool,
}

#[derive(Debug, Subcommand)]
pub enum HooksCommand {
    /// Merge haema's hooks into an agent's settings, keeping every other hook; running it
    /// again changes nothing. The hooks use this haema, and the --store and --user given.
    Install(HooksInstallArgs),
    /// Which settings files run haema's hooks, and where their log is.
    Status(HooksStatusArgs),
}

/// The agents haema installs hooks into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum HookAgent {
    /// Claude Code: `.claude/settings.json` and its siblings.
    ClaudeCode,
}

#[derive(Debug, Args)]
pub struct HooksInstallArgs {
    /// The agent.
    #[arg(value_enum)]
    pub agent: HookAgent,
    /// Which settings file: project (`.claude/settings.json`), local
    /// (`.claude/settings.local.json`) or user (`~/.claude/settings.json`).
    #[arg(long, value_enum, default_value = "project")]
    pub scope: HookScope,
    /// The project folder (default: the current folder).
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
    /// Remove haema's hooks instead (only them).
    #[arg(long)]
    pub uninstall: bool,
}

#[derive(Debug, Args)]
pub struct HooksStatusArgs {
    /// The project folder (default: the current folder).
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
}
