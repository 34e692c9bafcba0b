//! A PostgreSQL store's link folder on this machine: the folder that holds the store's URL
//! without its password (`postgres.url`) and this machine's settings for it. A password
//! given in a URL is kept in this process only.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use super::address::Address;
use crate::error::{Error, Result};
use crate::store::places::LINK_FILE;

/// Passwords given in a URL this process opened, by link folder: kept in memory only.
static GIVEN_PASSWORDS: Mutex<Option<HashMap<PathBuf, String>>> = Mutex::new(None);

/// The link folder of the store at `url` under `root`: a folder of this machine that
/// holds the URL without its password (`postgres.url`) and this machine's settings for it
/// (`haema.toml`). Made when missing.
pub(crate) fn link_folder(url: &str, root: &Path) -> Result<PathBuf> {
    let env = |name: &str| std::env::var(name).ok();
    let address = Address::parse(url, &env)?;
    // The store's own parts (user, host, port, database, schema, a socket's folder), not
    // the connection's other parameters: the same store keeps one link folder.
    let (base, parameters) = address.shown.split_once('?').unwrap_or((&address.shown, ""));
    let own: Vec<&str> = parameters
        .split('&')
        .filter(|p| p.starts_with("schema=") || p.starts_with("host="))
        .collect();
    let named = format!("{base}?{}", own.join("&"));
    let slug: String = named
        .trim_start_matches("postgres://")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let dir = root.join(format!("pg-{slug}"));
    write_link(&dir, &address)?;
    Ok(dir)
}

/// Makes `dir` the link folder of the PostgreSQL store at `url` (the folder is made when
/// missing). A password in `url` is kept in this process only.
///
/// # Errors
/// [`Error::InvalidArgument`] when `url` is not a PostgreSQL URL haema can use;
/// [`Error::Io`] when the folder cannot be written.
pub fn link_postgres_store(dir: &Path, url: &str) -> Result<()> {
    let env = |name: &str| std::env::var(name).ok();
    write_link(dir, &Address::parse(url, &env)?)
}

fn write_link(dir: &Path, address: &Address) -> Result<()> {
    crate::store::files::make_private(dir)?;
    let file = dir.join(LINK_FILE);
    let current = std::fs::read_to_string(&file).ok();
    if current.as_deref().map(str::trim) != Some(address.shown.as_str()) {
        crate::store::files::write_atomically(&file, &format!("{}\n", address.shown))?;
    }
    if let Some(password) = address.config.get_password() {
        let password = String::from_utf8_lossy(password).into_owned();
        let mut given = GIVEN_PASSWORDS.lock().unwrap_or_else(PoisonError::into_inner);
        given
            .get_or_insert_with(HashMap::new)
            .insert(dir.to_path_buf(), password);
    }
    Ok(())
}

/// The address a link folder names, with its password found; `None` when `dir` is no link.
pub(crate) fn from_link(dir: &Path) -> Result<Option<Address>> {
    let file = dir.join(LINK_FILE);
    let text = match std::fs::read_to_string(&file) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io("read", &file, e)),
    };
    let env = |name: &str| std::env::var(name).ok();
    let mut address = Address::parse(text.trim(), &env)?;
    let given = GIVEN_PASSWORDS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(password) = given.as_ref().and_then(|g| g.get(dir)) {
        address.config.password(password.as_str());
    }
    drop(given);
    address.find_password(&env);
    Ok(Some(address))
}
