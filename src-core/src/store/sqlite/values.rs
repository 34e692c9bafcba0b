//! How the shared types are stored: each closed set as its one spelling, each id as the
//! number or text it wraps. Reading a spelling the set does not have is an error that names
//! it (see [`crate::Error::UnknownValue`]), never a silent default.

use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};

use crate::error::Error;
use crate::types::{
    ChangesetId, ChangesetKind, ChangesetStatus, CoreAuthor, CoreVersionId, DecidedBy, LlmStage, MemoryId,
    MemoryStatus, Outcome, Section, UnknownValue,
};

macro_rules! stored_as_text {
    ($($name:ty),+ $(,)?) => {$(
        impl ToSql for $name {
            fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
                Ok(ToSqlOutput::from(self.as_str()))
            }
        }

        impl FromSql for $name {
            fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
                value.as_str()?.parse().map_err(|e| FromSqlError::Other(Box::new(e)))
            }
        }
    )+};
}

stored_as_text!(
    ChangesetStatus,
    ChangesetKind,
    Outcome,
    DecidedBy,
    LlmStage,
    CoreAuthor,
    MemoryStatus
);

macro_rules! stored_as_integer {
    ($($name:ty),+ $(,)?) => {$(
        impl ToSql for $name {
            fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
                Ok(ToSqlOutput::from(self.get()))
            }
        }

        impl FromSql for $name {
            fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
                value.as_i64().map(Self::from)
            }
        }
    )+};
}

stored_as_integer!(ChangesetId, CoreVersionId);

impl ToSql for Section {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.name()))
    }
}

impl FromSql for Section {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        value.as_str()?.parse().map_err(|e| FromSqlError::Other(Box::new(e)))
    }
}

impl ToSql for MemoryId {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.as_str()))
    }
}

impl FromSql for MemoryId {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
        value.as_str().map(Self::from)
    }
}

/// SQLite's errors as the engine's: an unknown spelling read from a column is the
/// [`UnknownValue`] it is; anything else is a database error.
impl From<rusqlite::Error> for Error {
    fn from(error: rusqlite::Error) -> Self {
        match error {
            rusqlite::Error::FromSqlConversionFailure(index, kind, source) => match source.downcast::<UnknownValue>() {
                Ok(unknown) => Error::UnknownValue(*unknown),
                Err(source) => {
                    Error::Database(Box::new(rusqlite::Error::FromSqlConversionFailure(index, kind, source)))
                }
            },
            // SQLITE_FULL, and SQLITE_IOERR_SHMSIZE: the shared-memory file could not grow.
            rusqlite::Error::SqliteFailure(failure, _)
                if failure.code == rusqlite::ErrorCode::DiskFull || failure.extended_code == 4874 =>
            {
                Error::DiskFull
            }
            rusqlite::Error::SqliteFailure(failure, _) if failure.code == rusqlite::ErrorCode::ReadOnly => {
                Error::InvalidState(
                    "the store is read-only (its folder or files cannot be written): reading works; to change it, \
                     copy the folder somewhere you can write"
                        .into(),
                )
            }
            other => Error::Database(Box::new(other)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::UnknownValue;

    #[test]
    fn an_unknown_spelling_in_the_database_is_an_error_that_names_it() {
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        let read = conn.query_row("SELECT 'archived'", [], |r| r.get::<_, ChangesetStatus>(0));
        let error = crate::error::Error::from(read.unwrap_err());
        assert!(matches!(&error, crate::error::Error::UnknownValue(UnknownValue { value, .. }) if value == "archived"));
        assert!(
            error.to_string().contains("unknown changeset status `archived`"),
            "{error}"
        );
        let known: ChangesetStatus = conn.query_row("SELECT 'stale'", [], |r| r.get(0)).unwrap();
        assert_eq!(known, ChangesetStatus::Stale);
    }
}
