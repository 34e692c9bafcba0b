//! Test support for haema: real HTTP servers on 127.0.0.1 that the tests start.
//!
//! - [`ScriptedServer`] answers each request with the next scripted response (status,
//!   headers, body, delay) and records what it received.
//! - [`FakeOpenAi`] behaves like an OpenAI-compatible server: `/embeddings` answers with
//!   deterministic bag-of-words vectors, `/chat/completions` with a valid structured answer
//!   for each haema stage, so the real binary can be driven end to end offline.
//! - [`FakeHub`] serves a folder as a Hugging Face Hub model repository, with faults to
//!   switch on (cut connections, corrupt bytes, ignored ranges).

// Test support: a server that cannot start must stop the test loudly.
#![allow(clippy::panic)]

mod gemini;
mod http;
mod hub;
mod model;
mod openai;

pub use gemini::{FakeGemini, gemini_answer};
pub use http::{Recorded, Reply, ScriptedServer};
pub use hub::{FAKE_COMMIT, FAKE_REPO, FakeHub, HubRequest, fetch_fake_repo, small_model_files};
pub use model::minilm_dir;
pub use openai::{FakeOpenAi, chat_completion, embeddings, openai_env};

use haema_core::provider::{Llm, ProviderError, StructuredRequest};

/// One structured call of stage `name` with `schema` (system prompt `sys`, user prompt
/// `usr`): how the provider tests ask an LLM client.
pub async fn ask_structured(
    llm: &dyn Llm,
    name: &str,
    schema: &serde_json::Value,
) -> Result<serde_json::Value, ProviderError> {
    llm.generate_structured(StructuredRequest {
        name,
        system: "sys",
        user: "usr",
        schema,
    })
    .await
}
