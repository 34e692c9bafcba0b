//! Google Gemini: structured output with a response schema, and embeddings with separate
//! query and document task types and an output dimensionality.

use async_trait::async_trait;
use serde_json::{Map, Value, json};

use super::http::{JsonClient, excerpt};
use super::json_text::extract_object;
use super::openai::OpenAiSettings;
use super::{Embedder, Llm, ProviderError, ProviderErrorKind, StructuredRequest, check_embeddings};

/// The public Gemini API.
pub use crate::types::provider_kind::GEMINI_BASE_URL as DEFAULT_BASE_URL;

fn model_url(base: &str, model: &str, method: &str) -> String {
    let model = model.strip_prefix("models/").unwrap_or(model);
    format!("{}/models/{model}:{method}", base.trim_end_matches('/'))
}

fn client(settings: &OpenAiSettings) -> Result<JsonClient, ProviderError> {
    let id = format!("gemini:{}", settings.model);
    Ok(
        JsonClient::new(id, settings.api_key.clone(), settings.timeout, settings.retry)?
            .with_key_header("x-goog-api-key"),
    )
}

/// A JSON schema in the OpenAPI subset Gemini's `responseSchema` takes: upper-case types,
/// `nullable` instead of `["x", "null"]`, no `additionalProperties`.
pub(crate) fn to_gemini_schema(schema: &Value) -> Value {
    let Value::Object(map) = schema else {
        return schema.clone();
    };
    let mut out = Map::new();
    for (key, value) in map {
        match key.as_str() {
            "additionalProperties" | "$schema" | "title" => {}
            "type" => match value {
                Value::String(t) => {
                    out.insert("type".into(), Value::String(t.to_uppercase()));
                }
                Value::Array(types) => {
                    let real: Vec<&str> = types
                        .iter()
                        .filter_map(Value::as_str)
                        .filter(|t| *t != "null")
                        .collect();
                    if let Some(t) = real.first() {
                        out.insert("type".into(), Value::String(t.to_uppercase()));
                    }
                    if types.iter().any(|t| t == "null") {
                        out.insert("nullable".into(), Value::Bool(true));
                    }
                }
                other => {
                    out.insert("type".into(), other.clone());
                }
            },
            "properties" => {
                let props = value
                    .as_object()
                    .map(|p| {
                        p.iter()
                            .map(|(k, v)| (k.clone(), to_gemini_schema(v)))
                            .collect::<Map<_, _>>()
                    })
                    .unwrap_or_default();
                out.insert("properties".into(), Value::Object(props));
            }
            "items" => {
                out.insert("items".into(), to_gemini_schema(value));
            }
            _ => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    Value::Object(out)
}

/// `generateContent` with `responseMimeType: application/json` and a response schema.
///
/// ```
/// use std::time::Duration;
/// use haema_core::provider::gemini::{DEFAULT_BASE_URL, GeminiEmbedder, GeminiLlm};
/// use haema_core::provider::openai::OpenAiSettings;
///
/// let settings = OpenAiSettings {
///     base_url: DEFAULT_BASE_URL.into(),
///     model: "gemini-2.5-flash".into(),
///     api_key: std::env::var("HAEMA_LLM_API_KEY").ok(),
///     timeout: Duration::from_secs(120),
///     retry: Default::default(),
/// };
/// let llm = GeminiLlm::new(settings.clone())?; // no request is made yet
/// let embedder = GeminiEmbedder::new(OpenAiSettings { model: "gemini-embedding-001".into(), ..settings }, 768)?;
/// # let _ = (llm, embedder);
/// # Ok::<(), haema_core::provider::ProviderError>(())
/// ```
#[derive(Debug)]
pub struct GeminiLlm {
    http: JsonClient,
    url: String,
}

impl GeminiLlm {
    /// Builds the client; no request is made.
    pub fn new(settings: OpenAiSettings) -> Result<Self, ProviderError> {
        Ok(Self {
            http: client(&settings)?,
            url: model_url(&settings.base_url, &settings.model, "generateContent"),
        })
    }
}

#[async_trait]
impl Llm for GeminiLlm {
    fn id(&self) -> String {
        self.http.provider_id().to_owned()
    }

    async fn generate_structured(&self, request: StructuredRequest<'_>) -> Result<Value, ProviderError> {
        let body = json!({
            "systemInstruction": {"parts": [{"text": request.system}]},
            "contents": [{"role": "user", "parts": [{"text": request.user}]}],
            "generationConfig": {
                "temperature": 0,
                "responseMimeType": "application/json",
                "responseSchema": to_gemini_schema(request.schema),
            },
        });
        let answer = self.http.post_json(&self.url, &body).await?;
        let bad = |message: String| ProviderError::new(self.id(), ProviderErrorKind::BadAnswer, message);
        if let Some(reason) = answer.pointer("/promptFeedback/blockReason").and_then(Value::as_str) {
            return Err(bad(format!("the prompt was blocked ({reason})")));
        }
        let candidate = answer
            .pointer("/candidates/0")
            .ok_or_else(|| bad(format!("answer has no candidates: {}", excerpt(&answer.to_string()))))?;
        let text: String = candidate
            .pointer("/content/parts")
            .and_then(Value::as_array)
            .map(|parts| {
                parts
                    .iter()
                    .filter_map(|p| p.get("text").and_then(Value::as_str))
                    .collect()
            })
            .unwrap_or_default();
        if text.is_empty() {
            let reason = candidate
                .get("finishReason")
                .and_then(Value::as_str)
                .unwrap_or("unknown");
            return Err(bad(format!("the answer holds no text (finish reason {reason})")));
        }
        extract_object(&text).ok_or_else(|| bad(format!("the model's text holds no JSON object: {}", excerpt(&text))))
    }
}

/// `batchEmbedContents` with `RETRIEVAL_QUERY` / `RETRIEVAL_DOCUMENT` task types.
#[derive(Debug)]
pub struct GeminiEmbedder {
    http: JsonClient,
    url: String,
    model: String,
    dims: usize,
}

impl GeminiEmbedder {
    /// Builds the client; `dims` is sent as `outputDimensionality`.
    pub fn new(settings: OpenAiSettings, dims: usize) -> Result<Self, ProviderError> {
        let http = client(&settings)?;
        if dims == 0 {
            return Err(ProviderError::new(
                http.provider_id(),
                ProviderErrorKind::Config,
                "the embedding dimension must be > 0 (HAEMA_EMBED_DIMS)",
            ));
        }
        let model = settings
            .model
            .strip_prefix("models/")
            .unwrap_or(&settings.model)
            .to_owned();
        Ok(Self {
            url: model_url(&settings.base_url, &model, "batchEmbedContents"),
            http,
            model,
            dims,
        })
    }

    async fn embed(&self, texts: &[String], task: &str) -> Result<Vec<Vec<f32>>, ProviderError> {
        if texts.is_empty() {
            return Ok(Vec::new());
        }
        let requests: Vec<Value> = texts
            .iter()
            .map(|t| json!({"model": format!("models/{}", self.model), "content": {"parts": [{"text": t}]}, "taskType": task, "outputDimensionality": self.dims}))
            .collect();
        let answer = self.http.post_json(&self.url, &json!({"requests": requests})).await?;
        let bad = |message: String| ProviderError::new(self.id(), ProviderErrorKind::BadAnswer, message);
        let rows = answer.get("embeddings").and_then(Value::as_array).ok_or_else(|| {
            bad(format!(
                "answer has no `embeddings` list: {}",
                excerpt(&answer.to_string())
            ))
        })?;
        let vectors = rows
            .iter()
            .enumerate()
            .map(|(i, row)| {
                row.get("values")
                    .and_then(Value::as_array)
                    .ok_or_else(|| bad(format!("embedding {i} has no `values`")))?
                    .iter()
                    .map(|x| {
                        x.as_f64()
                            .map(|x| x as f32)
                            .ok_or_else(|| bad(format!("embedding {i} holds a value that is not a number")))
                    })
                    .collect::<Result<Vec<f32>, _>>()
            })
            .collect::<Result<Vec<_>, _>>()?;
        check_embeddings(&self.id(), vectors, texts.len(), self.dims)
    }
}

#[async_trait]
impl Embedder for GeminiEmbedder {
    fn id(&self) -> String {
        self.http.provider_id().to_owned()
    }

    fn dims(&self) -> usize {
        self.dims
    }

    async fn embed_query(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, ProviderError> {
        self.embed(texts, "RETRIEVAL_QUERY").await
    }

    async fn embed_document(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, ProviderError> {
        self.embed(texts, "RETRIEVAL_DOCUMENT").await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schemas_are_translated_to_gemini_form() {
        let schema = json!({
            "type": "object",
            "additionalProperties": false,
            "properties": {
                "should_update": {"type": "boolean"},
                "core_markdown": {"type": ["string", "null"], "description": "d"},
                "memories": {"type": "array", "items": {"type": "string"}},
                "coverage": {"type": "string", "enum": ["complete", "incomplete"]}
            },
            "required": ["should_update"]
        });
        assert_eq!(
            to_gemini_schema(&schema),
            json!({
                "type": "OBJECT",
                "properties": {
                    "should_update": {"type": "BOOLEAN"},
                    "core_markdown": {"type": "STRING", "nullable": true, "description": "d"},
                    "memories": {"type": "ARRAY", "items": {"type": "STRING"}},
                    "coverage": {"type": "STRING", "enum": ["complete", "incomplete"]}
                },
                "required": ["should_update"]
            })
        );
    }

    #[test]
    fn model_urls() {
        assert_eq!(
            model_url("https://g/v1beta/", "models/gemini-2.5-flash", "generateContent"),
            "https://g/v1beta/models/gemini-2.5-flash:generateContent"
        );
    }
}
