//! Append-only schema migrations, tracked in `PRAGMA user_version`.

use rusqlite::{Connection, OptionalExtension};

use crate::error::{Error, Result};

/// Every migration ever shipped, in order. Never edit one; append a new one.
const MIGRATIONS: &[&str] = &[
    include_str!("../../../migrations/0001_init.sql"),
    include_str!("../../../migrations/0002_latest_counts.sql"),
    include_str!("../../../migrations/0003_forget.sql"),
    include_str!("../../../migrations/0004_attributes.sql"),
    include_str!("../../../migrations/0005_pins.sql"),
    include_str!("../../../migrations/0006_agent_state.sql"),
    include_str!("../../../migrations/0007_scopes.sql"),
    include_str!("../../../migrations/0008_access.sql"),
    include_str!("../../../migrations/0009_agent_keys.sql"),
    include_str!("../../../migrations/0010_changeset_agent_key.sql"),
];

/// The schema version this build writes.
pub(crate) const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// Brings the database up to [`SCHEMA_VERSION`], each migration in its own transaction.
///
/// Foreign keys are off while migrations run (a migration may rebuild a table others
/// refer to, which SQLite allows only so) and checked before each one commits; they are on
/// again afterwards.
pub(crate) fn migrate(conn: &mut Connection) -> Result<()> {
    conn.pragma_update(None, "foreign_keys", "off")?;
    let migrated = run(conn);
    conn.pragma_update(None, "foreign_keys", "on")?;
    migrated
}

fn run(conn: &mut Connection) -> Result<()> {
    let current: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if current > SCHEMA_VERSION {
        return Err(Error::SchemaTooNew {
            found: current,
            supported: SCHEMA_VERSION,
        });
    }
    for (index, sql) in MIGRATIONS
        .iter()
        .enumerate()
        .skip(usize::try_from(current).unwrap_or(0))
    {
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        // Another process may have migrated while we waited for the lock.
        let now: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        if now > index as i64 {
            continue;
        }
        tx.execute_batch(sql)?;
        let broken: Option<String> = tx
            .query_row("SELECT \"table\" FROM pragma_foreign_key_check LIMIT 1", [], |r| {
                r.get(0)
            })
            .optional()?;
        if let Some(table) = broken {
            return Err(Error::InvalidState(format!(
                "migration {} would leave rows of `{table}` pointing at nothing; the store was not changed",
                index + 1
            )));
        }
        tx.pragma_update(None, "user_version", index as i64 + 1)?;
        tx.commit()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_apply_to_an_empty_database_and_are_idempotent() {
        super::super::vectors::register();
        let mut conn = Connection::open_in_memory().unwrap();
        migrate(&mut conn).unwrap();
        migrate(&mut conn).unwrap();
        let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0)).unwrap();
        assert_eq!(version, SCHEMA_VERSION);
    }

    #[test]
    fn a_version_1_store_gets_its_latest_counts() {
        super::super::vectors::register();
        let mut conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(MIGRATIONS[0]).unwrap();
        conn.pragma_update(None, "user_version", 1).unwrap();
        for (i, (status, ts)) in [("active", 5), ("active", 300), ("superseded", 301), ("active", 1 << 20)]
            .into_iter()
            .enumerate()
        {
            conn.execute(
                "INSERT INTO memories (id, content, status, created_at_ms, updated_at_ms) VALUES (?1, 'x', ?2, ?3, ?3)",
                rusqlite::params![format!("m{i}"), status, ts],
            )
            .unwrap();
        }
        migrate(&mut conn).unwrap();
        let count = |level: i64, bucket: i64| -> i64 {
            conn.query_row(
                "SELECT active FROM latest_counts WHERE level = ?1 AND bucket = ?2",
                [level, bucket],
                |r| r.get(0),
            )
            .unwrap()
        };
        assert_eq!(count(40, 0), 3);
        assert_eq!(count(16, 0), 2);
        assert_eq!(count(16, 16), 1);
        assert_eq!((count(8, 0), count(8, 1)), (1, 1));
    }

    #[test]
    fn newer_schema_is_refused() {
        let mut conn = Connection::open_in_memory().unwrap();
        conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1).unwrap();
        let err = migrate(&mut conn).unwrap_err();
        assert!(
            matches!(err, crate::error::Error::SchemaTooNew { found, .. } if found == SCHEMA_VERSION + 1),
            "{err}"
        );
    }
}
