//! Which store folder a command works on.

use std::path::PathBuf;

use anyhow::{Context, Result};

/// `--store` / `HAEMA_STORE` if given ([`haema_core::store_dir_given`]: a folder, a name
/// beside the default store, or a PostgreSQL URL's link folder on this machine), else the
/// `store` of the user's `config.toml`, else `$XDG_DATA_HOME/haema/default`
/// (`~/.local/share/haema/default`).
pub fn resolve(explicit: Option<PathBuf>) -> Result<PathBuf> {
    if let Some(path) = explicit.filter(|p| !p.as_os_str().is_empty()) {
        return Ok(haema_core::store_dir_given(&path)?);
    }
    haema_core::configured_store_dir()?
        .context("cannot find the home folder; pass --store DIR, set HAEMA_STORE or `store` in config.toml")
}
