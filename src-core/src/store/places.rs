//! Where stores live on this machine, which folders are stores, and what a store's name
//! means: the rules every front end follows, kept once here.

use std::path::{Component, Path, PathBuf};

use crate::error::{Error, Result};

/// The file that makes a folder a store.
const DATABASE: &str = "memory.db";

/// The file that makes a folder a link to a store in PostgreSQL: its URL, without a
/// password.
pub(crate) const LINK_FILE: &str = "postgres.url";

/// `$XDG_DATA_HOME/haema/default` (`~/.local/share/haema/default` on Linux): the store a
/// front end opens when it is given none. `None` when this machine has no home folder.
pub fn default_store_dir() -> Option<PathBuf> {
    directories::BaseDirs::new().map(|b| b.data_dir().join("haema").join("default"))
}

/// The schema a PostgreSQL store uses when its URL names none.
pub(crate) const DEFAULT_SCHEMA: &str = "haema";

/// Whether `dir` holds a store (its `memory.db`) or links to one in PostgreSQL.
pub fn is_store_dir(dir: &Path) -> bool {
    dir.join(DATABASE).is_file() || dir.join(LINK_FILE).is_file()
}

/// Whether a store name is a PostgreSQL URL (`postgres://…` or `postgresql://…`).
///
/// ```
/// assert!(haema_core::is_postgres_url("postgres://ann@db.example/team?schema=agents"));
/// assert!(!haema_core::is_postgres_url("/srv/agent-memory"));
/// ```
pub fn is_postgres_url(name: &str) -> bool {
    let lower = name.trim_start().to_ascii_lowercase();
    lower.starts_with("postgres://") || lower.starts_with("postgresql://")
}

/// A store's short name, how people tell stores apart: its folder's name, or for a
/// PostgreSQL store (its URL) the schema, the database and the host. Every front end shows
/// this one ([`crate::StoreInfo::name`]).
///
/// ```
/// use haema_core::store_name;
/// assert_eq!(store_name("postgres://agents@db.example:5432/team?schema=shared"), "shared in team on db.example");
/// assert_eq!(store_name("postgresql://ann:pw@[::1]:5432/notes"), "haema in notes on [::1]");
/// assert_eq!(store_name("/home/ann/.local/share/haema/default"), "default");
/// assert_eq!(store_name("C:\\Users\\ann\\haema\\work\\"), "work");
/// ```
pub fn store_name(location: &str) -> String {
    if is_postgres_url(location)
        && let Some(name) = postgres_store_name(location.trim())
    {
        return name;
    }
    location
        .split(['/', '\\'])
        .rfind(|part| !part.is_empty())
        .unwrap_or(location)
        .to_owned()
}

/// "schema in database on host" for a PostgreSQL URL (`postgres://user@host:port/db?schema=s`),
/// the schema being `haema` when the URL names none.
fn postgres_store_name(url: &str) -> Option<String> {
    let rest = url.split_once("://")?.1;
    let (rest, query) = rest.split_once('?').unwrap_or((rest, ""));
    let rest = rest.rsplit_once('@').map_or(rest, |(_, r)| r);
    let (authority, db) = rest.split_once('/').unwrap_or((rest, ""));
    let param = |name: &str| {
        query
            .split('&')
            .find_map(|p| p.strip_prefix(name)?.strip_prefix('='))
            .filter(|v| !v.is_empty())
    };
    let host = match authority.rsplit_once(':') {
        Some((host, port)) if !port.contains(']') => host,
        _ => authority,
    };
    let host = if host.is_empty() {
        param("host").unwrap_or("localhost")
    } else {
        host
    };
    let db = if db.is_empty() {
        param("dbname").unwrap_or("postgres")
    } else {
        db
    };
    Some(format!(
        "{} in {db} on {host}",
        param("schema").unwrap_or(DEFAULT_SCHEMA)
    ))
}

/// A store name as it may be shown: a PostgreSQL URL without its password.
pub(crate) fn without_secrets(name: &str) -> String {
    #[cfg(feature = "postgres")]
    if is_postgres_url(name) {
        return super::postgres::address::without_password(name);
    }
    name.to_owned()
}

/// The folder a store given on the command line (`--store`, `HAEMA_STORE`) means. A URL
/// and a bare name (`work`) mean what [`store_dir_for`] says, so `--store work` opens the
/// same store wherever the command runs — unless the current folder holds a store of that
/// name and there is none beside the default one: that one is meant (as before names were
/// looked up), never a new empty store in its place. Any other path (`./work`,
/// `../x/work`, `/srv/work`) is that folder.
///
/// # Errors
/// As [`store_dir_for`] for a URL.
pub fn store_dir_given(given: &Path) -> Result<PathBuf> {
    if given.to_str().is_some_and(is_postgres_url) {
        return store_dir_for(given);
    }
    let text = given.to_string_lossy();
    let mut parts = given.components();
    let bare = matches!((parts.next(), parts.next()), (Some(Component::Normal(_)), None))
        && !text.contains(['/', '\\'])
        && !text.starts_with('.');
    Ok(named_or_here(given, bare.then(|| store_dir_for(given).ok()).flatten()))
}

/// The store beside the default one (`named`) unless only the one `here` is a store.
fn named_or_here(here: &Path, named: Option<PathBuf>) -> PathBuf {
    match named {
        Some(named) if named.exists() || !is_store_dir(here) => named,
        _ => here.to_path_buf(),
    }
}

/// The folder a store name means: a full path as it is; a bare name (`work`) a store
/// beside the default one (`$XDG_DATA_HOME/haema/work`), so people need not know where
/// stores live; a PostgreSQL URL (`postgres://user@host/db?schema=name`) the link folder
/// of that store on this machine (made when missing: it holds the URL without a password
/// and this machine's settings for the store).
///
/// ```
/// use std::path::Path;
/// use haema_core::store_dir_for;
/// assert_eq!(store_dir_for(Path::new("/srv/agent-memory"))?, Path::new("/srv/agent-memory"));
/// if let Some(default) = haema_core::default_store_dir() {
///     // A bare name is a store beside the default one.
///     assert_eq!(store_dir_for(Path::new("work"))?, default.with_file_name("work"));
/// }
/// assert!(store_dir_for(Path::new("a/b")).is_err());
/// # Ok::<(), haema_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::InvalidArgument`] for a relative path of more than one part (`a/b`, `./x`,
/// `..`), and when there is no home folder to put a named store in.
pub fn store_dir_for(name: &Path) -> Result<PathBuf> {
    if let Some(url) = name.to_str().filter(|n| is_postgres_url(n)) {
        return postgres_link(url);
    }
    if name.is_absolute() {
        return Ok(name.to_path_buf());
    }
    let mut parts = name.components();
    let bare = matches!((parts.next(), parts.next()), (Some(Component::Normal(_)), None));
    if !bare {
        return Err(Error::InvalidArgument(format!(
            "“{}” is neither a name (like “work”) nor a full path starting with /",
            name.display()
        )));
    }
    let root = default_store_dir()
        .as_deref()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .ok_or_else(|| Error::InvalidArgument("there is no home folder to keep named stores in".into()))?;
    Ok(root.join(name))
}

/// The link folder of the PostgreSQL store at `url`: `pg-USER_HOST_PORT_DB_SCHEMA` beside
/// the default store, made when missing (see [`LINK_FILE`]).
#[cfg(feature = "postgres")]
fn postgres_link(url: &str) -> Result<PathBuf> {
    let root = default_store_dir()
        .as_deref()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .ok_or_else(|| Error::InvalidArgument("there is no home folder to keep the store's link in".into()))?;
    super::postgres::address::link_folder(url, &root)
}

#[cfg(not(feature = "postgres"))]
fn postgres_link(_url: &str) -> Result<PathBuf> {
    Err(Error::InvalidArgument(
        "this haema was built without PostgreSQL (the `postgres` feature): it opens store folders only".into(),
    ))
}

/// The store folders beside `open`, and `open` itself, sorted: what a front end offers to
/// switch to.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use haema_core::{Memory, is_store_dir, store_folders_beside};
/// let root = tempfile::tempdir()?;
/// for name in ["work", "home"] {
///     Memory::open_with(root.path().join(name), Default::default(), None, None).await?;
/// }
/// std::fs::create_dir(root.path().join("not-a-store"))?;
/// let work = root.path().join("work");
/// assert!(is_store_dir(&work));
/// assert_eq!(store_folders_beside(&work), [root.path().join("home"), work]);
/// # Ok(()) }
/// ```
pub fn store_folders_beside(open: &Path) -> Vec<PathBuf> {
    let root = open.parent().map_or_else(|| open.to_path_buf(), Path::to_path_buf);
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .map(|entries| {
            entries
                .filter_map(std::result::Result::ok)
                .map(|e| e.path())
                .filter(|p| is_store_dir(p))
                .collect()
        })
        .unwrap_or_default();
    if !dirs.iter().any(|d| d == open) {
        dirs.push(open.to_path_buf());
    }
    dirs.sort();
    dirs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_stores_beside_the_default_and_paths_stay_as_given() {
        let absolute = std::env::temp_dir().join("haema-x");
        assert_eq!(store_dir_for(&absolute).ok(), Some(absolute));
        if let Some(root) = default_store_dir().as_deref().and_then(Path::parent) {
            assert_eq!(store_dir_for(Path::new("work")).ok(), Some(root.join("work")));
        }
        for bad in ["a/b", "..", "./x"] {
            let error = store_dir_for(Path::new(bad)).unwrap_err();
            assert!(error.is_usage(), "{bad}: {error}");
        }
    }

    #[test]
    fn a_store_given_by_name_is_the_named_store_unless_only_the_one_here_exists() {
        if let Some(root) = default_store_dir().as_deref().and_then(Path::parent) {
            assert_eq!(store_dir_given(Path::new("work")).ok(), Some(root.join("work")));
        }
        for path in ["./work", "a/work", "../work", ".work"] {
            assert_eq!(store_dir_given(Path::new(path)).ok(), Some(PathBuf::from(path)));
        }
        let root = tempfile::tempdir().unwrap();
        let (here, named) = (root.path().join("here/work"), root.path().join("data/work"));
        // Neither is a store yet: the new one goes beside the default store.
        assert_eq!(named_or_here(&here, Some(named.clone())), named);
        // A folder here that is no store is not meant either.
        std::fs::create_dir_all(&here).unwrap();
        assert_eq!(named_or_here(&here, Some(named.clone())), named);
        // Only the store here exists: it is meant, never a new empty one in its place.
        std::fs::write(here.join(DATABASE), b"").unwrap();
        assert_eq!(named_or_here(&here, Some(named.clone())), here);
        // Both: the name means the same store wherever the command runs.
        std::fs::create_dir_all(&named).unwrap();
        assert_eq!(named_or_here(&here, Some(named.clone())), named);
        assert_eq!(named_or_here(&here, None), here);
    }

    #[test]
    fn only_folders_with_a_database_are_stores() {
        let root = tempfile::tempdir().unwrap();
        let (a, b, c) = (root.path().join("a"), root.path().join("b"), root.path().join("c"));
        for dir in [&a, &b, &c] {
            std::fs::create_dir(dir).unwrap();
        }
        std::fs::write(a.join(DATABASE), b"").unwrap();
        std::fs::write(b.join("notes.txt"), b"").unwrap();
        assert!(is_store_dir(&a) && !is_store_dir(&b));
        assert_eq!(store_folders_beside(&c), vec![a, c]);
    }
}
