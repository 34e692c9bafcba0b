//! Which store folder a command works on.

use std::path::PathBuf;

use anyhow::{Context, Result};

/// `--store` / `HAEMA_STORE` if given, else `$XDG_DATA_HOME/haema/default`
/// (`~/.local/share/haema/default`).
pub fn resolve(explicit: Option<PathBuf>) -> Result<PathBuf> {
    if let Some(path) = explicit.filter(|p| !p.as_os_str().is_empty()) {
        return Ok(path);
    }
    haema_core::default_store_dir().context("cannot find the home folder; pass --store DIR or set HAEMA_STORE")
}
