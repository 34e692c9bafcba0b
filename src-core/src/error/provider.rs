//! Provider errors, classified so that people see what to do.

use std::fmt;

/// What kind of failure a provider call ended in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProviderErrorKind {
    /// The key was missing, wrong or lacks permission (401/403).
    Auth,
    /// Too many requests (429), still failing after the retries.
    RateLimit,
    /// The server failed (5xx), still failing after the retries.
    Server,
    /// No answer in time, still failing after the retries.
    Timeout,
    /// The server could not be reached at all.
    Network,
    /// The server rejected the request (other 4xx).
    BadRequest,
    /// The answer arrived but is not what was asked for.
    BadAnswer,
    /// The provider is not configured correctly.
    Config,
}

impl ProviderErrorKind {
    fn advice(self) -> &'static str {
        match self {
            Self::Auth => "check the API key (HAEMA_LLM_API_KEY / HAEMA_EMBED_API_KEY)",
            Self::RateLimit => "the provider is rate limiting; wait and try again",
            Self::Server => "the provider is failing; try again later",
            Self::Timeout => "the provider did not answer in time; try again or raise the timeout",
            Self::Network => "check the base URL and that the server is running",
            Self::BadRequest => "check the model name and settings",
            Self::BadAnswer => "the model's answer was unusable; try again or use a stronger model",
            Self::Config => "fix the setting named above",
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Self::Auth => "refused the credentials",
            Self::RateLimit => "is rate limiting",
            Self::Server => "had a server error",
            Self::Timeout => "timed out",
            Self::Network => "could not be reached",
            Self::BadRequest => "rejected the request",
            Self::BadAnswer => "gave an unusable answer",
            Self::Config => "is misconfigured",
        }
    }

    /// Whether a call that failed this way may succeed when simply tried again.
    pub fn is_transient(self) -> bool {
        matches!(self, Self::RateLimit | Self::Server | Self::Timeout)
    }
}

/// A failed provider call: which provider, what kind of failure, and the provider's own words.
///
/// ```
/// use haema_core::provider::{ProviderError, ProviderErrorKind};
/// let error = ProviderError::new("openai:gpt-4o-mini", ProviderErrorKind::RateLimit, "429 Too Many Requests");
/// assert!(error.kind.is_transient()); // worth trying again later
/// println!("{error}"); // names the provider, what happened and what to do
/// ```
#[derive(Debug, Clone, thiserror::Error)]
pub struct ProviderError {
    /// Provider id, e.g. `openai:gpt-4o-mini`.
    pub provider: String,
    /// Classification.
    pub kind: ProviderErrorKind,
    /// Detail, including the provider's own message where it gave one.
    pub message: String,
}

impl ProviderError {
    /// Makes an error.
    pub fn new(provider: impl Into<String>, kind: ProviderErrorKind, message: impl Into<String>) -> Self {
        Self {
            provider: provider.into(),
            kind,
            message: message.into(),
        }
    }
}

impl fmt::Display for ProviderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "provider `{}` {}: {}; {}",
            self.provider,
            self.kind.describe(),
            self.message,
            self.kind.advice()
        )
    }
}
