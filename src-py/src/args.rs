//! What crosses the boundary besides plain values: arguments that arrive as JSON text or
//! names, answers that leave as JSON text, and errors in the package's classes.

use std::path::PathBuf;

use haema_core::config::Source;
use haema_core::{SearchMode, Section, Settings, StoreScope};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// What `add` was given: one text (split by the LLM) or items taken as they are.
#[derive(FromPyObject)]
pub(crate) enum Contents {
    Text(String),
    Items(Vec<String>),
}

/// `value` as JSON text.
pub(crate) fn json<T: Serialize>(value: &T) -> PyResult<String> {
    serde_json::to_string(value).map_err(encode_error)
}

/// Memories as JSON text, each with its `flags` and `marked` text ([`crate::marked`]).
pub(crate) fn marked_json(value: serde_json::Result<serde_json::Value>) -> PyResult<String> {
    json(&value.map_err(encode_error)?)
}

pub(crate) fn encode_error(error: serde_json::Error) -> PyErr {
    PyRuntimeError::new_err(format!("haema could not encode its answer: {error}"))
}

/// An argument the caller got wrong, as the package's `InvalidArgumentError`.
pub(crate) fn invalid(message: String) -> PyErr {
    haema_error(&haema_core::Error::InvalidArgument(message))
}

pub(crate) fn haema_error(error: &haema_core::Error) -> PyErr {
    Python::attach(|py| crate::errors::to_py_err(py, error))
}

/// JSON text from the Python side as `T` (empty: the default).
pub(crate) fn parse<T: DeserializeOwned + Default>(what: &str, text: Option<&str>) -> PyResult<T> {
    match text.map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(T::default()),
        Some(text) => serde_json::from_str(text).map_err(|e| invalid(format!("{what}: {e}"))),
    }
}

pub(crate) fn parse_scope(name: &str) -> PyResult<StoreScope> {
    name.parse()
        .map_err(|_| invalid(format!("no scope `{name}`: give shared or per_user")))
}

pub(crate) fn section(name: &str) -> PyResult<Section> {
    name.parse()
        .map_err(|_| invalid(format!("no core section `{name}`: give SOUL, TOOLS, RULE or USER")))
}

pub(crate) fn mode(name: &str) -> PyResult<SearchMode> {
    name.parse()
        .map_err(|_| invalid(format!("no search mode `{name}`: give hybrid, vector or lexical")))
}

/// Where a store is: a folder, or a PostgreSQL URL linked to this machine's folder for it.
pub(crate) fn store_dir(path: &str) -> PyResult<PathBuf> {
    if haema_core::is_postgres_url(path) {
        return haema_core::store_dir_for(std::path::Path::new(path)).map_err(|e| haema_error(&e));
    }
    Ok(PathBuf::from(path))
}

/// Whether the store's settings (its file or the environment) name a review policy.
pub(crate) fn review_is_set(dir: &std::path::Path) -> bool {
    let env = |name: &str| std::env::var(name).ok();
    Settings::explain_with(dir, None, env).is_ok_and(|lines| {
        lines
            .iter()
            .any(|line| line.key == "review" && line.source != Source::Default)
    })
}
