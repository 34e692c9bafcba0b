//! The error type of `haema-core`.
//!
//! Every variant says what went wrong, with the data a front end needs to offer a way out
//! (which changeset, which embedder, which path), and no advice about commands: the CLI says
//! "run `haema reembed`", the desktop offers the button that does it, and the MCP server
//! tells an agent what to send instead. [`Error::kind`] names the situation with one stable
//! spelling for front ends that match on it across a process boundary.

use std::path::PathBuf;

pub(crate) mod provider;

use crate::types::{ChangesetId, ChangesetStatus, CoreVersionId, Invalid, MemoryId, UnknownValue};
use provider::ProviderError;

/// Result with [`Error`] as the default error type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in the memory engine.
///
/// A front end matches on [`Error::kind`] (or the variant) to offer its way out:
///
/// ```
/// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
/// use haema_core::{Error, ErrorKind, MemoryId};
/// match memory.memory(&MemoryId::from("no-such-id")).await {
///     Err(error @ Error::NotFound(_)) => {
///         assert_eq!(error.kind(), ErrorKind::NotFound);
///         assert!(error.is_usage()); // the caller asked for something that is not there
///         eprintln!("{error}");
///     }
///     other => panic!("unexpected: {other:?}"),
/// }
/// # Ok(()) }
/// ```
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

    /// The store's database reported an error (its words are in the message, so it is not
    /// also given as the source: a chain of causes would say it twice).
    #[error("database error: {0}")]
    Database(Box<dyn std::error::Error + Send + Sync>),

    /// The store holds a value this haema does not know (written by a newer haema, or
    /// changed by hand).
    #[error("cannot read the store: it holds an {0}")]
    UnknownValue(#[from] UnknownValue),

    /// The store was written by a newer haema.
    #[error("the store has schema version {found} but this haema knows only up to {supported}")]
    SchemaTooNew {
        /// Version in the file.
        found: i64,
        /// Newest version this build knows.
        supported: i64,
    },

    /// The configured embedder is not the one the store's vectors were made with.
    #[error(
        "the store's vectors were made by embedder `{stored}` ({stored_dims} dims) but `{configured}` ({configured_dims} dims) is configured"
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

    /// The local embedding model, named by its Hugging Face name, is not on this machine
    /// yet: not in the Hugging Face cache.
    #[error("the embedding model `{model}` is not downloaded: it is not in the Hugging Face cache (looked in {})", looked_in.display())]
    ModelNotDownloaded {
        /// The model's Hugging Face name (`sentence-transformers/all-MiniLM-L6-v2`).
        model: String,
        /// The cache folder it would be in.
        looked_in: PathBuf,
    },

    /// core.md or a core section is not in the expected form.
    #[error("{0}")]
    CoreFormat(String),

    /// No changeset, memory or core version with this id.
    #[error("no {0}")]
    NotFound(Missing),

    /// The review action does not apply to the changeset in its current status.
    #[error("changeset {changeset} is {status} and cannot be {action}")]
    WrongStatus {
        /// The changeset.
        changeset: ChangesetId,
        /// Its status now.
        status: ChangesetStatus,
        /// What was asked.
        action: ReviewAction,
    },

    /// A rejected changeset cannot be reopened because a re-run replaced it.
    #[error("changeset {0} was replaced by a re-run, so it cannot be reopened")]
    ReplacedByRerun(ChangesetId),

    /// A changeset cannot be reverted because a memory it made was replaced since.
    #[error(
        "memory {memory} made by changeset {changeset} was since replaced by {}",
        by.map_or_else(|| "a later change".to_owned(), |b| format!("changeset {b}"))
    )]
    ReplacedSince {
        /// The changeset asked to revert.
        changeset: ChangesetId,
        /// The memory it made.
        memory: MemoryId,
        /// The changeset that replaced that memory, when known: revert it first.
        by: Option<ChangesetId>,
    },

    /// The changeset's related memories or core changed since it was proposed.
    #[error("changeset {0} is stale: {meaning}", meaning = crate::types::STALE_MEANING)]
    Stale(ChangesetId),

    /// A background task failed unexpectedly.
    #[error("internal error: {0}; please report it")]
    Internal(String),

    /// The operation does not apply to the store as it is.
    #[error("{0}")]
    InvalidState(String),

    /// The disk (or quota) holding the store is full; the write was rolled back.
    #[error("the disk holding the store is full, so nothing was changed; free some space and try again")]
    DiskFull,

    /// The store keeps each user's memories apart (`scope = "per_user"`) and the call did
    /// not say whose memories it is about: nothing was read or written.
    #[error(
        "this store keeps each user's memories apart (scope = \"per_user\"), so every read and write must say whose memories it is about"
    )]
    UserRequired,

    /// The OS keyring, where API keys are kept, cannot be reached or refused.
    #[error("{0}")]
    Keyring(String),

    /// No setting has this name (a front end says where the settings are listed).
    #[error("there is no setting named {0:?}")]
    UnknownSetting(String),

    /// A re-embedding of a shared store stopped: its lock on vector work was lost. What it
    /// did is kept; run again, it goes on from there.
    #[error(
        "the re-embedding stopped: the store's lock on vector work was lost (its connection to the server closed), \
         and another machine may be re-embedding now; the vectors made so far are kept"
    )]
    ReembedInterrupted,

    /// A re-embedding is half done in the store, which must finish before the store is moved.
    #[error("a re-embedding is half done in the source store, so it cannot be moved until it is finished")]
    ReembedUnfinished,

    /// The PostgreSQL database named in the store's URL does not exist on the server (the
    /// connection error's words).
    #[error("{0}: the database does not exist; check its name in the URL, or create it")]
    DatabaseMissing(String),

    /// The PostgreSQL database has no pgvector extension (the `vector` type) and this role
    /// cannot create it; the text says what was met (the server's words when creating it
    /// failed).
    #[error(
        "this PostgreSQL database has no pgvector extension{0}: it must be installed on the server and created in \
         the database once by a superuser (or the database's owner where pgvector is trusted)"
    )]
    PgvectorMissing(String),

    /// The PostgreSQL role may not create the store's schema (named here).
    #[error(
        "this PostgreSQL role may not create the schema “{0}”: an admin creates it for the role once, or grants \
         the role CREATE on the database"
    )]
    SchemaRefused(String),
}

/// What a [`Error::NotFound`] looked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Missing {
    /// A changeset.
    Changeset(ChangesetId),
    /// A memory.
    Memory(MemoryId),
    /// A version of core.md.
    CoreVersion(CoreVersionId),
    /// An agent key, by name.
    AgentKey(String),
}

impl std::fmt::Display for Missing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Changeset(id) => write!(f, "changeset with id {id}"),
            Self::Memory(id) => write!(f, "memory with id {id}"),
            Self::CoreVersion(id) => write!(f, "core version with id {id}"),
            Self::AgentKey(name) => write!(f, "agent key named {name}"),
        }
    }
}

closed_set! {
    /// What a person asked to do with a changeset.
    pub enum ReviewAction ("review action") {
        /// Approve it as proposed.
        Approve = "approved",
        /// Approve it with edited memories.
        Edit = "edited",
        /// Reject it.
        Reject = "rejected",
        /// Take a rejection back.
        Reopen = "reopened",
        /// Build it again from its inputs.
        Rerun = "re-run",
        /// Undo it.
        Revert = "reverted",
    }
}

closed_set! {
    /// The situation an [`Error`] describes, with one stable spelling: what a front end
    /// matches on to choose its own words and its way out.
    pub enum ErrorKind ("error kind") {
        /// The caller's arguments are wrong.
        InvalidArgument = "invalid_argument",
        /// A setting holds a bad value.
        Config = "config",
        /// A file could not be read or written.
        Io = "io",
        /// The database failed.
        Database = "database",
        /// The store holds a value this haema does not know.
        UnknownValue = "unknown_value",
        /// A newer haema wrote the store.
        SchemaTooNew = "schema_too_new",
        /// The configured embedder is not the store's.
        EmbedderMismatch = "embedder_mismatch",
        /// An LLM or embedder failed.
        Provider = "provider",
        /// The local embedding model is not downloaded.
        ModelNotDownloaded = "model_not_downloaded",
        /// core.md is not in the expected form.
        CoreFormat = "core_format",
        /// No such changeset, memory or core version.
        NotFound = "not_found",
        /// The changeset's status does not allow the action.
        WrongStatus = "wrong_status",
        /// A re-run replaced the changeset.
        ReplacedByRerun = "replaced_by_rerun",
        /// A memory the changeset made was replaced since.
        ReplacedSince = "replaced_since",
        /// What the changeset was built on changed.
        Stale = "stale",
        /// A bug.
        Internal = "internal",
        /// The operation does not apply to the store as it is.
        InvalidState = "invalid_state",
        /// The disk holding the store is full.
        DiskFull = "disk_full",
        /// A store with per-user scope was used without a user.
        UserRequired = "user_required",
        /// The OS keyring cannot be used.
        Keyring = "keyring",
    }
}

impl From<Invalid> for Error {
    fn from(invalid: Invalid) -> Self {
        match invalid {
            Invalid::Argument(said) => Self::InvalidArgument(said),
            Invalid::CoreFormat(said) => Self::CoreFormat(said),
        }
    }
}

impl Error {
    pub(crate) fn io(action: &'static str, path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        if source.kind() == std::io::ErrorKind::StorageFull {
            return Self::DiskFull;
        }
        Self::Io {
            action,
            path: path.into(),
            source,
        }
    }

    /// The situation, for front ends that choose their own words.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Self::InvalidArgument(_) => ErrorKind::InvalidArgument,
            Self::Config(_) => ErrorKind::Config,
            Self::Io { .. } => ErrorKind::Io,
            Self::Database(_) => ErrorKind::Database,
            Self::UnknownValue(_) => ErrorKind::UnknownValue,
            Self::SchemaTooNew { .. } => ErrorKind::SchemaTooNew,
            Self::EmbedderMismatch { .. } => ErrorKind::EmbedderMismatch,
            Self::Provider(_) => ErrorKind::Provider,
            Self::ModelNotDownloaded { .. } => ErrorKind::ModelNotDownloaded,
            Self::CoreFormat(_) => ErrorKind::CoreFormat,
            Self::NotFound(_) => ErrorKind::NotFound,
            Self::WrongStatus { .. } => ErrorKind::WrongStatus,
            Self::ReplacedByRerun(_) => ErrorKind::ReplacedByRerun,
            Self::ReplacedSince { .. } => ErrorKind::ReplacedSince,
            Self::Stale(_) => ErrorKind::Stale,
            Self::Internal(_) => ErrorKind::Internal,
            Self::InvalidState(_) => ErrorKind::InvalidState,
            Self::DiskFull => ErrorKind::DiskFull,
            Self::UserRequired => ErrorKind::UserRequired,
            Self::Keyring(_) => ErrorKind::Keyring,
            Self::UnknownSetting(_) => ErrorKind::InvalidArgument,
            Self::ReembedInterrupted | Self::ReembedUnfinished => ErrorKind::InvalidState,
            Self::DatabaseMissing(_) | Self::PgvectorMissing(_) | Self::SchemaRefused(_) => ErrorKind::Database,
        }
    }

    /// True when the error was caused by the caller's arguments (a usage error).
    pub fn is_usage(&self) -> bool {
        matches!(
            self,
            Self::InvalidArgument(_) | Self::NotFound(_) | Self::UserRequired | Self::UnknownSetting(_)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_message_of_the_core_tells_a_person_to_run_a_command() {
        let errors = [
            Error::Stale(ChangesetId::from(4)),
            Error::EmbedderMismatch {
                stored: "local:all-MiniLM-L6-v2".into(),
                stored_dims: 384,
                configured: "openai:text-embedding-3-small".into(),
                configured_dims: 1536,
            },
            Error::WrongStatus {
                changeset: ChangesetId::from(2),
                status: ChangesetStatus::Stale,
                action: ReviewAction::Approve,
            },
            Error::NotFound(Missing::CoreVersion(CoreVersionId::from(9))),
            Error::SchemaTooNew { found: 9, supported: 2 },
            Error::UnknownSetting("recall.budgett".into()),
            Error::ReembedInterrupted,
            Error::ReembedUnfinished,
            Error::DatabaseMissing(
                "cannot connect to PostgreSQL (db error: FATAL: database \"mem\" does not exist)".into(),
            ),
            Error::PgvectorMissing(" (permission denied to create extension \"vector\")".into()),
            Error::SchemaRefused("shared".into()),
            Error::ModelNotDownloaded {
                model: "sentence-transformers/all-MiniLM-L6-v2".into(),
                looked_in: "/cache/hub/models--sentence-transformers--all-MiniLM-L6-v2".into(),
            },
        ];
        for error in errors {
            let text = error.to_string();
            assert!(!text.contains('`') || !text.contains("haema "), "{text}");
            assert!(!text.contains("run "), "{text}");
        }
    }

    #[test]
    fn kinds_have_stable_spellings() {
        assert_eq!(Error::Stale(ChangesetId::from(1)).kind().as_str(), "stale");
        let missing = Error::ModelNotDownloaded {
            model: "org/model".into(),
            looked_in: "/cache/hub/models--org--model".into(),
        };
        assert_eq!(missing.kind().as_str(), "model_not_downloaded");
        assert_eq!(
            missing.to_string(),
            "the embedding model `org/model` is not downloaded: it is not in the Hugging Face cache (looked in /cache/hub/models--org--model)"
        );
        assert_eq!(
            Error::NotFound(Missing::Memory(MemoryId::from("x"))).kind().as_str(),
            "not_found"
        );
        assert_eq!(
            Error::WrongStatus {
                changeset: ChangesetId::from(2),
                status: ChangesetStatus::Committed,
                action: ReviewAction::Approve,
            }
            .to_string(),
            "changeset 2 is committed and cannot be approved"
        );
    }
}
