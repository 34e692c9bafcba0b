//! The Gemini clients against a real HTTP server on 127.0.0.1, with Gemini-shaped answers.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use haema_core::provider::gemini::{GeminiEmbedder, GeminiLlm};
use haema_core::provider::openai::OpenAiSettings;
use haema_core::provider::{Embedder, ProviderErrorKind, RetryPolicy};
use haema_core::{Memory, Settings};
use haema_tests::{FakeGemini, Reply, ScriptedServer, ask_structured, gemini_answer};
use serde_json::json;

fn settings(server: &ScriptedServer, model: &str) -> OpenAiSettings {
    OpenAiSettings {
        base_url: format!("{}/v1beta", server.url()),
        model: model.into(),
        api_key: Some("AIza-test-key".into()),
        timeout: Duration::from_secs(5),
        retry: RetryPolicy {
            max_retries: 2,
            base_delay: Duration::from_millis(10),
            max_delay: Duration::from_secs(2),
        },
    }
}

fn schema() -> serde_json::Value {
    json!({"type": "object", "properties": {"should_update": {"type": "boolean"}, "core_markdown": {"type": ["string", "null"]}}, "required": ["should_update", "core_markdown"], "additionalProperties": false})
}

async fn ask(llm: &GeminiLlm) -> Result<serde_json::Value, haema_core::provider::ProviderError> {
    ask_structured(llm, "core_update", &schema()).await
}

#[tokio::test]
async fn structured_output_with_a_response_schema() {
    let server = ScriptedServer::start().await;
    server.push(Reply::json(&gemini_answer(
        r#"{"should_update": false, "core_markdown": null}"#,
    )));
    let llm = GeminiLlm::new(settings(&server, "gemini-2.5-flash")).unwrap();
    assert_eq!(
        ask(&llm).await.unwrap(),
        json!({"should_update": false, "core_markdown": null})
    );
    let request = &server.received()[0];
    assert_eq!(request.path, "/v1beta/models/gemini-2.5-flash:generateContent");
    assert_eq!(request.header("x-goog-api-key"), Some("AIza-test-key"));
    assert!(
        request.header("authorization").is_none(),
        "the key goes in x-goog-api-key only"
    );
    assert_eq!(request.body["systemInstruction"]["parts"][0]["text"], "sys");
    assert_eq!(request.body["contents"][0]["parts"][0]["text"], "usr");
    let config = &request.body["generationConfig"];
    assert_eq!(config["responseMimeType"], "application/json");
    assert_eq!(config["responseSchema"]["type"], "OBJECT");
    assert_eq!(
        config["responseSchema"]["properties"]["core_markdown"],
        json!({"type": "STRING", "nullable": true})
    );
    assert!(config["responseSchema"].get("additionalProperties").is_none());
}

#[tokio::test]
async fn blocked_prompts_empty_answers_and_errors_are_classified() {
    let server = ScriptedServer::start().await;
    server.push(Reply::json(&json!({"promptFeedback": {"blockReason": "SAFETY"}})));
    server.push(Reply::json(
        &json!({"candidates": [{"content": {"parts": []}, "finishReason": "MAX_TOKENS"}]}),
    ));
    server.push(Reply::status(400, r#"{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"reason":"API_KEY_INVALID"}]}}"#));
    let llm = GeminiLlm::new(settings(&server, "gemini-2.5-flash")).unwrap();
    let blocked = ask(&llm).await.unwrap_err();
    assert!(
        blocked.kind == ProviderErrorKind::BadAnswer && blocked.to_string().contains("blocked (SAFETY)"),
        "{blocked}"
    );
    let empty = ask(&llm).await.unwrap_err();
    assert!(empty.to_string().contains("MAX_TOKENS"), "{empty}");
    let key = ask(&llm).await.unwrap_err();
    assert_eq!(key.kind, ProviderErrorKind::Auth);
    assert!(key.to_string().contains("API key not valid"), "{key}");
}

#[tokio::test]
async fn resource_exhausted_is_retried_after_the_servers_delay() {
    let server = ScriptedServer::start().await;
    server.push(Reply::status(429, r#"{"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}}"#).header("retry-after", "1"));
    server.push(Reply::json(&gemini_answer(
        "```json\n{\"should_update\": true, \"core_markdown\": \"# SOUL\"}\n```",
    )));
    let llm = GeminiLlm::new(settings(&server, "gemini-2.5-flash")).unwrap();
    let started = Instant::now();
    assert_eq!(ask(&llm).await.unwrap()["should_update"], true);
    assert!(started.elapsed() >= Duration::from_millis(950));
}

#[tokio::test]
async fn embeddings_use_task_types_and_output_dimensionality() {
    let server = ScriptedServer::start().await;
    server.push(Reply::json(
        &json!({"embeddings": [{"values": [0.1, 0.2, 0.3]}, {"values": [0.3, 0.2, 0.1]}]}),
    ));
    server.push(Reply::json(&json!({"embeddings": [{"values": [0.5, 0.5, 0.5]}]})));
    server.push(Reply::json(&json!({"embeddings": [{"values": [0.5, 0.5]}]})));
    let embedder = GeminiEmbedder::new(settings(&server, "gemini-embedding-001"), 3).unwrap();
    let docs = embedder
        .embed_document(&["a".to_owned(), "b".to_owned()])
        .await
        .unwrap();
    assert_eq!(docs.len(), 2);
    embedder.embed_query(&["q".to_owned()]).await.unwrap();
    let requests = server.received();
    assert_eq!(
        requests[0].path,
        "/v1beta/models/gemini-embedding-001:batchEmbedContents"
    );
    let first = &requests[0].body["requests"][0];
    assert_eq!(first["model"], "models/gemini-embedding-001");
    assert_eq!(first["taskType"], "RETRIEVAL_DOCUMENT");
    assert_eq!(first["outputDimensionality"], 3);
    assert_eq!(first["content"]["parts"][0]["text"], "a");
    assert_eq!(requests[1].body["requests"][0]["taskType"], "RETRIEVAL_QUERY");
    let short = embedder.embed_query(&["q".to_owned()]).await.unwrap_err();
    assert!(short.to_string().contains("2 numbers"), "{short}");
}

#[tokio::test]
async fn a_memory_on_gemini_end_to_end() {
    let fake = FakeGemini::start(32).await;
    let dir = tempfile::tempdir().unwrap();
    let base = fake.base_url();
    let env = move |name: &str| -> Option<String> {
        match name {
            "HAEMA_LLM" | "HAEMA_EMBEDDER" => Some("gemini".into()),
            "HAEMA_LLM_BASE_URL" | "HAEMA_EMBED_BASE_URL" => Some(base.clone()),
            "HAEMA_EMBED_DIMS" => Some("32".into()),
            "HAEMA_LLM_API_KEY" | "HAEMA_EMBED_API_KEY" => Some("AIza-test".into()),
            _ => None,
        }
    };
    let settings = Settings::load_with_env(dir.path(), env).unwrap();
    let memory = Memory::open(dir.path(), settings).await.unwrap();
    let outcome = memory.add("Ana keeps bees on the roof.").await.unwrap();
    assert!(outcome.warnings.is_empty(), "{:?}", outcome.warnings);
    assert_eq!(
        memory.search("Ana keeps bees on the roof.", 1).await.unwrap(),
        vec!["Ana keeps bees on the roof."]
    );
    let paths: Vec<String> = fake
        .server()
        .received()
        .iter()
        .map(|r| r.path.rsplit(':').next().unwrap_or_default().to_owned())
        .collect();
    assert!(
        paths.contains(&"generateContent".to_owned()) && paths.contains(&"batchEmbedContents".to_owned()),
        "{paths:?}"
    );
}
