//! The user's `config.toml`: what belongs to the person rather than to a store — the store
//! the front ends open when told none, and the terminal UI's keys and mouse.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::TuiSettings;
use crate::error::{Error, Result};

/// The user's `config.toml`.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct UserFile {
    /// The store to open when none is given: a folder, a name or a PostgreSQL URL.
    pub(crate) store: Option<String>,
    /// The terminal UI's settings.
    pub(crate) tui: TuiSettings,
}

/// The user's file, or `None` when there is no such file.
pub(crate) fn read_user_file(path: &Path) -> Result<Option<UserFile>> {
    let Some(text) = super::read_optional(path)? else {
        return Ok(None);
    };
    let file: UserFile = toml::from_str(&text).map_err(|e| {
        Error::Config(format!(
            "{}: {e}; this file holds only `store` and [tui], a store's settings go in its haema.toml",
            path.display()
        ))
    })?;
    Ok(Some(file))
}

/// The store the user's `config.toml` names (`store = "work"`, a full path, or
/// `store = "postgres://ann@db.example/team?schema=agents"`), as the folder it means
/// ([`crate::store_dir_for`]); `None` when the file or the line is missing.
///
/// ```
/// let home = tempfile::tempdir()?;
/// let file = home.path().join("config.toml");
/// assert_eq!(haema_core::store_in_user_file(&file)?, None);
/// std::fs::write(&file, "store = \"/srv/team-memory\"\n")?;
/// assert_eq!(haema_core::store_in_user_file(&file)?, Some("/srv/team-memory".into()));
/// std::fs::write(&file, "store = \"a/b\"\n")?;
/// let refused = haema_core::store_in_user_file(&file).unwrap_err().to_string();
/// assert!(refused.contains("config.toml") && refused.contains("a/b"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`Error::Config`] when the file cannot be read or parsed, or names a store that is
/// neither a name, a full path nor a PostgreSQL URL; the message names the file.
pub fn store_in_user_file(path: &Path) -> Result<Option<PathBuf>> {
    let Some(named) = read_user_file(path)?.and_then(|f| f.store) else {
        return Ok(None);
    };
    let named = named.trim();
    if named.is_empty() {
        return Ok(None);
    }
    crate::store::places::store_dir_for(Path::new(named))
        .map(Some)
        .map_err(|e| {
            let shown = crate::store::places::without_secrets(named);
            Error::Config(format!("{}: store = {shown:?}: {e}", path.display()))
        })
}

/// The store a front end opens when it is given none: the `store` of the user's
/// `config.toml` ([`super::Settings::user_file_path`]), else the default store
/// ([`crate::default_store_dir`]). `None` without a home folder.
///
/// # Errors
/// As [`store_in_user_file`].
pub fn configured_store_dir() -> Result<Option<PathBuf>> {
    if let Some(file) = super::Settings::user_file_path()
        && let Some(dir) = store_in_user_file(&file)?
    {
        return Ok(Some(dir));
    }
    Ok(crate::store::places::default_store_dir())
}

#[cfg(all(test, feature = "postgres"))]
mod tests {
    #[test]
    fn a_wrong_store_url_is_told_without_its_password() {
        let home = tempfile::tempdir().unwrap();
        let file = home.path().join("config.toml");
        std::fs::write(
            &file,
            "store = \"postgres://ann:hush@db.example/team?sslmode=verify-full&sslmode=weird\"\n",
        )
        .unwrap();
        let error = super::store_in_user_file(&file).unwrap_err().to_string();
        assert!(error.contains("config.toml") && error.contains("ann:***@"), "{error}");
        assert!(!error.contains("hush"), "{error}");
    }
}
