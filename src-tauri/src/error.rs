//! Errors as the window receives them: what kind of problem, the words to show, and the way
//! out the window offers (a button), chosen here from the core's error kind and data.

use haema_core::{ChangesetId, ChangesetStatus, Error as CoreError, ErrorKind};
use serde::Serialize;

/// What kind of problem a command met: the window chooses its look by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "snake_case")]
pub enum Problem {
    /// What the window showed is gone (another program changed the store).
    NotFound,
    /// What the person gave is not usable.
    Invalid,
    /// A change is out of date.
    Stale,
    /// The language model or the embedder failed.
    Provider,
    /// The store's files or database failed.
    Store,
    /// No store is open yet.
    NoStore,
    /// The store keeps people's memories apart and no person is chosen yet.
    NoUser,
    /// A bug.
    Internal,
}

/// A way out the window offers as a button beside the message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Remedy {
    /// Build the change again against the memories as they are now (`rerun`).
    Rerun {
        /// The change.
        changeset: ChangesetId,
    },
    /// Make the search vectors again with the configured model (`reembed`).
    Reembed,
    /// Undo the later change first (`revert`).
    RevertFirst {
        /// The later change.
        changeset: ChangesetId,
    },
}

/// A command's error.
#[derive(Debug, thiserror::Error, Serialize, specta::Type)]
#[error("{message}")]
pub struct CommandError {
    /// What kind of problem.
    pub kind: Problem,
    /// What went wrong, for people, in plain words.
    pub message: String,
    /// The way out the window offers, if there is one.
    pub remedy: Option<Remedy>,
}

impl CommandError {
    /// No store is open yet.
    pub fn no_store() -> Self {
        Self::new(
            Problem::NoStore,
            "No memory is open yet. Create one or open an existing one first.",
        )
    }

    /// Something the person gave is not usable.
    pub fn invalid(message: impl Into<String>) -> Self {
        Self::new(Problem::Invalid, message)
    }

    /// An error of `kind` with `message` and no way out.
    pub fn new(kind: Problem, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
            remedy: None,
        }
    }
}

impl From<CoreError> for CommandError {
    fn from(e: CoreError) -> Self {
        let (kind, message, remedy) = match &e {
            CoreError::Stale(id)
            | CoreError::WrongStatus {
                changeset: id,
                status: ChangesetStatus::Stale,
                ..
            } => (
                Problem::Stale,
                format!(
                    "This change is out of date: {}. Build it again, or reject it.",
                    haema_core::STALE_MEANING
                ),
                Some(Remedy::Rerun { changeset: *id }),
            ),
            CoreError::EmbedderMismatch { .. } => (
                Problem::Store,
                "This memory's search vectors were made by another search model than the one set up now. \
                 Make them again with the new model, or set the old model up again."
                    .to_owned(),
                Some(Remedy::Reembed),
            ),
            CoreError::ReplacedSince { by, .. } => (
                Problem::Invalid,
                "A memory this change made was changed again later, so it cannot be undone on its own. \
                 Undo the later change first."
                    .to_owned(),
                by.map(|changeset| Remedy::RevertFirst { changeset }),
            ),
            CoreError::ReplacedByRerun(_) => (
                Problem::Invalid,
                "This change was replaced by a newer version of it; look at that one instead.".to_owned(),
                None,
            ),
            CoreError::ModelNotDownloaded { model, .. } => (
                Problem::Provider,
                format!(
                    "The search model {model} is not on this computer yet. Open this memory again while online and it is \
                     downloaded (with its progress shown); until then memories are found by their words."
                ),
                None,
            ),
            CoreError::ReembedInterrupted => (
                Problem::Store,
                "Making the search vectors stopped: the connection to the shared database was lost, and another \
                 computer may be making them now. The vectors made so far are kept; start again and it goes on \
                 from where it stopped."
                    .to_owned(),
                Some(Remedy::Reembed),
            ),
            CoreError::DatabaseMissing(_) => (
                Problem::Store,
                format!(
                    "{}. Check the database's name in the address, or ask whoever runs the server to create it.",
                    capitalised(&e)
                ),
                None,
            ),
            CoreError::Provider(_) => (
                Problem::Provider,
                format!(
                    "The language model or the search model did not answer: {e}. Nothing was changed. \
                     Check the providers in the store's haema.toml and the HAEMA_* settings."
                ),
                None,
            ),
            _ => match e.kind() {
                ErrorKind::NotFound => (
                    Problem::NotFound,
                    format!(
                        "{}. Another program may have changed the memory; the view shows it as it is now.",
                        capitalised(&e)
                    ),
                    None,
                ),
                ErrorKind::UserRequired => (
                    Problem::NoUser,
                    "This memory keeps each person's memories apart. Choose whose memories to work with first."
                        .to_owned(),
                    None,
                ),
                ErrorKind::InvalidArgument
                | ErrorKind::InvalidState
                | ErrorKind::WrongStatus
                | ErrorKind::CoreFormat
                | ErrorKind::Config
                | ErrorKind::Keyring => (Problem::Invalid, capitalised(&e), None),
                ErrorKind::Database
                | ErrorKind::Io
                | ErrorKind::DiskFull
                | ErrorKind::SchemaTooNew
                | ErrorKind::UnknownValue => (Problem::Store, capitalised(&e), None),
                _ => (Problem::Internal, capitalised(&e), None),
            },
        };
        Self { kind, message, remedy }
    }
}

/// The error's text starting with a capital letter, as the window shows sentences.
fn capitalised(e: &CoreError) -> String {
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
    use haema_core::{Missing, ReviewAction};

    use super::*;

    #[test]
    fn errors_reach_the_window_as_kind_plain_words_and_a_button() {
        let stale = CommandError::from(CoreError::Stale(ChangesetId::from(4)));
        assert_eq!(stale.kind, Problem::Stale);
        assert_eq!(
            stale.remedy,
            Some(Remedy::Rerun {
                changeset: ChangesetId::from(4)
            })
        );
        assert!(!stale.message.contains("haema "), "no CLI hints in the window");
        let missing = CommandError::from(CoreError::NotFound(Missing::Changeset(ChangesetId::from(9))));
        assert_eq!(missing.kind, Problem::NotFound);
        assert!(
            missing.message.starts_with("No changeset with id 9."),
            "{}",
            missing.message
        );
        let json = serde_json::to_value(CommandError::invalid("Type something first.")).unwrap_or_default();
        assert_eq!(
            json,
            serde_json::json!({"kind": "invalid", "message": "Type something first.", "remedy": null})
        );
    }

    #[test]
    fn stale_is_worded_once_however_it_is_met() {
        let direct = CommandError::from(CoreError::Stale(ChangesetId::from(2)));
        let by_status = CommandError::from(CoreError::WrongStatus {
            changeset: ChangesetId::from(2),
            status: ChangesetStatus::Stale,
            action: ReviewAction::Approve,
        });
        assert_eq!(direct.message, by_status.message);
        assert_eq!(direct.remedy, by_status.remedy);
    }

    #[test]
    fn an_embedder_mismatch_offers_to_make_the_vectors_again() {
        let error = CommandError::from(CoreError::EmbedderMismatch {
            stored: "local:a".into(),
            stored_dims: 384,
            configured: "openai:b".into(),
            configured_dims: 1536,
        });
        assert_eq!(error.remedy, Some(Remedy::Reembed));
        assert!(!error.message.contains("reembed"), "{}", error.message);
        let json = serde_json::to_value(&error).unwrap_or_default();
        assert_eq!(json["remedy"], serde_json::json!({"action": "reembed"}));
    }
}
