//! The server backend: a store in a schema of a PostgreSQL database with pgvector, shared
//! by every machine that points at it.
//!
//! On this machine such a store has a *link folder* (see [`address::link_folder`]): it
//! holds the URL without a password and this machine's settings, so every front end opens
//! it as it opens a folder. The rows, core.md included, live in the database.
//!
//! Every write is one transaction that first takes the store's advisory lock, so writers
//! on all machines take turns exactly as SQLite's `BEGIN IMMEDIATE` makes them, and it
//! ends with a `NOTIFY` that other processes' listeners turn into a change (no polling).
//! Reads run in a read-only repeatable-read transaction: one consistent state.

pub(crate) mod address;
pub(crate) mod admin;
mod agent_keys;
mod agent_state;
mod boundary;
mod changesets;
mod client;
mod core_versions;
mod filter;
mod forget;
mod link;
mod listen;
mod memories;
pub(crate) mod migrations;
mod terms;
mod tls;
mod values;
mod vectors;

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

use super::backend::{Backend, Reader, Writer};
use super::{MetaKey, WorkLock};
use crate::error::{Error, Result};
use crate::types::MemoryId;
use address::Address;
use boundary::Boundary;
use client::Conn;
use listen::Listener;

/// The lock every write takes (with the schema's hash): writers take turns per store.
const WRITE_LOCK: i32 = 0x6861_656e; // "haen"

/// The lock vector work takes (with the schema's hash), for the whole session that does it.
const VECTOR_WORK_LOCK: i32 = 0x6861_6576; // "haev"

/// The channel every store's writes are announced on; the payload is the store's schema.
pub(crate) const CHANNEL: &str = "haema";

/// A store in a PostgreSQL database.
#[derive(Debug)]
pub(crate) struct PgStore {
    address: Address,
    /// The connection, made again when the server dropped it.
    conn: Mutex<Option<Conn>>,
    /// A second connection for core.md, which the engine reads and writes in the middle
    /// of a transaction on the first (as it would a file beside the database).
    core_conn: Mutex<Option<Conn>>,
    listener: Listener,
}

impl PgStore {
    /// Opens the store `address` names (making its schema and tables on first use).
    pub(crate) fn open(address: Address) -> Result<(Self, Vec<String>)> {
        let conn = connect(&address)?;
        if let Some(found) = migrations::version(&conn, &address.schema)?
            && found > migrations::SCHEMA_VERSION
        {
            return Err(Error::SchemaTooNew {
                found,
                supported: migrations::SCHEMA_VERSION,
            });
        }
        migrations::check_pgvector(&conn)?;
        migrations::migrate(&conn, &address.schema)?;
        let listener = Listener::start(&address, own_pid(&conn)?)?;
        let store = Self {
            address,
            conn: Mutex::new(Some(conn)),
            core_conn: Mutex::new(None),
            listener,
        };
        Ok((store, Vec::new()))
    }

    /// The connection, made again when it was lost.
    fn conn(&self) -> Result<MutexGuard<'_, Option<Conn>>> {
        let mut slot = self.conn.lock().unwrap_or_else(PoisonError::into_inner);
        if slot.as_ref().is_none_or(|c| c.client.is_closed()) {
            *slot = None;
            let conn = connect(&self.address)?;
            self.listener.set_own_pid(0, own_pid(&conn)?);
            *slot = Some(conn);
        }
        Ok(slot)
    }

    /// The core.md connection, made on first use and again when it was lost.
    fn core_conn(&self) -> Result<MutexGuard<'_, Option<Conn>>> {
        let mut slot = self.core_conn.lock().unwrap_or_else(PoisonError::into_inner);
        if slot.as_ref().is_none_or(|c| c.client.is_closed()) {
            *slot = None;
            let conn = connect(&self.address)?;
            self.listener.set_own_pid(1, own_pid(&conn)?);
            *slot = Some(conn);
        }
        Ok(slot)
    }

    /// Runs `work` in a transaction on the main connection (see [`in_transaction`]).
    fn transaction<T>(&self, begin: &str, work: impl FnOnce(&Conn) -> Result<T>) -> Result<T> {
        in_transaction(&*self.conn()?, begin, work)
    }
}

/// Runs `work` inside a transaction begun with `begin` on the connection in `slot`;
/// commits when it succeeds and rolls back otherwise (a panic included).
fn in_transaction<T>(slot: &Option<Conn>, begin: &str, work: impl FnOnce(&Conn) -> Result<T>) -> Result<T> {
    let conn = slot
        .as_ref()
        .ok_or_else(|| Error::Internal("no PostgreSQL connection".into()))?;
    conn.batch(begin)?;
    let guard = RollbackOnDrop(conn);
    let out = work(conn)?;
    std::mem::forget(guard);
    conn.batch("COMMIT")?;
    Ok(out)
}

impl PgStore {
    /// Announces a change to other processes (delivered when the transaction commits).
    fn announce(&self, conn: &Conn) -> Result<()> {
        conn.execute(
            "INSERT INTO meta (key, value) VALUES ($1, '1')
             ON CONFLICT (key) DO UPDATE SET value = (meta.value::bigint + 1)::text",
            &[&MetaKey::ChangeStamp.as_str()],
        )?;
        conn.execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &self.address.schema])?;
        Ok(())
    }
}

/// Rolls back the transaction of a connection when the work on it failed or panicked.
struct RollbackOnDrop<'a>(&'a Conn);

impl Drop for RollbackOnDrop<'_> {
    fn drop(&mut self) {
        let _ = self.0.batch("ROLLBACK");
    }
}

/// A new connection to the store's schema.
fn connect(address: &Address) -> Result<Conn> {
    let conn = Conn::new(client::connect(address)?, &address.schema);
    // The store's schema, then wherever pgvector's types are (`public` usually; another
    // schema on some hosted servers).
    let extension: Option<String> = conn
        .query_opt(
            "SELECT n.nspname::text FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
             WHERE e.extname = 'vector'",
            &[],
        )?
        .map(|r| r.try_get(0))
        .transpose()?;
    let extension = extension.unwrap_or_else(|| "public".to_owned()).replace('"', "\"\"");
    conn.batch(&format!(
        "SET search_path TO {}, \"{extension}\"",
        migrations::quoted(&address.schema)
    ))?;
    Ok(conn)
}

/// A session-level advisory lock: held while its connection lives (the connection's
/// keepalives notice a server that went away).
struct SessionLock(Conn);

impl super::work_lock::HeldLock for SessionLock {
    fn still_held(&self) -> bool {
        !self.0.client.is_closed()
    }
}

/// The server process of a connection (what its notifications are sent as).
fn own_pid(conn: &Conn) -> Result<i32> {
    Ok(conn.query_one("SELECT pg_backend_pid()", &[])?.get(0))
}

impl Backend for PgStore {
    fn read_with(&self, work: &mut dyn FnMut(&dyn Reader) -> Result<()>) -> Result<()> {
        self.transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", |conn| {
            work(&Boundary::new(conn))
        })
    }

    fn write_with(&self, work: &mut dyn FnMut(&dyn Writer) -> Result<()>) -> Result<()> {
        // Read committed whatever the server's default: each statement after the lock sees
        // what the writer before committed.
        self.transaction("BEGIN ISOLATION LEVEL READ COMMITTED READ WRITE", |conn| {
            conn.execute(
                "SELECT pg_advisory_xact_lock($1, hashtext($2))",
                &[&WRITE_LOCK, &self.address.schema],
            )?;
            work(&Boundary::new(conn))?;
            self.announce(conn)
        })
    }

    fn record_access(&self, entries: &[(MemoryId, u64, i64)]) -> Result<()> {
        self.transaction("BEGIN", |conn| forget::record_access(conn, entries))
    }

    fn change_counter(&self) -> Result<i64> {
        if let Some(counter) = self.listener.counter() {
            return Ok(counter);
        }
        // Without a listener (a pooler that drops LISTEN, or the server away) the change
        // stamp is read instead.
        let slot = self.core_conn()?;
        let conn = slot
            .as_ref()
            .ok_or_else(|| Error::Internal("no PostgreSQL connection".into()))?;
        let stamp: Option<String> = conn
            .query_opt(
                "SELECT value FROM meta WHERE key = $1",
                &[&MetaKey::ChangeStamp.as_str()],
            )?
            .map(|r| r.get(0));
        Ok(self.listener.counter_from_stamp(stamp))
    }

    fn read_core(&self) -> Result<Option<String>> {
        in_transaction(&*self.core_conn()?, "BEGIN READ ONLY", |conn| {
            Ok(conn
                .query_opt("SELECT content FROM core_file WHERE id = 1", &[])?
                .map(|r| r.get(0)))
        })
    }

    /// On the core.md connection, outside any transaction of the engine's (as a file
    /// write would be): it announces the change, but leaves the change stamp, which a
    /// transaction of the engine's may be about to move, alone.
    fn write_core(&self, text: &str) -> Result<()> {
        in_transaction(&*self.core_conn()?, "BEGIN", |conn| {
            conn.execute(
                "INSERT INTO core_file (id, content, written_at_ms) VALUES (1, $1, $2)
                 ON CONFLICT (id) DO UPDATE SET content = excluded.content, written_at_ms = excluded.written_at_ms",
                &[&text, &crate::types::now_ms()],
            )?;
            conn.execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &self.address.schema])?;
            Ok(())
        })
    }

    fn address(&self) -> Option<String> {
        Some(self.address.shown.clone())
    }

    /// core.md is a row of the database, not a file people edit: `haema core export`
    /// writes one when wanted.
    fn core_file(&self) -> Option<PathBuf> {
        None
    }

    /// A session-level advisory lock on a connection of its own, so that machines sharing
    /// the store take turns; the server lets it go when the guard closes the connection (or
    /// the process dies).
    fn lock_vector_work(&self, _dir: &Path, wait: bool) -> Result<Option<WorkLock>> {
        let conn = connect(&self.address)?;
        // Waiting for another machine's re-embedding is no statement to cut short.
        conn.batch("SET statement_timeout = 0")?;
        let schema = self.address.schema.as_str();
        let held: bool = if wait {
            conn.execute(
                "SELECT pg_advisory_lock($1, hashtext($2))",
                &[&VECTOR_WORK_LOCK, &schema],
            )?;
            true
        } else {
            conn.query_one(
                "SELECT pg_try_advisory_lock($1, hashtext($2))",
                &[&VECTOR_WORK_LOCK, &schema],
            )?
            .try_get(0)?
        };
        Ok(held.then(|| Box::new(SessionLock(conn)) as WorkLock))
    }

    fn scrub(&self) -> Result<bool> {
        let slot = self.conn()?;
        let conn = slot
            .as_ref()
            .ok_or_else(|| Error::Internal("no PostgreSQL connection".into()))?;
        forget::scrub(conn)
    }
}

/// Reads a meta value.
fn meta(conn: &Conn, key: MetaKey) -> Result<Option<String>> {
    Ok(conn
        .query_opt("SELECT value FROM meta WHERE key = $1", &[&key.as_str()])?
        .map(|r| r.try_get(0))
        .transpose()?)
}
