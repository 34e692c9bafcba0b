//! An AI on this computer: finding an Ollama server and the models it has installed, so
//! that a person can pick one instead of typing a name. Ollama answers OpenAI's API under
//! `/v1`, which is how haema then talks to it.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::{ProviderError, ProviderErrorKind};

/// Where Ollama listens unless told otherwise.
pub const DEFAULT_URL: &str = "http://127.0.0.1:11434";

/// One model installed in Ollama.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct LocalModel {
    /// Its name as Ollama knows it (`llama3.1:8b`), which is what `llm.model` is set to.
    pub name: String,
    /// Its size on disk in bytes (0 when Ollama does not say).
    pub size_bytes: f64,
    /// Whether it makes embeddings (for search) rather than text.
    pub embedding: bool,
}

#[derive(Deserialize)]
struct Tags {
    models: Vec<Tag>,
}

#[derive(Deserialize)]
struct Tag {
    name: String,
    #[serde(default)]
    size: f64,
    #[serde(default)]
    details: Details,
}

#[derive(Deserialize, Default)]
struct Details {
    #[serde(default)]
    family: String,
}

/// The Ollama server to look at: `HAEMA_OLLAMA_URL` (as `env` reads it), else
/// [`DEFAULT_URL`].
///
/// ```
/// use haema_core::provider::ollama::{DEFAULT_URL, server_from_env};
/// assert_eq!(server_from_env(|_| None), DEFAULT_URL);
/// assert_eq!(server_from_env(|_| Some(" http://10.0.0.5:11434 ".into())), "http://10.0.0.5:11434");
/// ```
pub fn server_from_env(env: impl Fn(&str) -> Option<String>) -> String {
    env("HAEMA_OLLAMA_URL")
        .map(|u| u.trim().to_owned())
        .filter(|u| !u.is_empty())
        .unwrap_or_else(|| DEFAULT_URL.to_owned())
}

/// The base URL haema's OpenAI-compatible client uses for the Ollama at `server`.
///
/// ```
/// assert_eq!(haema_core::provider::ollama::api_base("http://127.0.0.1:11434/"), "http://127.0.0.1:11434/v1");
/// ```
pub fn api_base(server: &str) -> String {
    format!("{}/v1", server.trim().trim_end_matches('/'))
}

/// The models installed in the Ollama at `server` (`http://127.0.0.1:11434`), text models
/// first; an error when nothing answers there within ten seconds or what answers is not
/// Ollama.
///
/// # Errors
/// [`ProviderErrorKind::Network`] when nothing answers, [`ProviderErrorKind::BadAnswer`]
/// when the answer is not Ollama's list of models.
pub async fn installed_models(server: &str) -> Result<Vec<LocalModel>, ProviderError> {
    let url = format!("{}/api/tags", server.trim().trim_end_matches('/'));
    let failed = |kind, message: String| ProviderError::new("ollama", kind, message);
    let client = reqwest::Client::builder()
        // Nothing listening is refused at once; a busy machine's Ollama (or one loading a
        // model) may take seconds to list its models, and a wrong "not running" is worse.
        .timeout(Duration::from_secs(10))
        .build()
        .map_err(|e| failed(ProviderErrorKind::Config, format!("cannot build HTTP client: {e}")))?;
    let response = client
        .get(&url)
        .send()
        .await
        .map_err(|e| failed(ProviderErrorKind::Network, format!("nothing answers at {url}: {e}")))?;
    if !response.status().is_success() {
        return Err(failed(
            ProviderErrorKind::BadAnswer,
            format!(
                "{url} answered HTTP {}: it does not look like Ollama",
                response.status().as_u16()
            ),
        ));
    }
    let tags: Tags = response.json().await.map_err(|e| {
        failed(
            ProviderErrorKind::BadAnswer,
            format!("{url} did not answer with Ollama's list of models: {e}"),
        )
    })?;
    let mut models: Vec<LocalModel> = tags
        .models
        .into_iter()
        .filter(|t| !t.name.trim().is_empty())
        .map(|t| LocalModel {
            embedding: is_embedding(&t.name, &t.details.family),
            name: t.name,
            size_bytes: t.size.max(0.0),
        })
        .collect();
    models.sort_by(|a, b| a.embedding.cmp(&b.embedding).then_with(|| a.name.cmp(&b.name)));
    Ok(models)
}

/// Whether a model makes embeddings, from its name and family as Ollama lists them.
fn is_embedding(name: &str, family: &str) -> bool {
    let name = name.to_lowercase();
    ["embed", "minilm", "bge-", "e5-", "gte-"]
        .iter()
        .any(|w| name.contains(w))
        || matches!(family, "bert" | "nomic-bert" | "xlm-roberta")
}

#[cfg(test)]
mod tests {
    use super::is_embedding;

    #[test]
    fn embedding_models_are_told_from_text_models() {
        assert!(is_embedding("nomic-embed-text:latest", "nomic-bert"));
        assert!(is_embedding("all-minilm:l6-v2", "bert"));
        assert!(is_embedding("mxbai-embed-large", ""));
        assert!(!is_embedding("llama3.1:8b", "llama"));
        assert!(!is_embedding("qwen2.5:7b", "qwen2"));
    }
}
