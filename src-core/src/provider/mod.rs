//! Embedding and LLM providers: the traits the engine calls and their implementations.
//!
//! The engine never talks HTTP itself; it calls [`Embedder`] and [`Llm`]. Real
//! implementations live in [`openai`] (any OpenAI-compatible server), [`gemini`] and, with
//! the `local-embed` feature, `local` (a sentence-transformers model on this machine, its
//! files from the [`hub`]). Deterministic doubles for tests live in `haema_core::fake`
//! behind the `test-util` feature.

mod deadline;
pub mod gemini;
pub(crate) mod http;
pub mod hub;
pub(crate) mod json_text;
#[cfg(feature = "local-embed")]
pub mod local;
pub mod ollama;
pub mod openai;

pub(crate) use deadline::WithDeadline;

use async_trait::async_trait;
use serde_json::Value;

pub use crate::error::provider::{ProviderError, ProviderErrorKind};
pub use http::RetryPolicy;

/// Turns texts into vectors.
///
/// Implementations return one vector of exactly [`Embedder::dims`] finite numbers per
/// input text, in input order. The engine checks this and rejects answers that do not fit.
///
/// A model of your own goes in by implementing it. This toy one hashes letter pairs, so
/// that texts sharing words come out close:
///
/// ```
/// use std::sync::Arc;
/// use async_trait::async_trait;
/// use haema_core::provider::{Embedder, ProviderError};
/// use haema_core::{Memory, SearchMode, Settings};
///
/// struct LetterPairs;
///
/// #[async_trait]
/// impl Embedder for LetterPairs {
///     fn id(&self) -> String {
///         "example:letter-pairs-64".into() // recorded in the store: change it with the model
///     }
///     fn dims(&self) -> usize {
///         64
///     }
///     async fn embed_query(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, ProviderError> {
///         self.embed_document(texts).await
///     }
///     async fn embed_document(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, ProviderError> {
///         Ok(texts.iter().map(|text| {
///             let mut v = vec![0.0f32; 64];
///             let bytes = text.to_lowercase().into_bytes();
///             bytes.windows(2).for_each(|w| v[(w[0] as usize * 31 + w[1] as usize) % 64] += 1.0);
///             let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-6);
///             v.iter().map(|x| x / norm).collect()
///         }).collect())
///     }
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let dir = tempfile::tempdir()?;
/// let memory = Memory::open_with(dir.path(), Settings::default(), None, Some(Arc::new(LetterPairs))).await?;
/// memory.add(vec!["The user drinks green tea.".to_string(), "The flight leaves at nine.".to_string()]).await?;
/// let found = memory.search_records("green teas", 1, SearchMode::Vector).await?;
/// assert_eq!(found.hits[0].memory.content, "The user drinks green tea.");
/// # Ok(()) }
/// ```
#[async_trait]
pub trait Embedder: Send + Sync {
    /// A stable name of the model, recorded in the store (e.g. `openai:text-embedding-3-small`).
    fn id(&self) -> String;
    /// Length of every vector.
    fn dims(&self) -> usize;
    /// Embeds texts used as search queries.
    async fn embed_query(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, ProviderError>;
    /// Embeds texts stored as memories.
    async fn embed_document(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, ProviderError>;
}

/// One structured-output call: a system prompt, a user prompt and the JSON schema the
/// answer must follow.
#[derive(Debug, Clone, Copy)]
pub struct StructuredRequest<'a> {
    /// Short name of the stage (`pre_split`, `reconstruct`, `core_update`), used as the
    /// schema name and in logs.
    pub name: &'a str,
    /// Instructions.
    pub system: &'a str,
    /// The data to work on.
    pub user: &'a str,
    /// JSON schema of the expected answer object.
    pub schema: &'a Value,
}

/// A language model that answers with a JSON object.
///
/// The engine asks it through [`Llm::generate_structured`] only, so wrapping one is easy;
/// this one counts the calls of the model it wraps:
///
/// ```
/// use std::sync::Arc;
/// use std::sync::atomic::{AtomicUsize, Ordering};
/// use async_trait::async_trait;
/// use haema_core::provider::openai::{OpenAiLlm, OpenAiSettings};
/// use haema_core::provider::{Llm, ProviderError, RetryPolicy, StructuredRequest};
///
/// struct Counted<L> {
///     inner: L,
///     calls: AtomicUsize,
/// }
///
/// #[async_trait]
/// impl<L: Llm> Llm for Counted<L> {
///     fn id(&self) -> String {
///         self.inner.id()
///     }
///     async fn generate_structured(&self, request: StructuredRequest<'_>) -> Result<serde_json::Value, ProviderError> {
///         self.calls.fetch_add(1, Ordering::Relaxed);
///         self.inner.generate_structured(request).await
///     }
/// }
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let ollama = OpenAiLlm::new(OpenAiSettings {
///     base_url: "http://127.0.0.1:11434/v1".into(),
///     model: "llama3.1".into(),
///     api_key: None,
///     timeout: std::time::Duration::from_secs(120),
///     retry: RetryPolicy::default(),
/// })?;
/// let llm = Arc::new(Counted { inner: ollama, calls: AtomicUsize::new(0) });
/// let dir = tempfile::tempdir()?;
/// let memory = haema_core::Memory::open_with(dir.path(), Default::default(), Some(llm.clone()), None).await?;
/// // memory.add(…) now goes through `Counted`; `llm.calls` tells how many calls it made.
/// # let _ = memory; assert_eq!(llm.calls.load(Ordering::Relaxed), 0);
/// # Ok(()) }
/// ```
#[async_trait]
pub trait Llm: Send + Sync {
    /// Provider and model name (e.g. `openai:gpt-4o-mini`), recorded in each changeset.
    fn id(&self) -> String;
    /// Returns the model's answer parsed as JSON. The engine validates it against the
    /// stage's type.
    async fn generate_structured(&self, request: StructuredRequest<'_>) -> Result<Value, ProviderError>;
}

/// A deterministic bag-of-words vector: each lower-cased word is hashed (FNV-1a) into one
/// of `dims` buckets and the vector is L2-normalised, so texts that share words are close
/// in cosine distance. Used by the test embedder and by `eval::llm_cost`'s replay.
#[cfg(any(test, feature = "test-util", feature = "eval"))]
pub(crate) fn hash_vector(text: &str, dims: usize) -> Vec<f32> {
    let dims = dims.max(1);
    let mut v = vec![0.0f32; dims];
    for word in text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
        let word = word.to_lowercase();
        let hash = word.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        v[(hash % dims as u64) as usize] += 1.0;
    }
    if v.iter().all(|x| *x == 0.0) {
        v[0] = 1.0;
    }
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    v.iter_mut().for_each(|x| *x /= norm);
    v
}

/// Checks an embedder's answer: one vector per text, each of the right length, finite and
/// not all zero.
pub(crate) fn check_embeddings(
    embedder_id: &str,
    vectors: Vec<Vec<f32>>,
    expected_rows: usize,
    dims: usize,
) -> Result<Vec<Vec<f32>>, ProviderError> {
    let bad = |message: String| ProviderError::new(embedder_id, ProviderErrorKind::BadAnswer, message);
    if vectors.len() != expected_rows {
        return Err(bad(format!(
            "returned {} vectors for {expected_rows} texts",
            vectors.len()
        )));
    }
    for (row, vector) in vectors.iter().enumerate() {
        if vector.len() != dims {
            return Err(bad(format!(
                "returned a vector of {} numbers (text {}) but the store uses {dims}; set HAEMA_EMBED_DIMS to the model's dimension",
                vector.len(),
                row + 1
            )));
        }
        if vector.iter().any(|x| !x.is_finite()) {
            return Err(bad(format!(
                "returned a vector with NaN or infinite values (text {})",
                row + 1
            )));
        }
        if vector.iter().all(|x| *x == 0.0) {
            return Err(bad(format!("returned an all-zero vector (text {})", row + 1)));
        }
    }
    Ok(vectors)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_embeddings_rejects_wrong_shapes_and_values() {
        let ok = check_embeddings("e", vec![vec![1.0, 0.0]], 1, 2);
        assert!(ok.is_ok());
        let rows = check_embeddings("e", vec![vec![1.0, 0.0]], 2, 2).unwrap_err();
        assert!(rows.to_string().contains("1 vectors for 2 texts"), "{rows}");
        let dims = check_embeddings("e", vec![vec![1.0]], 1, 2).unwrap_err();
        assert!(dims.to_string().contains("HAEMA_EMBED_DIMS"), "{dims}");
        let nan = check_embeddings("e", vec![vec![f32::NAN, 1.0]], 1, 2).unwrap_err();
        assert!(nan.to_string().contains("NaN"), "{nan}");
        let zero = check_embeddings("e", vec![vec![0.0, 0.0]], 1, 2).unwrap_err();
        assert!(zero.to_string().contains("all-zero"), "{zero}");
    }
}
