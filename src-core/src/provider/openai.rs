//! Clients for OpenAI-compatible servers: OpenAI, Ollama, llama.cpp, vLLM, LM Studio.
//!
//! Chat completions use `response_format: {"type": "json_schema", ...}` with the stage's
//! schema; embeddings use `/embeddings` with `input` as a list.

use std::time::Duration;

use async_trait::async_trait;
use serde_json::{Value, json};

use super::http::{JsonClient, excerpt};
use super::json_text::extract_object;
use super::{Embedder, Llm, ProviderError, ProviderErrorKind, RetryPolicy, StructuredRequest, check_embeddings};

/// Where and how to reach an OpenAI-compatible server.
///
/// ```
/// use std::time::Duration;
/// use haema_core::provider::openai::{OpenAiEmbedder, OpenAiLlm, OpenAiSettings};
/// use haema_core::provider::{Embedder, Llm};
///
/// let local = OpenAiSettings {
///     base_url: "http://127.0.0.1:11434/v1".into(), // Ollama; llama.cpp, vLLM and LM Studio alike
///     model: "llama3.1".into(),
///     api_key: None,
///     timeout: Duration::from_secs(120),
///     retry: Default::default(),
/// };
/// let llm = OpenAiLlm::new(local.clone())?; // no request is made yet
/// assert_eq!(llm.id(), "openai:llama3.1");
/// let embedder = OpenAiEmbedder::new(OpenAiSettings { model: "nomic-embed-text".into(), ..local }, 768, false)?;
/// assert_eq!(embedder.dims(), 768);
/// # Ok::<(), haema_core::provider::ProviderError>(())
/// ```
#[derive(Debug, Clone)]
pub struct OpenAiSettings {
    /// Base URL including the version path, e.g. `https://api.openai.com/v1` or
    /// `http://127.0.0.1:11434/v1`.
    pub base_url: String,
    /// Model name.
    pub model: String,
    /// Bearer token, if the server needs one.
    pub api_key: Option<String>,
    /// Timeout of one HTTP attempt.
    pub timeout: Duration,
    /// Retries of transient failures.
    pub retry: RetryPolicy,
}

fn endpoint(base_url: &str, path: &str) -> String {
    format!("{}/{path}", base_url.trim_end_matches('/'))
}

/// How the answer's shape is asked for; a server that rejects one is asked the next way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OutputMode {
    /// `response_format: {"type": "json_schema", ...}`.
    Schema = 0,
    /// `response_format: {"type": "json_object"}` with the schema in the prompt.
    JsonObject = 1,
    /// No `response_format`; the schema in the prompt only.
    Prompt = 2,
}

impl OutputMode {
    fn from_u8(value: u8) -> Self {
        match value {
            0 => Self::Schema,
            1 => Self::JsonObject,
            _ => Self::Prompt,
        }
    }
}

/// Chat-completions LLM with JSON-schema structured output, falling back to JSON mode and
/// then to a schema in the prompt for servers that do not support it.
#[derive(Debug)]
pub struct OpenAiLlm {
    http: JsonClient,
    url: String,
    model: String,
    mode: std::sync::atomic::AtomicU8,
}

/// Whether a 400 answer says the `response_format` asked for is not supported.
fn rejects_response_format(err: &ProviderError) -> bool {
    let message = err.message.to_lowercase();
    err.kind == ProviderErrorKind::BadRequest
        && ["response_format", "json_schema", "json_object", "structured output"]
            .iter()
            .any(|k| message.contains(k))
}

/// The system prompt with the answer's schema spelled out, for servers without schema support.
fn schema_in_prompt(system: &str, schema: &Value) -> String {
    format!("{system}\n\nAnswer with one JSON object only, no other text, that follows this JSON schema:\n{schema}")
}

impl OpenAiLlm {
    /// Builds the client; no request is made.
    pub fn new(settings: OpenAiSettings) -> Result<Self, ProviderError> {
        let id = format!("openai:{}", settings.model);
        let http = JsonClient::new(id, settings.api_key, settings.timeout, settings.retry)?;
        Ok(Self {
            http,
            url: endpoint(&settings.base_url, "chat/completions"),
            model: settings.model,
            mode: std::sync::atomic::AtomicU8::new(OutputMode::Schema as u8),
        })
    }
}

#[async_trait]
impl Llm for OpenAiLlm {
    fn id(&self) -> String {
        self.http.provider_id().to_owned()
    }

    async fn generate_structured(&self, request: StructuredRequest<'_>) -> Result<Value, ProviderError> {
        use std::sync::atomic::Ordering;
        loop {
            let mode = OutputMode::from_u8(self.mode.load(Ordering::Relaxed));
            let system = match mode {
                OutputMode::Schema => request.system.to_owned(),
                OutputMode::JsonObject | OutputMode::Prompt => schema_in_prompt(request.system, request.schema),
            };
            let mut body = json!({
                "model": self.model,
                "temperature": 0,
                "messages": [
                    {"role": "system", "content": system},
                    {"role": "user", "content": request.user},
                ],
            });
            match mode {
                OutputMode::Schema => {
                    body["response_format"] = json!({"type": "json_schema", "json_schema": {"name": request.name, "strict": true, "schema": request.schema}});
                }
                OutputMode::JsonObject => body["response_format"] = json!({"type": "json_object"}),
                OutputMode::Prompt => {}
            }
            match self.http.post_json(&self.url, &body).await {
                Ok(answer) => return self.read_answer(&answer),
                Err(err) if mode != OutputMode::Prompt && rejects_response_format(&err) => {
                    // Remember for later calls: this server does not take that format.
                    self.mode.store(mode as u8 + 1, Ordering::Relaxed);
                }
                Err(err) => return Err(err),
            }
        }
    }
}

impl OpenAiLlm {
    fn read_answer(&self, answer: &Value) -> Result<Value, ProviderError> {
        let bad = |message: String| ProviderError::new(self.id(), ProviderErrorKind::BadAnswer, message);
        let message = answer.pointer("/choices/0/message").ok_or_else(|| {
            bad(format!(
                "answer has no choices[0].message: {}",
                excerpt(&answer.to_string())
            ))
        })?;
        if let Some(refusal) = message.get("refusal").and_then(Value::as_str) {
            return Err(bad(format!("the model refused: {}", excerpt(refusal))));
        }
        let content = message
            .get("content")
            .and_then(Value::as_str)
            .ok_or_else(|| bad("answer has no text content".to_owned()))?;
        extract_object(content)
            .ok_or_else(|| bad(format!("the model's text holds no JSON object: {}", excerpt(content))))
    }
}

/// `/embeddings` client. The same model embeds queries and documents.
#[derive(Debug, Clone)]
pub struct OpenAiEmbedder {
    http: JsonClient,
    url: String,
    model: String,
    dims: usize,
    send_dimensions: bool,
}

impl OpenAiEmbedder {
    /// Builds the client. `dims` is the vector length the store expects; when
    /// `send_dimensions` is true it is also sent as the `dimensions` parameter (models such
    /// as `text-embedding-3-*` shorten their vectors to it).
    pub fn new(settings: OpenAiSettings, dims: usize, send_dimensions: bool) -> Result<Self, ProviderError> {
        let id = format!("openai:{}", settings.model);
        if dims == 0 {
            return Err(ProviderError::new(
                id,
                ProviderErrorKind::Config,
                "the embedding dimension must be > 0 (HAEMA_EMBED_DIMS)",
            ));
        }
        let http = JsonClient::new(id, settings.api_key, settings.timeout, settings.retry)?;
        Ok(Self {
            http,
            url: endpoint(&settings.base_url, "embeddings"),
            model: settings.model,
            dims,
            send_dimensions,
        })
    }

    async fn embed(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, ProviderError> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let mut body = json!({"model": self.model, "input": texts, "encoding_format": "float"});
        if self.send_dimensions {
            body["dimensions"] = json!(self.dims);
        }
        let answer = self.http.post_json(&self.url, &body).await?;
        let vectors =
            parse_embeddings(&answer).map_err(|m| ProviderError::new(self.id(), ProviderErrorKind::BadAnswer, m))?;
        check_embeddings(&self.id(), vectors, texts.len(), self.dims)
    }
}

fn parse_embeddings(answer: &Value) -> Result<Vec<Vec<f32>>, String> {
    let data = answer
        .get("data")
        .and_then(Value::as_array)
        .ok_or_else(|| format!("answer has no `data` list: {}", excerpt(&answer.to_string())))?;
    let mut rows: Vec<(usize, Vec<f32>)> = Vec::with_capacity(data.len());
    for (position, item) in data.iter().enumerate() {
        let index = item
            .get("index")
            .and_then(Value::as_u64)
            .map_or(position, |i| i as usize);
        let numbers = item
            .get("embedding")
            .and_then(Value::as_array)
            .ok_or_else(|| format!("item {position} has no `embedding` list"))?;
        let vector = numbers
            .iter()
            .map(|n| {
                n.as_f64()
                    .map(|x| x as f32)
                    .ok_or_else(|| format!("item {position} holds a value that is not a number"))
            })
            .collect::<Result<Vec<f32>, String>>()?;
        rows.push((index, vector));
    }
    rows.sort_by_key(|(index, _)| *index);
    Ok(rows.into_iter().map(|(_, v)| v).collect())
}

#[async_trait]
impl Embedder for OpenAiEmbedder {
    fn id(&self) -> String {
        self.http.provider_id().to_owned()
    }

    fn dims(&self) -> usize {
        self.dims
    }

    async fn embed_query(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, ProviderError> {
        self.embed(texts).await
    }

    async fn embed_document(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, ProviderError> {
        self.embed(texts).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embeddings_are_ordered_by_index() {
        let answer = json!({"data": [
            {"index": 1, "embedding": [0.0, 1.0]},
            {"index": 0, "embedding": [1.0, 0.0]},
        ]});
        assert_eq!(parse_embeddings(&answer).unwrap(), vec![vec![1.0, 0.0], vec![0.0, 1.0]]);
    }

    #[test]
    fn malformed_embeddings_are_named() {
        assert!(parse_embeddings(&json!({"x": 1})).unwrap_err().contains("no `data`"));
        let err = parse_embeddings(&json!({"data": [{"embedding": ["a"]}]})).unwrap_err();
        assert!(err.contains("not a number"), "{err}");
    }

    #[test]
    fn endpoint_joins_without_double_slash() {
        assert_eq!(endpoint("http://h/v1/", "embeddings"), "http://h/v1/embeddings");
    }
}
