//! What can go wrong finding or downloading a model. Each message says what failed and
//! where; front ends add what to do about it.

use std::path::PathBuf;

/// A failure of [`super::Hub`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum HubError {
    /// Offline mode is on and the cache lacks a complete snapshot.
    #[error("{repo} is not complete in the Hugging Face cache {} and offline mode forbids downloading it", cache.display())]
    Offline {
        /// The repository, `org/name`.
        repo: String,
        /// The cache folder looked in.
        cache: PathBuf,
    },
    /// No cache folder: none configured and no home folder.
    #[error(
        "cannot find the Hugging Face cache folder: HF_HUB_CACHE and HF_HOME are unset and there is no home folder"
    )]
    NoCacheFolder,
    /// A repository name or file name that cannot name a cache folder safely.
    #[error("`{name}` is not a valid {what}")]
    InvalidName {
        /// What the name was for: "repository name", "file name", "revision".
        what: &'static str,
        /// The name.
        name: String,
    },
    /// The server could not be reached or the connection failed.
    #[error("cannot reach {url}: {reason}")]
    Unreachable {
        /// The URL asked for.
        url: String,
        /// Why, as the HTTP client saw it.
        reason: String,
    },
    /// The Hub has no such repository (or it is private or gated).
    #[error("the Hugging Face Hub has no repository {repo}")]
    RepoNotFound {
        /// The repository.
        repo: String,
    },
    /// The repository has no such branch, tag or commit.
    #[error("the repository {repo} has no revision {revision}")]
    RevisionNotFound {
        /// The repository.
        repo: String,
        /// The revision asked for.
        revision: String,
    },
    /// A required file is not in the repository.
    #[error("the repository {repo} has no file {file}")]
    NotFound {
        /// The repository.
        repo: String,
        /// The file, relative to the repository.
        file: String,
    },
    /// The server answered with an unexpected status.
    #[error("{url} answered HTTP {status}")]
    Http {
        /// The URL asked for.
        url: String,
        /// The status code.
        status: u16,
    },
    /// The server's answer lacks what a Hugging Face Hub sends, or makes no sense.
    #[error("{url} did not answer like a Hugging Face Hub: {reason}")]
    BadResponse {
        /// The URL asked for.
        url: String,
        /// What was wrong.
        reason: String,
    },
    /// The downloaded bytes do not hash to the file's published hash.
    #[error("the download of {file} is corrupt: expected hash {expected}, got {actual}")]
    HashMismatch {
        /// The file, relative to the repository.
        file: String,
        /// The hash the Hub published (the file's etag).
        expected: String,
        /// The hash of what arrived.
        actual: String,
    },
    /// The download has another length than the Hub said.
    #[error("the download of {file} has {actual} bytes instead of {expected}")]
    SizeMismatch {
        /// The file, relative to the repository.
        file: String,
        /// The size the Hub published.
        expected: u64,
        /// The bytes received.
        actual: u64,
    },
    /// The HTTP client could not be built.
    #[error("cannot set up the HTTP client: {reason}")]
    Client {
        /// Why.
        reason: String,
    },
    /// Reading or writing the cache failed.
    #[error("cannot access {}: {source}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
}

impl HubError {
    /// An I/O error on `path`.
    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.into();
        move |source| Self::Io { path, source }
    }

    /// Whether a cached snapshot may stand in: the Hub could not be asked (no connection,
    /// a server error), as opposed to the Hub saying no or the download being wrong.
    pub(crate) fn is_connectivity(&self) -> bool {
        match self {
            Self::Unreachable { .. } => true,
            Self::Http { status, .. } => *status == 408 || *status == 429 || *status >= 500,
            _ => false,
        }
    }
}
