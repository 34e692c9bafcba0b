//! Which store folder a command works on.

use std::path::PathBuf;

use anyhow::{Context, Result};

/// `--store` / `HAEMA_STORE` if given, else `$XDG_DATA_HOME/haema/default`
/// (`~/.local/share/haema/default`).
pub fn resolve(explicit: Option<PathBuf>) -> Result<PathBuf> {
    if let Some(path) = explicit.filter(|p| !p.as_os_str().is_empty()) {
        return Ok(path);
    }
    let base =
        directories::BaseDirs::new().context("cannot find the home folder; pass --store DIR or set HAEMA_STORE")?;
    Ok(base.data_dir().join("haema").join("default"))
}
