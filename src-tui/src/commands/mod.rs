//! Runs each command against `haema-core`.

mod core;
mod demo;
mod eval;
mod memories;
mod reembed;
mod review;
mod settings;
mod transfer;

use std::io::{IsTerminal, Read};
use std::path::Path;

use anyhow::{Context, Result};
use haema_core::{Memory, Settings};

use crate::UsageError;
use crate::cli::{Cli, Command};
use crate::store_path;

/// Opens the store with its settings (file + environment).
pub async fn open(dir: &Path) -> Result<Memory> {
    let settings = Settings::load(dir)?;
    Memory::open(dir, settings)
        .await
        .with_context(|| format!("cannot open the store at {}", dir.display()))
}

/// Reads a file, or standard input for `-`.
pub fn read_source(path: &Path) -> Result<String> {
    if path == Path::new("-") {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("cannot read standard input")?;
        Ok(text)
    } else {
        std::fs::read_to_string(path)
            .map_err(|e| UsageError(format!("cannot read {}: {e}", path.display())))
            .map_err(anyhow::Error::from)
    }
}

pub async fn run(cli: Cli) -> Result<()> {
    if let Some(Command::Demo(args)) = cli.command {
        let dir = demo::folder(cli.store)?;
        return demo::run(&dir, args).await;
    }
    if let Some(Command::Eval(command)) = cli.command {
        return eval::run(command).await;
    }
    let dir = store_path::resolve(cli.store)?;
    // These work on a store whose recorded embedder differs from the configured one.
    match cli.command {
        Some(Command::Reembed(args)) => return reembed::run(&dir, args).await,
        Some(Command::Config(flag)) => return settings::config(&dir, flag.json),
        Some(Command::Doctor(flag)) => return settings::doctor(&dir, flag.json).await,
        _ => {}
    }
    let memory = open(&dir).await?;
    match cli.command {
        None if std::io::stdout().is_terminal() && std::io::stdin().is_terminal() => crate::tui::run(memory).await,
        None => memories::overview(&memory).await,
        Some(Command::Status(flag)) => memories::status(&memory, flag.json).await,
        Some(Command::Add(args)) => memories::add(&memory, args).await,
        Some(Command::Search(args)) => memories::search(&memory, args).await,
        Some(Command::Latest(args)) => memories::latest(&memory, args).await,
        Some(Command::Recall(args)) => memories::recall(&memory, args).await,
        Some(Command::Core(command)) => core::run(&memory, command).await,
        Some(Command::Review(command)) => review::run(&memory, command).await,
        Some(Command::History(flag)) => review::history(&memory, flag.json).await,
        Some(Command::Revert(args)) => review::revert(&memory, args.id, args.json).await,
        Some(Command::Export(args)) => transfer::export(&memory, args).await,
        Some(Command::Import(args)) => transfer::import(&memory, args).await,
        Some(Command::Mcp) => crate::mcp::serve(memory).await,
        Some(Command::Reembed(_) | Command::Config(_) | Command::Doctor(_) | Command::Demo(_) | Command::Eval(_)) => {
            Ok(())
        }
    }
}
