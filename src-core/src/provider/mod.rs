//! Embedding and LLM providers: the traits the engine calls and their implementations.
//!
//! The engine never talks HTTP itself; it calls [`Embedder`] and [`Llm`]. Real
//! implementations live in [`openai`] (any OpenAI-compatible server). Deterministic
//! doubles for tests live in [`fake`] behind the `test-util` feature.

mod deadline;
mod error;
#[cfg(any(test, feature = "test-util"))]
pub mod fake;
pub mod gemini;
mod http;
pub mod hub;
pub(crate) mod json_text;
#[cfg(feature = "local-embed")]
pub mod local;
pub mod openai;

pub(crate) use deadline::WithDeadline;

use async_trait::async_trait;
use serde_json::Value;

pub use error::{ProviderError, ProviderErrorKind};
pub use http::RetryPolicy;

/// Turns texts into vectors.
///
/// Implementations return one vector of exactly [`Embedder::dims`] finite numbers per
/// input text, in input order. The engine checks this and rejects answers that do not fit.
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
/// in cosine distance. Used by the test embedder and by [`crate::eval::llm_cost`]'s replay.
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
