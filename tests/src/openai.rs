//! An OpenAI-compatible server for end-to-end tests: real HTTP, deterministic answers.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};

use haema_core::provider::fake::HashEmbedder;
use serde_json::{Value, json};

use crate::http::{Recorded, Reply, ScriptedServer};

type Answers = Arc<Mutex<HashMap<String, VecDeque<Value>>>>;

/// A fake OpenAI-compatible server on 127.0.0.1 (see the crate docs).
#[derive(Clone)]
pub struct FakeOpenAi {
    server: ScriptedServer,
    answers: Answers,
}

/// A chat-completions answer in OpenAI's shape whose message content is `content`.
pub fn chat_completion(content: &str) -> Value {
    json!({
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": 1_760_000_000,
        "model": "gpt-4o-mini-2024-07-18",
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": content, "refusal": null, "annotations": []},
            "logprobs": null,
            "finish_reason": "stop"
        }],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
        "system_fingerprint": "fp_test"
    })
}

/// An `/embeddings` answer in OpenAI's shape.
pub fn embeddings(vectors: &[Vec<f32>]) -> Value {
    json!({
        "object": "list",
        "data": vectors.iter().enumerate().map(|(i, v)| json!({"object": "embedding", "index": i, "embedding": v})).collect::<Vec<_>>(),
        "model": "text-embedding-3-small",
        "usage": {"prompt_tokens": 8, "total_tokens": 8}
    })
}

/// The items of the fenced blocks of a haema prompt.
pub(crate) fn prompt_items(user: &str) -> Vec<Value> {
    user.lines()
        .filter_map(|l| l.strip_prefix("- "))
        .filter_map(|l| serde_json::from_str::<String>(l).ok())
        .map(Value::String)
        .collect()
}

pub(crate) fn default_answer(stage: &str, user: &str) -> Value {
    match stage {
        "pre_split" => json!({"contents": prompt_items(user)}),
        "reconstruct" | "refine" => json!({"memories": prompt_items(user), "coverage": "complete"}),
        "doctor" => json!({"ok": true}),
        _ => json!({"should_update": false, "core_markdown": null}),
    }
}

fn handle(request: &Recorded, answers: &Answers, embedder: &HashEmbedder) -> Reply {
    if request.path.ends_with("/embeddings") {
        let inputs: Vec<String> = match &request.body["input"] {
            Value::Array(items) => items.iter().filter_map(|v| v.as_str().map(str::to_owned)).collect(),
            Value::String(one) => vec![one.clone()],
            _ => return Reply::status(400, r#"{"error":{"message":"input is required"}}"#),
        };
        let vectors: Vec<Vec<f32>> = inputs.iter().map(|t| embedder.vector(t)).collect();
        return Reply::json(&embeddings(&vectors));
    }
    if request.path.ends_with("/chat/completions") {
        let stage = request
            .body
            .pointer("/response_format/json_schema/name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        let user = request
            .body
            .pointer("/messages/1/content")
            .and_then(Value::as_str)
            .unwrap_or("");
        let stage_key = if user.contains("Your previous answer was incomplete") {
            "refine".to_owned()
        } else {
            stage.clone()
        };
        let scripted = answers
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get_mut(&stage_key)
            .and_then(VecDeque::pop_front);
        let answer = scripted.unwrap_or_else(|| default_answer(&stage_key, user));
        return Reply::json(&chat_completion(&answer.to_string()));
    }
    Reply::status(404, r#"{"error":{"message":"unknown path"}}"#)
}

impl FakeOpenAi {
    /// Starts the server; embeddings have `dims` numbers.
    pub async fn start(dims: usize) -> Self {
        let answers: Answers = Arc::default();
        let shared = Arc::clone(&answers);
        let embedder = HashEmbedder::new(dims);
        let server =
            ScriptedServer::start_with(Some(Arc::new(move |r: &Recorded| handle(r, &shared, &embedder)))).await;
        Self { server, answers }
    }

    /// Base URL to configure: `http://127.0.0.1:PORT/v1`.
    pub fn base_url(&self) -> String {
        format!("{}/v1", self.server.url())
    }

    /// Queues the answer object of the next chat call of `stage` (`pre_split`,
    /// `reconstruct`, `refine`, `core_update`).
    pub fn answer(&self, stage: &str, answer: Value) -> &Self {
        self.answers
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .entry(stage.to_owned())
            .or_default()
            .push_back(answer);
        self
    }

    /// The underlying server (for raw scripted replies and recorded requests).
    pub fn server(&self) -> &ScriptedServer {
        &self.server
    }
}
