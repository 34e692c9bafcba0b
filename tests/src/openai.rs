//! An OpenAI-compatible server for end-to-end tests: real HTTP, deterministic answers.

use std::collections::{HashMap, VecDeque};
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};

use haema_core::Settings;

use haema_core::fake::{HashEmbedder, block_items};
use serde_json::{Value, json};

use crate::http::{Recorded, Reply, ScriptedServer};

type Answers = Arc<Mutex<HashMap<String, VecDeque<Value>>>>;
type Flag = Arc<Mutex<Option<bool>>>;

/// A fake OpenAI-compatible server on 127.0.0.1 (see the crate docs).
#[derive(Clone)]
pub struct FakeOpenAi {
    server: ScriptedServer,
    answers: Answers,
    core_relevant: Flag,
    dims: usize,
}

/// The variables that point haema's LLM and embedder at the OpenAI-compatible server at
/// `base` (`http://…/v1`): models `gpt-test` and `hash-test`, 64-number vectors (as
/// `FakeOpenAi::start(64)` makes), related memories within a distance of 0.6.
pub fn openai_env(base: &str) -> Vec<(&'static str, String)> {
    vec![
        ("HAEMA_LLM", "openai".into()),
        ("HAEMA_LLM_BASE_URL", base.to_owned()),
        ("HAEMA_LLM_MODEL", "gpt-test".into()),
        ("HAEMA_EMBEDDER", "openai".into()),
        ("HAEMA_EMBED_BASE_URL", base.to_owned()),
        ("HAEMA_EMBED_MODEL", "hash-test".into()),
        ("HAEMA_EMBED_DIMS", "64".into()),
        ("HAEMA_MERGE_DISTANCE_CUTOFF", "0.6".into()),
    ]
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

/// The items of the input blocks of a haema prompt (`tags` in order).
pub(crate) fn prompt_items(user: &str, tags: &[&str]) -> Vec<Value> {
    tags.iter()
        .flat_map(|tag| block_items(user, tag))
        .map(Value::String)
        .collect()
}

/// What the fake answers when no answer is queued: the split and the reconstruction give
/// their inputs back, the core update declines. `core_relevant` is added to a
/// reconstruction answer when set.
pub(crate) fn default_answer(stage: &str, user: &str, core_relevant: Option<bool>) -> Value {
    match stage {
        "pre_split" => json!({"contents": prompt_items(user, &["raw_input"])}),
        "reconstruct" | "refine" => {
            let mut answer =
                json!({"memories": prompt_items(user, &["related_memories", "new_contents"]), "coverage": "complete"});
            if let Some(relevant) = core_relevant {
                answer["core_relevant"] = Value::Bool(relevant);
            }
            answer
        }
        "doctor" => json!({"ok": true}),
        _ => json!({"should_update": false, "core_markdown": null}),
    }
}

fn handle(request: &Recorded, answers: &Answers, core_relevant: &Flag, embedder: &HashEmbedder) -> Reply {
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
        let relevant = *core_relevant.lock().unwrap_or_else(PoisonError::into_inner);
        let answer = scripted.unwrap_or_else(|| default_answer(&stage_key, user, relevant));
        return Reply::json(&chat_completion(&answer.to_string()));
    }
    Reply::status(404, r#"{"error":{"message":"unknown path"}}"#)
}

impl FakeOpenAi {
    /// Starts the server; embeddings have `dims` numbers.
    pub async fn start(dims: usize) -> Self {
        let answers: Answers = Arc::default();
        let core_relevant: Flag = Arc::default();
        let (shared, flag) = (Arc::clone(&answers), Arc::clone(&core_relevant));
        let embedder = HashEmbedder::new(dims);
        let server =
            ScriptedServer::start_with(Some(Arc::new(move |r: &Recorded| handle(r, &shared, &flag, &embedder)))).await;
        Self {
            server,
            answers,
            core_relevant,
            dims,
        }
    }

    /// A store's settings, read by the real loader, that use this server as LLM and
    /// embedder ([`openai_env`] with this server's dimension), with the variables `more` on
    /// top (`HAEMA_REVIEW`, `HAEMA_LLM` = `none`, another model…).
    pub fn settings(&self, store: &Path, more: &[(&str, &str)]) -> Settings {
        let mut vars: Vec<(&str, String)> = openai_env(&self.base_url());
        vars.push(("HAEMA_EMBED_DIMS", self.dims.to_string()));
        vars.extend(more.iter().map(|(name, value)| (*name, (*value).to_owned())));
        let value = |name: &str| vars.iter().rev().find(|(n, _)| *n == name).map(|(_, v)| v.clone());
        Settings::load_with_env(store, value).unwrap_or_else(|e| panic!("settings for the fake server: {e}"))
    }

    /// Sets the `core_relevant` of the reconstruction answers given when none is queued
    /// (`None`, the default, leaves it out, as a model that does not answer it).
    pub fn set_core_relevant(&self, value: Option<bool>) -> &Self {
        *self.core_relevant.lock().unwrap_or_else(PoisonError::into_inner) = value;
        self
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
