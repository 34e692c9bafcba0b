//! How columns are read: each closed set from its one spelling (an unknown spelling is an
//! error that names it, never a silent default), each JSON column with its name in the
//! error.

use std::str::FromStr;

use tokio_postgres::Row;

use crate::error::{Error, Result};
use crate::types::UnknownValue;

/// Column `index` of `row`, a closed set's spelling.
pub(super) fn closed<T: FromStr<Err = UnknownValue>>(row: &Row, index: usize) -> Result<T> {
    let text: &str = row.try_get(index)?;
    text.parse().map_err(Error::UnknownValue)
}

/// Column `index` of `row`, when not NULL, a closed set's spelling.
pub(super) fn closed_opt<T: FromStr<Err = UnknownValue>>(row: &Row, index: usize) -> Result<Option<T>> {
    let text: Option<&str> = row.try_get(index)?;
    text.map(|t| t.parse().map_err(Error::UnknownValue)).transpose()
}

/// Column `index` of `row` (named `column` in errors), JSON text that haema wrote.
pub(super) fn json<T: serde::de::DeserializeOwned>(row: &Row, index: usize, column: &str) -> Result<T> {
    let text: &str = row.try_get(index)?;
    serde_json::from_str(text).map_err(|e| {
        Error::InvalidState(format!(
            "the changeset column `{column}` holds JSON this haema cannot read: {e}"
        ))
    })
}

/// A value as the text of a JSON column.
pub(super) fn to_json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "null".into())
}
