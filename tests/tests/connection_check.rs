//! The Test button's call (`config::check`) and Ollama's model list against real HTTP
//! servers on 127.0.0.1: each failure a person can meet is told in words with a fix.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use haema_core::Settings;
use haema_core::config::ProviderKind;
use haema_core::config::check::{check_embedder, check_llm};
use haema_core::provider::ollama;
use haema_tests::{Reply, ScriptedServer, chat_completion, embeddings};
use serde_json::json;

fn llm_at(server: &ScriptedServer, key: Option<&str>) -> Settings {
    let mut s = Settings::default();
    s.llm.provider = ProviderKind::Openai;
    s.llm.base_url = Some(format!("{}/v1", server.url()));
    s.llm.model = Some("llama3.1:8b".into());
    s.llm.api_key = key.map(str::to_owned);
    s
}

#[tokio::test]
async fn a_working_ai_is_told_and_the_key_is_sent() {
    let server = ScriptedServer::start().await;
    server.push(Reply::json(&chat_completion("{\"ok\": true}")));
    let outcome = check_llm(&llm_at(&server, Some("sk-right-key-123456"))).await;
    assert!(outcome.ok, "{outcome:?}");
    assert!(outcome.said.contains("llama3.1:8b"), "{}", outcome.said);
    let sent = server.received();
    assert_eq!(sent.len(), 1, "one call, no retries");
    assert_eq!(sent[0].header("authorization"), Some("Bearer sk-right-key-123456"));
}

#[tokio::test]
async fn a_wrong_key_is_told_without_showing_it() {
    let server = ScriptedServer::start().await;
    server.push(Reply::status(
        401,
        r#"{"error":{"message":"Incorrect API key provided: sk-wrong-key-999999"}}"#,
    ));
    let outcome = check_llm(&llm_at(&server, Some("sk-wrong-key-999999"))).await;
    assert!(!outcome.ok);
    assert_eq!(outcome.said, "The service refused the key.");
    assert!(outcome.fix.as_deref().unwrap_or_default().contains("key"));
    assert!(!format!("{outcome:?}").contains("sk-wrong-key-999999"));
}

#[tokio::test]
async fn a_missing_model_is_named() {
    let server = ScriptedServer::start().await;
    server.push(Reply::status(
        404,
        r#"{"error":{"message":"model \"llama3.1:8b\" not found, try pulling it first"}}"#,
    ));
    let outcome = check_llm(&llm_at(&server, None)).await;
    assert!(!outcome.ok);
    assert!(
        outcome.said.contains("does not have the model llama3.1:8b"),
        "{}",
        outcome.said
    );
}

#[tokio::test]
async fn a_service_that_is_down_is_told_and_a_server_error_too() {
    let server = ScriptedServer::start().await;
    server.push(Reply::status(503, "overloaded"));
    let outcome = check_llm(&llm_at(&server, None)).await;
    assert!(
        !outcome.ok && outcome.said.starts_with("The service failed"),
        "{outcome:?}"
    );
    assert_eq!(server.received().len(), 1, "a test call is not retried");

    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let mut settings = Settings::default();
    settings.llm.provider = ProviderKind::Openai;
    settings.llm.base_url = Some(format!("http://127.0.0.1:{closed}/v1"));
    let outcome = check_llm(&settings).await;
    assert!(
        !outcome.ok && outcome.said.starts_with("Nothing answered"),
        "{outcome:?}"
    );
    assert!(outcome.fix.unwrap_or_default().contains("running"));
}

#[tokio::test]
async fn the_public_api_without_a_key_asks_for_one_before_any_call() {
    let mut settings = Settings::default();
    settings.llm.provider = ProviderKind::Openai;
    let outcome = check_llm(&settings).await;
    assert!(!outcome.ok);
    assert_eq!(outcome.said, "This service needs an API key, and none is saved.");
}

#[tokio::test]
async fn an_answer_that_is_not_json_is_told() {
    let server = ScriptedServer::start().await;
    server.push(Reply::json(&chat_completion("Sure! Here you go: ok")));
    let outcome = check_llm(&llm_at(&server, None)).await;
    assert!(!outcome.ok && outcome.said.contains("not in the form"), "{outcome:?}");
}

#[tokio::test]
async fn the_search_model_is_checked_with_one_vector() {
    let server = ScriptedServer::start().await;
    server.push(Reply::json(&embeddings(&[vec![0.5; 8]])));
    server.push(Reply::json(&embeddings(&[vec![0.5; 5]])));
    let mut settings = Settings::default();
    settings.embedder.provider = Some(ProviderKind::Openai);
    settings.embedder.base_url = Some(format!("{}/v1", server.url()));
    settings.embedder.model = Some("nomic-embed-text".into());
    settings.embedder.dims = Some(8);
    let outcome = check_embedder(&settings).await;
    assert!(outcome.ok && outcome.said.contains("8 numbers"), "{outcome:?}");
    let outcome = check_embedder(&settings).await;
    assert!(!outcome.ok && outcome.said.contains("5 numbers"), "{outcome:?}");
}

#[tokio::test]
async fn ollama_lists_its_models_text_models_first() {
    let server = ScriptedServer::start().await;
    server.push(Reply::json(&json!({"models": [
        {"name": "nomic-embed-text:latest", "size": 274302450, "details": {"family": "nomic-bert"}},
        {"name": "llama3.1:8b", "size": 4920753328u64, "details": {"family": "llama"}},
    ]})));
    let models = ollama::installed_models(server.url()).await.unwrap();
    let names: Vec<(&str, bool)> = models.iter().map(|m| (m.name.as_str(), m.embedding)).collect();
    assert_eq!(names, [("llama3.1:8b", false), ("nomic-embed-text:latest", true)]);
    assert_eq!(server.received()[0].path, "/api/tags");

    server.push(Reply::json(&json!({"models": []})));
    assert!(ollama::installed_models(server.url()).await.unwrap().is_empty());
    server.push(Reply::status(404, "not here"));
    assert!(ollama::installed_models(server.url()).await.is_err());
    server.push(Reply::json(&json!({"data": "something else"})));
    assert!(ollama::installed_models(server.url()).await.is_err());
}
