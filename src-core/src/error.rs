//! The error type of `haema-core`.
//!
//! Every variant's `Display` text is one sentence meant for a person: it says what went
//! wrong and, where there is one, what to do about it.

use std::path::PathBuf;

use crate::provider::ProviderError;

/// Result with [`Error`] as the default error type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in the memory engine.
#[non_exhaustive]
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A caller passed an argument outside its allowed range.
    #[error("{0}")]
    InvalidArgument(String),

    /// The configuration file or an environment variable holds a bad value.
    #[error("configuration error: {0}")]
    Config(String),

    /// A file of the store could not be read or written.
    #[error("cannot {action} {}: {source}", path.display())]
    Io {
        /// What was being done ("read", "write", "create directory").
        action: &'static str,
        /// The file or folder.
        path: PathBuf,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },

    /// SQLite reported an error.
    #[error("database error: {0}")]
    Database(#[from] rusqlite::Error),

    /// The store was written by a newer haema.
    #[error("the store has schema version {found} but this haema knows only up to {supported}; upgrade haema")]
    SchemaTooNew {
        /// Version in the file.
        found: i64,
        /// Newest version this build knows.
        supported: i64,
    },

    /// The configured embedder is not the one the store's vectors were made with.
    #[error(
        "the store's vectors were made by embedder `{stored}` ({stored_dims} dims) but `{configured}` ({configured_dims} dims) is configured; configure the original embedder again, or run `haema reembed` to switch the store to the new one"
    )]
    EmbedderMismatch {
        /// Embedder id recorded in the store.
        stored: String,
        /// Dimension recorded in the store.
        stored_dims: usize,
        /// Embedder id configured now.
        configured: String,
        /// Dimension configured now.
        configured_dims: usize,
    },

    /// An embedding or LLM provider failed.
    #[error(transparent)]
    Provider(#[from] ProviderError),

    /// core.md or a core section is not in the expected form.
    #[error("{0}")]
    CoreFormat(String),

    /// No changeset or memory with this id.
    #[error("no {what} with id {id}")]
    NotFound {
        /// "changeset" or "memory".
        what: &'static str,
        /// The id asked for.
        id: String,
    },

    /// The operation does not apply to the changeset in its current status.
    #[error("{0}")]
    InvalidState(String),

    /// A background task failed unexpectedly.
    #[error("internal error: {0}; please report it")]
    Internal(String),

    /// The changeset's related memories or core changed since it was proposed.
    #[error(
        "changeset {0} is stale: the memories or core it was built on have changed since; re-run it (`haema review rerun {0}`) or reject it"
    )]
    Stale(i64),
}

impl Error {
    pub(crate) fn io(action: &'static str, path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Self::Io {
            action,
            path: path.into(),
            source,
        }
    }

    /// True when the error was caused by the caller's arguments (a usage error).
    pub fn is_usage(&self) -> bool {
        matches!(self, Self::InvalidArgument(_))
    }
}
