//! Errors as the front end receives them: `{kind, message}`, the message in plain words.

use serde::Serialize;

/// A command's error.
#[derive(Debug, thiserror::Error, Serialize)]
#[error("{message}")]
pub struct CommandError {
    /// `not_found`, `invalid`, `stale`, `provider`, `store`, `no_store` or `internal`.
    pub kind: &'static str,
    /// What went wrong and what to do, for people.
    pub message: String,
}

impl CommandError {
    /// No store is open yet.
    pub fn no_store() -> Self {
        Self {
            kind: "no_store",
            message: "No memory is open yet. Create one or open an existing one first.".into(),
        }
    }
}

impl CommandError {
    /// Something the person gave is not usable.
    pub fn invalid(message: impl Into<String>) -> Self {
        Self {
            kind: "invalid",
            message: message.into(),
        }
    }
}

impl From<haema_core::Error> for CommandError {
    fn from(e: haema_core::Error) -> Self {
        use haema_core::Error as E;
        let kind = match &e {
            E::NotFound { .. } => "not_found",
            E::Stale(_) => "stale",
            E::Provider(_) => "provider",
            E::InvalidArgument(_) | E::InvalidState(_) | E::CoreFormat(_) | E::Config(_) => "invalid",
            E::Database(_) | E::Io { .. } | E::SchemaTooNew { .. } | E::EmbedderMismatch { .. } => "store",
            _ => "internal",
        };
        Self {
            kind,
            message: e.to_string(),
        }
    }
}

/// What commands return.
pub type CommandResult<T> = Result<T, CommandError>;
