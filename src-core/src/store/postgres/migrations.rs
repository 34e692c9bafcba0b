//! The store's schema in a PostgreSQL database: made on first use, migrated by version,
//! refused when a newer haema made it.

use super::client::Conn;
use crate::error::{Error, Result};

/// One version's step: SQL, or SQL followed by work done in Rust (terms are made in Rust).
enum Step {
    Sql(&'static str),
    SqlThen(&'static str, fn(&Conn) -> Result<()>),
}

/// Every migration ever shipped, in order. Never edit one; append a new one.
const MIGRATIONS: &[Step] = &[
    Step::Sql(include_str!("../../../migrations/postgres/0001_init.sql")),
    Step::SqlThen(
        include_str!("../../../migrations/postgres/0002_postings.sql"),
        super::terms::reindex_all,
    ),
    Step::Sql(include_str!("../../../migrations/postgres/0003_agent_keys.sql")),
    Step::Sql(include_str!(
        "../../../migrations/postgres/0004_changeset_agent_key.sql"
    )),
];

/// The schema version this build writes.
pub(crate) const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// The lock every process takes before changing the schema (and [`super::WRITE_LOCK`]'s
/// first half): two processes opening a new store at once make it once.
const SCHEMA_LOCK: i32 = 0x6861_656d; // "haem"

/// Quotes an identifier that [`super::address`] checked (lower-case letters, digits, `_`).
pub(crate) fn quoted(name: &str) -> String {
    format!("\"{name}\"")
}

/// The oldest pgvector haema works with: 0.8 brought the iterative index scans a filtered
/// search relies on.
const PGVECTOR_AT_LEAST: (u32, u32) = (0, 8);

/// Refuses a database without pgvector's `vector` type where this connection finds it, or
/// with a pgvector older than [`PGVECTOR_AT_LEAST`], saying what to do.
pub(super) fn check_pgvector(conn: &Conn) -> Result<()> {
    let found: bool = conn
        .query_one("SELECT to_regtype('vector') IS NOT NULL", &[])?
        .try_get(0)?;
    if !found {
        return Err(Error::PgvectorMissing(" (the `vector` type)".into()));
    }
    let version: Option<String> = conn
        .query_opt("SELECT extversion FROM pg_extension WHERE extname = 'vector'", &[])?
        .map(|r| r.try_get(0))
        .transpose()?;
    let parts: Vec<u32> = version
        .as_deref()
        .unwrap_or_default()
        .split('.')
        .map_while(|p| p.parse().ok())
        .collect();
    let (major, minor) = (parts.first().copied().unwrap_or(0), parts.get(1).copied().unwrap_or(0));
    if (major, minor) < PGVECTOR_AT_LEAST {
        return Err(Error::InvalidState(format!(
            "this database's pgvector is {}, and haema needs 0.8 or newer: an admin installs it on the server \
             and runs `ALTER EXTENSION vector UPDATE;`",
            version.as_deref().unwrap_or("of an unknown version")
        )));
    }
    Ok(())
}

/// The version of the store in `schema`, `None` when there is none yet.
pub(super) fn version(conn: &Conn, schema: &str) -> Result<Option<i64>> {
    let exists: bool = conn
        .query_one(
            "SELECT EXISTS (SELECT 1 FROM pg_tables WHERE schemaname = $1 AND tablename = 'haema_schema')",
            &[&schema],
        )?
        .get(0);
    if !exists {
        return Ok(None);
    }
    let row = conn.query_opt(&format!("SELECT version FROM {}.haema_schema", quoted(schema)), &[])?;
    Ok(row.map(|r| r.get::<_, i32>(0).into()))
}

/// Brings the store in `schema` up to [`SCHEMA_VERSION`] (making the schema and its tables
/// on first use), in one transaction under the schema lock.
pub(super) fn migrate(conn: &Conn, schema: &str) -> Result<()> {
    if version(conn, schema)? == Some(SCHEMA_VERSION) {
        return Ok(());
    }
    check_pgvector(conn)?;
    conn.batch("BEGIN")?;
    let migrated = (|| -> Result<()> {
        conn.execute(
            "SELECT pg_advisory_xact_lock($1, hashtext($2))",
            &[&SCHEMA_LOCK, &schema],
        )?;
        let found = version(conn, schema)?;
        let current = found.unwrap_or(0);
        if current > SCHEMA_VERSION {
            return Err(Error::SchemaTooNew {
                found: current,
                supported: SCHEMA_VERSION,
            });
        }
        // PostgreSQL checks the right to create a schema before whether it exists: a role
        // whose schema an admin made (`haema pg init`) never asks.
        let exists: bool = conn
            .query_one(
                "SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1)",
                &[&schema],
            )?
            .try_get(0)?;
        if !exists {
            conn.batch(&format!("CREATE SCHEMA {}", quoted(schema)))
                .map_err(|e| refused_schema(e, schema))?;
        }
        conn.batch(&format!("SET LOCAL search_path TO {}, public", quoted(schema)))?;
        if found.is_none() {
            conn.batch("CREATE TABLE haema_schema (version INTEGER NOT NULL); INSERT INTO haema_schema VALUES (0)")?;
        }
        for (index, step) in MIGRATIONS
            .iter()
            .enumerate()
            .skip(usize::try_from(current).unwrap_or(0))
        {
            match step {
                Step::Sql(sql) => conn.batch(sql)?,
                Step::SqlThen(sql, then) => {
                    conn.batch(sql)?;
                    then(conn)?;
                }
            }
            let version = i32::try_from(index + 1).unwrap_or(i32::MAX);
            conn.execute("UPDATE haema_schema SET version = $1", &[&version])?;
        }
        Ok(())
    })();
    match migrated {
        Ok(()) => conn.batch("COMMIT"),
        Err(e) => {
            let _ = conn.batch("ROLLBACK");
            Err(e)
        }
    }
}

/// A schema the role may not make, in words that say who can.
fn refused_schema(error: Error, schema: &str) -> Error {
    if error.to_string().contains("permission denied") {
        Error::SchemaRefused(schema.to_owned())
    } else {
        error
    }
}
