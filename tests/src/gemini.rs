//! A Gemini API server for end-to-end tests: real HTTP, answers in Gemini's shapes.

use std::sync::Arc;

use haema_core::fake::HashEmbedder;
use serde_json::{Value, json};

use crate::http::{Recorded, Reply, ScriptedServer};
use crate::openai::default_answer;

/// A `generateContent` answer in Gemini's shape whose text is `text`.
pub fn gemini_answer(text: &str) -> Value {
    json!({
        "candidates": [{
            "content": {"parts": [{"text": text}], "role": "model"},
            "finishReason": "STOP",
            "index": 0
        }],
        "usageMetadata": {"promptTokenCount": 12, "candidatesTokenCount": 8, "totalTokenCount": 20},
        "modelVersion": "gemini-2.5-flash",
        "responseId": "test"
    })
}

fn handle(request: &Recorded, embedder: &HashEmbedder) -> Reply {
    if request.path.ends_with(":batchEmbedContents") {
        let vectors: Vec<Value> = request.body["requests"]
            .as_array()
            .map(|r| r.iter().map(|q| json!({"values": embedder.vector(q.pointer("/content/parts/0/text").and_then(Value::as_str).unwrap_or(""))})).collect())
            .unwrap_or_default();
        return Reply::json(&json!({"embeddings": vectors}));
    }
    if request.path.ends_with(":generateContent") {
        let user = request
            .body
            .pointer("/contents/0/parts/0/text")
            .and_then(Value::as_str)
            .unwrap_or("");
        let props = request
            .body
            .pointer("/generationConfig/responseSchema/properties")
            .cloned()
            .unwrap_or_default();
        let stage = if props.get("contents").is_some() {
            "pre_split"
        } else if props.get("memories").is_some() {
            "reconstruct"
        } else if props.get("ok").is_some() {
            "doctor"
        } else {
            "core_update"
        };
        return Reply::json(&gemini_answer(&default_answer(stage, user, None).to_string()));
    }
    Reply::status(
        404,
        r#"{"error":{"code":404,"message":"not found","status":"NOT_FOUND"}}"#,
    )
}

/// A fake Gemini API on 127.0.0.1.
#[derive(Clone)]
pub struct FakeGemini {
    server: ScriptedServer,
}

impl FakeGemini {
    /// Starts the server; embeddings have `dims` numbers.
    pub async fn start(dims: usize) -> Self {
        let embedder = HashEmbedder::new(dims);
        Self {
            server: ScriptedServer::start_with(Some(Arc::new(move |r: &Recorded| handle(r, &embedder)))).await,
        }
    }

    /// Base URL to configure: `http://127.0.0.1:PORT/v1beta`.
    pub fn base_url(&self) -> String {
        format!("{}/v1beta", self.server.url())
    }

    /// The underlying server.
    pub fn server(&self) -> &ScriptedServer {
        &self.server
    }
}
