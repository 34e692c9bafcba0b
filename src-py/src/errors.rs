//! haema's errors as the package's exceptions: `haema_rs.errors.from_kind` picks the class
//! (a `HaemaError` that is also the built-in its kind means: `ValueError` for bad
//! arguments, `LookupError` for what is not there, …).

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// `error` as the exception `haema_rs.errors` makes for its kind.
pub(crate) fn to_py_err(py: Python<'_>, error: &haema_core::Error) -> PyErr {
    let kind = error.kind().as_str();
    let message = error.to_string();
    let made = py
        .import("haema_rs.errors")
        .and_then(|module| module.getattr("from_kind"))
        .and_then(|from_kind| from_kind.call1((kind, message.as_str())));
    match made {
        Ok(exception) => PyErr::from_value(exception),
        Err(_) => PyRuntimeError::new_err(format!("{kind}: {message}")),
    }
}
