//! A store opened for a front end: the CLI's commands, the TUI and the MCP server all open
//! a store, narrow it to one user and word why search is by words only the same way.

use std::path::Path;

use anyhow::{Context, Result};
use haema_core::{LexicalReason, Memory, OpenOptions, OpenProgress, Settings};

use crate::UsageError;

/// Opens the store with its settings (file + environment) and what is on this machine,
/// without downloading the embedding model or catching up vectors.
pub async fn open(dir: &Path) -> Result<Memory> {
    open_with(dir, OpenOptions::quick()).await
}

/// Opens the store for a command that searches or writes: the embedding model is
/// downloaded on first use and memories written without vectors get them, with progress
/// bars on standard error. When the model cannot be had, one line says why.
pub async fn open_for_vectors(dir: &Path) -> Result<Memory> {
    let download = crate::output::download_progress("the embedding model");
    let vectors = crate::output::progress("memories");
    let (d, v) = (download.clone(), vectors.clone());
    let options = OpenOptions::full(move |p| match p {
        OpenProgress::Download(p) => crate::output::show_download(&d, &p),
        OpenProgress::Vectors(p) => {
            v.set_length(p.total as u64);
            v.set_position(p.done as u64);
        }
    });
    let memory = open_with(dir, options).await;
    download.finish_and_clear();
    vectors.finish_and_clear();
    let memory = memory?;
    if let Some(line) = lexical_line(&memory) {
        eprintln!("haema: note: {line}");
    }
    Ok(memory)
}

async fn open_with(dir: &Path, options: OpenOptions) -> Result<Memory> {
    let settings = Settings::load(dir)?;
    let memory = Memory::open_with_options(dir, settings, options)
        .await
        .with_context(|| format!("cannot open the store at {}", dir.display()))?;
    for note in memory.open_notes() {
        eprintln!("haema: note: {note}");
    }
    Ok(memory)
}

/// `memory` as user `user` sees it (the whole store when no user is given).
pub fn as_user(memory: Memory, user: Option<&str>) -> Result<Memory> {
    match user {
        Some(user) => Ok(memory
            .for_user(user)
            .map_err(|e| UsageError(format!("--user / HAEMA_USER: {e}")))?),
        None => Ok(memory),
    }
}

/// The one line that says why search is by words only and how to change that, for a store
/// that was meant to have vectors.
pub fn lexical_line(memory: &Memory) -> Option<String> {
    match memory.lexical_reason()? {
        reason @ LexicalReason::ModelMissing { .. } => Some(format!(
            "{reason}; run `haema model fetch` when online, and memories added meanwhile get their vectors then"
        )),
        reason @ LexicalReason::VectorsPending { .. } => {
            Some(format!("{reason}; the next command that searches or adds makes them"))
        }
        reason @ LexicalReason::ClientEmbedder { .. } => Some(reason.to_string()),
        LexicalReason::NoEmbedder => None,
    }
}
