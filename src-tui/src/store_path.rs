//! Which store folder a command works on.

use std::path::PathBuf;

use anyhow::{Context, Result};

/// `--store` / `HAEMA_STORE` if given, else the `store` of the user's `config.toml`, else
/// `$XDG_DATA_HOME/haema/default` (`~/.local/share/haema/default`). A PostgreSQL URL means its link folder on this
/// machine ([`haema_core::store_dir_for`]).
pub fn resolve(explicit: Option<PathBuf>) -> Result<PathBuf> {
    if let Some(path) = explicit.filter(|p| !p.as_os_str().is_empty()) {
        if path.to_str().is_some_and(haema_core::is_postgres_url) {
            return Ok(haema_core::store_dir_for(&path)?);
        }
        return Ok(path);
    }
    haema_core::configured_store_dir()?
        .context("cannot find the home folder; pass --store DIR, set HAEMA_STORE or `store` in config.toml")
}
