//! Deterministic test doubles for [`Embedder`] and [`Llm`].
//!
//! For unit tests and examples only; the real providers are tested against real HTTP
//! servers in the `haema-tests` crate.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use async_trait::async_trait;
use serde_json::Value;

use crate::provider::{Embedder, Llm, ProviderError, ProviderErrorKind, StructuredRequest};

/// Bag-of-words embedder: each lower-cased word is hashed into one of `dims` buckets and
/// the vector is L2-normalised, so texts that share words are close in cosine distance.
#[derive(Debug, Default)]
pub struct HashEmbedder {
    dims: usize,
    fail: Mutex<bool>,
    calls: Mutex<Vec<(String, usize)>>,
}

impl HashEmbedder {
    /// An embedder producing `dims`-long vectors.
    pub fn new(dims: usize) -> Self {
        Self {
            dims,
            ..Self::default()
        }
    }

    /// Makes every following call fail (or succeed again).
    pub fn set_failing(&self, fail: bool) {
        *lock(&self.fail) = fail;
    }

    /// `(kind, number of texts)` of every call so far; kind is `query` or `document`.
    pub fn calls(&self) -> Vec<(String, usize)> {
        lock(&self.calls).clone()
    }

    /// The vector of one text.
    pub fn vector(&self, text: &str) -> Vec<f32> {
        crate::provider::hash_vector(text, self.dims)
    }

    fn embed(&self, kind: &str, texts: &[String]) -> Result<Vec<Vec<f32>>, ProviderError> {
        lock(&self.calls).push((kind.to_owned(), texts.len()));
        if *lock(&self.fail) {
            return Err(ProviderError::new(
                self.id(),
                ProviderErrorKind::Network,
                "embedder switched off by the test",
            ));
        }
        Ok(texts.iter().map(|t| self.vector(t)).collect())
    }
}

#[async_trait]
impl Embedder for HashEmbedder {
    fn id(&self) -> String {
        format!("test:hash-{}", self.dims)
    }

    fn dims(&self) -> usize {
        self.dims
    }

    async fn embed_query(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, ProviderError> {
        self.embed("query", texts)
    }

    async fn embed_document(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, ProviderError> {
        self.embed("document", texts)
    }
}

/// One recorded LLM call.
#[derive(Debug, Clone)]
pub struct RecordedCall {
    /// Stage name.
    pub name: String,
    /// System prompt.
    pub system: String,
    /// User prompt.
    pub user: String,
}

/// An LLM whose answers are scripted per stage. A stage with no scripted answer left gets
/// a default: `pre_split` returns the text as one item, `reconstruct` returns related and
/// new contents unchanged as `complete` (with no `core_relevant`, so the core step runs, as
/// with a model that does not answer it), `core_update` declines to update.
#[derive(Debug, Default)]
pub struct ScriptedLlm {
    answers: Mutex<HashMap<String, VecDeque<Result<Value, ProviderError>>>>,
    calls: Mutex<Vec<RecordedCall>>,
}

impl ScriptedLlm {
    /// An LLM with no scripted answers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Queues an answer for the next call of `stage`.
    pub fn push(&self, stage: &str, answer: Value) -> &Self {
        lock(&self.answers)
            .entry(stage.to_owned())
            .or_default()
            .push_back(Ok(answer));
        self
    }

    /// Queues a failure for the next call of `stage`.
    pub fn push_error(&self, stage: &str, kind: ProviderErrorKind) -> &Self {
        let err = ProviderError::new("test:scripted", kind, "scripted failure");
        lock(&self.answers)
            .entry(stage.to_owned())
            .or_default()
            .push_back(Err(err));
        self
    }

    /// Every call so far.
    pub fn calls(&self) -> Vec<RecordedCall> {
        lock(&self.calls).clone()
    }

    /// Calls of one stage so far.
    pub fn calls_of(&self, stage: &str) -> Vec<RecordedCall> {
        self.calls().into_iter().filter(|c| c.name == stage).collect()
    }
}

/// The decoded items of the fenced block `<tag>` of a haema prompt (`- "json string"`
/// lines), e.g. `block_items(user, "new_contents")`.
pub fn block_items(prompt: &str, tag: &str) -> Vec<String> {
    crate::pipeline::prompts::block_items(prompt, tag)
}

fn default_answer(request: &StructuredRequest<'_>) -> Value {
    // Echo the items of the input blocks back.
    let items = |tags: &[&str]| -> Vec<String> { tags.iter().flat_map(|t| block_items(request.user, t)).collect() };
    match request.name {
        "pre_split" => serde_json::json!({ "contents": items(&["raw_input"]) }),
        "reconstruct" | "refine" => {
            serde_json::json!({ "memories": items(&["related_memories", "new_contents"]), "coverage": "complete" })
        }
        _ => serde_json::json!({ "should_update": false, "core_markdown": null }),
    }
}

#[async_trait]
impl Llm for ScriptedLlm {
    fn id(&self) -> String {
        "test:scripted".to_owned()
    }

    async fn generate_structured(&self, request: StructuredRequest<'_>) -> Result<Value, ProviderError> {
        lock(&self.calls).push(RecordedCall {
            name: request.name.to_owned(),
            system: request.system.to_owned(),
            user: request.user.to_owned(),
        });
        let scripted = lock(&self.answers).get_mut(request.name).and_then(VecDeque::pop_front);
        scripted.unwrap_or_else(|| Ok(default_answer(&request)))
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
