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
        let (kind, message) = match &e {
            E::NotFound { .. } => (
                "not_found",
                format!(
                    "{}. Another program may have changed the memory; the view shows it as it is now.",
                    capitalised(&e)
                ),
            ),
            E::Stale(_) => (
                "stale",
                "This change is out of date: the memories it was built on changed since it was suggested. \
                 Choose “Build it again” or reject it."
                    .to_owned(),
            ),
            E::Provider(_) => (
                "provider",
                format!(
                    "The language model or the embedder did not answer: {e}. Nothing was changed. \
                     Check the providers in the store's haema.toml and the HAEMA_* settings."
                ),
            ),
            E::InvalidArgument(_) | E::InvalidState(_) | E::CoreFormat(_) | E::Config(_) => {
                ("invalid", capitalised(&e))
            }
            E::Database(_) | E::Io { .. } | E::SchemaTooNew { .. } | E::EmbedderMismatch { .. } => {
                ("store", capitalised(&e))
            }
            _ => ("internal", capitalised(&e)),
        };
        Self { kind, message }
    }
}

/// The error's text starting with a capital letter, as the window shows sentences.
fn capitalised(e: &haema_core::Error) -> String {
    let text = e.to_string();
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// What commands return.
pub type CommandResult<T> = Result<T, CommandError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_reach_the_window_as_kind_and_plain_words() {
        let stale = CommandError::from(haema_core::Error::Stale(4));
        assert_eq!(stale.kind, "stale");
        assert!(stale.message.contains("Build it again"), "{}", stale.message);
        assert!(!stale.message.contains("haema review"), "no CLI hints in the window");
        let missing = CommandError::from(haema_core::Error::NotFound {
            what: "changeset",
            id: "9".into(),
        });
        assert_eq!(missing.kind, "not_found");
        assert!(
            missing.message.starts_with("No changeset with id 9."),
            "{}",
            missing.message
        );
        let json = serde_json::to_value(CommandError::invalid("Type something first.")).unwrap_or_default();
        assert_eq!(
            json,
            serde_json::json!({"kind": "invalid", "message": "Type something first."})
        );
    }
}
