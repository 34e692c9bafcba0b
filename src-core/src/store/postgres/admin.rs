//! `haema pg init`: what an administrator does once so that a plain role can keep a store
//! in a database (haema needs no superuser at run time).

use super::address::Address;
use super::client::Conn;
use super::migrations;
use crate::error::{Error, Result};

/// What [`init_postgres`] did.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PgInitReport {
    /// The store, as its URL without a password.
    pub store: String,
    /// The pgvector version the database has.
    pub pgvector: String,
    /// Whether this call created the extension.
    pub created_extension: bool,
    /// The role that owns the schema and its tables.
    pub owner: String,
    /// The store's schema version.
    pub schema_version: i64,
}

/// An identifier quoted for SQL, whatever it holds.
fn quoted_identifier(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// Prepares the database at `url` (an administrator's URL) for a haema store: creates the
/// `vector` extension when missing, then the store's schema and tables, owned by `owner`
/// (the role haema will run as; the connecting role when `None`). Running it again
/// changes nothing.
///
/// # Errors
/// [`Error::InvalidArgument`] for a bad URL or an unknown owner; [`Error::Database`] when
/// the server refuses (a role that may not create the extension is told who can).
pub fn init_postgres(url: &str, owner: Option<&str>) -> Result<PgInitReport> {
    let env = |name: &str| std::env::var(name).ok();
    let mut address = Address::parse(url, &env)?;
    address.find_password(&env);
    let conn = Conn::new(super::client::connect(&address)?, &address.schema);
    let had: Option<String> = conn
        .query_opt("SELECT extversion FROM pg_extension WHERE extname = 'vector'", &[])?
        .map(|r| r.try_get(0))
        .transpose()?;
    if had.is_none() {
        conn.batch("CREATE EXTENSION IF NOT EXISTS vector")
            .map_err(|e| Error::PgvectorMissing(format!(" and this role cannot create it ({e})")))?;
    }
    let pgvector: String = conn
        .query_one("SELECT extversion FROM pg_extension WHERE extname = 'vector'", &[])?
        .try_get(0)?;
    let me: String = conn.query_one("SELECT current_user::text", &[])?.try_get(0)?;
    let owner = owner.map_or(me, str::to_owned);
    let exists: bool = conn
        .query_one("SELECT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = $1)", &[&owner])?
        .try_get(0)?;
    if !exists {
        return Err(Error::InvalidArgument(format!(
            "there is no role “{owner}” on this server: create it first (CREATE ROLE {} LOGIN PASSWORD '…')",
            quoted_identifier(&owner)
        )));
    }
    let schema = migrations::quoted(&address.schema);
    let role = quoted_identifier(&owner);
    conn.batch(&format!(
        "CREATE SCHEMA IF NOT EXISTS {schema} AUTHORIZATION {role}; ALTER SCHEMA {schema} OWNER TO {role}"
    ))?;
    // The tables are made as the owner, so that they are the owner's.
    conn.batch(&format!("SET ROLE {role}"))?;
    let migrated = migrations::migrate(&conn, &address.schema);
    conn.batch("RESET ROLE")?;
    migrated?;
    let schema_version = migrations::version(&conn, &address.schema)?.unwrap_or(0);
    Ok(PgInitReport {
        store: address.shown,
        pgvector,
        created_extension: had.is_none(),
        owner,
        schema_version,
    })
}

/// Drops the PostgreSQL store that link folder `dir` names: its schema with every table,
/// for good (the temporary stores of `haema eval` and `haema bench`). Nothing when `dir`
/// is no link.
///
/// # Errors
/// A store error when the server cannot be reached or refuses.
pub fn drop_postgres_store(dir: &std::path::Path) -> Result<()> {
    let Some(address) = super::address::from_link(dir)? else {
        return Ok(());
    };
    let conn = Conn::new(super::client::connect(&address)?, &address.schema);
    conn.batch(&format!(
        "DROP SCHEMA IF EXISTS {} CASCADE",
        migrations::quoted(&address.schema)
    ))
}

/// The bytes the PostgreSQL store that link folder `dir` names takes on the server: its
/// tables with their indexes and TOAST; `None` when `dir` is no link.
///
/// # Errors
/// A store error when the server cannot be reached or refuses.
pub fn postgres_store_bytes(dir: &std::path::Path) -> Result<Option<u64>> {
    let Some(address) = super::address::from_link(dir)? else {
        return Ok(None);
    };
    let conn = Conn::new(super::client::connect(&address)?, &address.schema);
    let bytes: i64 = conn
        .query_one(
            "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint FROM pg_class c
             JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind IN ('r', 'm')",
            &[&address.schema],
        )?
        .try_get(0)?;
    Ok(Some(u64::try_from(bytes).unwrap_or(0)))
}

/// Keeps `password` for the store at `url` in the OS keyring (service `haema`, account the
/// URL without password or schema), after checking that the server takes it: a wrong one
/// is never saved. Returns the account.
///
/// # Errors
/// [`Error::Database`] when the server refuses the password or cannot be reached (nothing
/// is saved); [`Error::Keyring`] when there is no keyring.
pub fn save_postgres_password(url: &str, password: &str) -> Result<String> {
    let env = |name: &str| std::env::var(name).ok();
    let mut address = Address::parse(url, &env)?;
    address.config.password(password);
    drop(super::client::connect(&address)?);
    let account = address.keyring_account();
    crate::keys::from_env(env).set(&account, password)?;
    Ok(account)
}

/// Removes the password kept for the store at `url` from the OS keyring; false when there
/// was none.
///
/// # Errors
/// [`Error::Keyring`] when the keyring cannot be reached.
pub fn forget_postgres_password(url: &str) -> Result<bool> {
    let env = |name: &str| std::env::var(name).ok();
    let address = Address::parse(url, &env)?;
    crate::keys::from_env(env).delete(&address.keyring_account())
}
