//! The OpenAI-compatible clients against a real HTTP server on 127.0.0.1.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use haema_core::fake::HashEmbedder;
use haema_core::provider::openai::{OpenAiEmbedder, OpenAiLlm, OpenAiSettings};
use haema_core::provider::{Embedder, ProviderErrorKind, RetryPolicy, StructuredRequest};
use haema_core::{Memory, Settings};
use haema_tests::{FakeOpenAi, Reply, ScriptedServer, ask_structured, chat_completion, embeddings};
use serde_json::json;

fn settings(server: &ScriptedServer, timeout: Duration) -> OpenAiSettings {
    OpenAiSettings {
        base_url: format!("{}/v1", server.url()),
        model: "gpt-test".into(),
        api_key: Some("sk-test-123".into()),
        timeout,
        retry: RetryPolicy {
            max_retries: 2,
            base_delay: Duration::from_millis(10),
            max_delay: Duration::from_secs(2),
        },
    }
}

fn schema() -> serde_json::Value {
    json!({"type": "object", "properties": {"contents": {"type": "array", "items": {"type": "string"}}}, "required": ["contents"], "additionalProperties": false})
}

async fn ask(llm: &OpenAiLlm) -> Result<serde_json::Value, haema_core::provider::ProviderError> {
    ask_structured(llm, "pre_split", &schema()).await
}

#[tokio::test]
async fn structured_output_request_and_answer() {
    let server = ScriptedServer::start().await;
    server.push(Reply::json(&chat_completion(r#"{"contents": ["a", "b"]}"#)));
    let llm = OpenAiLlm::new(settings(&server, Duration::from_secs(5))).unwrap();
    assert_eq!(ask(&llm).await.unwrap(), json!({"contents": ["a", "b"]}));
    let request = &server.received()[0];
    assert_eq!(
        (request.method.as_str(), request.path.as_str()),
        ("POST", "/v1/chat/completions")
    );
    assert_eq!(request.header("authorization"), Some("Bearer sk-test-123"));
    assert_eq!(request.body["model"], "gpt-test");
    assert_eq!(request.body["messages"][0], json!({"role": "system", "content": "sys"}));
    assert_eq!(request.body["response_format"]["type"], "json_schema");
    assert_eq!(request.body["response_format"]["json_schema"]["name"], "pre_split");
    assert_eq!(request.body["response_format"]["json_schema"]["strict"], true);
    assert_eq!(request.body["response_format"]["json_schema"]["schema"], schema());
}

#[tokio::test]
async fn malformed_answers_are_bad_answers() {
    let server = ScriptedServer::start().await;
    server.push(Reply::json(&chat_completion("Sure! Here you go: {\"contents\": [")));
    server.push(Reply::json(&json!({"unexpected": true})));
    server.push(Reply::status(200, "<html>not json</html>"));
    server.push(Reply::json(&json!({"choices": [{"message": {"role": "assistant", "content": null, "refusal": "I can't help with that."}}]})));
    let llm = OpenAiLlm::new(settings(&server, Duration::from_secs(5))).unwrap();
    for expected in ["no JSON object", "no choices", "not JSON", "refused"] {
        let err = ask(&llm).await.unwrap_err();
        assert_eq!(err.kind, ProviderErrorKind::BadAnswer);
        assert!(err.to_string().contains(expected), "{err}");
    }
    assert_eq!(server.received().len(), 4, "bad answers are not retried by the client");
}

#[tokio::test]
async fn server_errors_are_retried_then_reported_with_the_providers_message() {
    let server = ScriptedServer::start().await;
    server.push(Reply::status(500, r#"{"error":{"message":"upstream hiccup"}}"#));
    server.push(Reply::status(503, "overloaded"));
    server.push(Reply::json(&chat_completion(r#"{"contents": []}"#)));
    let llm = OpenAiLlm::new(settings(&server, Duration::from_secs(5))).unwrap();
    assert_eq!(ask(&llm).await.unwrap(), json!({"contents": []}));
    assert_eq!(server.received().len(), 3);

    for _ in 0..3 {
        server.push(Reply::status(502, r#"{"error":{"message":"bad gateway today"}}"#));
    }
    let err = ask(&llm).await.unwrap_err();
    assert_eq!(err.kind, ProviderErrorKind::Server);
    let text = err.to_string();
    assert!(
        text.contains("bad gateway today") && text.contains("after 3 attempts") && text.contains("HTTP 502"),
        "{text}"
    );
    assert_eq!(server.received().len(), 6);
}

#[tokio::test]
async fn rate_limits_honour_retry_after() {
    let server = ScriptedServer::start().await;
    server.push(Reply::status(429, r#"{"error":{"message":"Rate limit reached"}}"#).header("retry-after", "1"));
    server.push(Reply::json(&chat_completion(r#"{"contents": ["ok"]}"#)));
    let llm = OpenAiLlm::new(settings(&server, Duration::from_secs(5))).unwrap();
    let started = Instant::now();
    assert_eq!(ask(&llm).await.unwrap(), json!({"contents": ["ok"]}));
    assert!(
        started.elapsed() >= Duration::from_millis(950),
        "waited {:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn client_errors_are_not_retried() {
    let server = ScriptedServer::start().await;
    server.push(Reply::status(
        401,
        r#"{"error":{"message":"Incorrect API key provided: sk-test"}}"#,
    ));
    server.push(Reply::status(
        404,
        r#"{"error":{"message":"The model `gpt-test` does not exist"}}"#,
    ));
    let llm = OpenAiLlm::new(settings(&server, Duration::from_secs(5))).unwrap();
    let auth = ask(&llm).await.unwrap_err();
    assert_eq!(auth.kind, ProviderErrorKind::Auth);
    assert!(
        auth.to_string().contains("Incorrect API key") && auth.to_string().contains("HAEMA_LLM_API_KEY"),
        "{auth}"
    );
    let missing = ask(&llm).await.unwrap_err();
    assert_eq!(missing.kind, ProviderErrorKind::BadRequest);
    assert!(missing.to_string().contains("does not exist"), "{missing}");
    assert_eq!(server.received().len(), 2);
}

#[tokio::test]
async fn timeouts_are_retried_and_then_reported() {
    let server = ScriptedServer::start().await;
    for _ in 0..3 {
        server.push(Reply::json(&chat_completion("{}")).delayed(Duration::from_secs(3)));
    }
    let llm = OpenAiLlm::new(settings(&server, Duration::from_millis(300))).unwrap();
    let err = ask(&llm).await.unwrap_err();
    assert_eq!(err.kind, ProviderErrorKind::Timeout);
    assert!(err.to_string().contains("in time"), "{err}");
    assert_eq!(server.received().len(), 3);
}

#[tokio::test]
async fn an_unreachable_server_is_a_network_error() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    let s = OpenAiSettings {
        base_url: format!("http://127.0.0.1:{port}/v1"),
        model: "m".into(),
        api_key: None,
        timeout: Duration::from_secs(2),
        retry: RetryPolicy::default(),
    };
    let err = ask(&OpenAiLlm::new(s).unwrap()).await.unwrap_err();
    assert_eq!(err.kind, ProviderErrorKind::Network);
    assert!(err.to_string().contains("base URL"), "{err}");
}

#[tokio::test]
async fn embeddings_send_a_list_and_are_checked() {
    let server = ScriptedServer::start().await;
    server.push(Reply::json(
        &json!({"data": [{"index": 1, "embedding": [0.0, 1.0, 0.0]}, {"index": 0, "embedding": [1.0, 0.0, 0.0]}]}),
    ));
    server.push(Reply::json(&embeddings(&[vec![1.0, 2.0]])));
    server.push(Reply::json(&embeddings(&[vec![0.0, 0.0, 0.0]])));
    let embedder = OpenAiEmbedder::new(settings(&server, Duration::from_secs(5)), 3, true).unwrap();
    let texts = vec!["first".to_owned(), "second".to_owned()];
    assert_eq!(
        embedder.embed_document(&texts).await.unwrap(),
        vec![vec![1.0, 0.0, 0.0], vec![0.0, 1.0, 0.0]]
    );
    let request = &server.received()[0];
    assert_eq!(request.path, "/v1/embeddings");
    assert_eq!(request.body["input"], json!(["first", "second"]));
    assert_eq!(request.body["dimensions"], 3);
    let wrong_dims = embedder.embed_query(&["x".to_owned()]).await.unwrap_err();
    assert!(wrong_dims.to_string().contains("HAEMA_EMBED_DIMS"), "{wrong_dims}");
    let zero = embedder.embed_query(&["x".to_owned()]).await.unwrap_err();
    assert!(zero.to_string().contains("all-zero"), "{zero}");
    assert!(embedder.embed_query(&[]).await.unwrap().is_empty());
    assert_eq!(server.received().len(), 3, "an empty batch makes no request");
}

#[tokio::test]
async fn memory_over_http_end_to_end_and_a_dead_llm_loses_nothing() {
    let fake = FakeOpenAi::start(64).await;
    let dir = tempfile::tempdir().unwrap();
    let mut settings = fake.settings(dir.path(), &[("HAEMA_REVIEW", "auto")]);
    settings.llm.max_retries = 0;
    let memory = Memory::open(dir.path(), settings).await.unwrap();
    fake.answer(
        "pre_split",
        json!({"contents": ["User likes green tea in the morning.", "User hates coffee."]}),
    );
    memory
        .add("I like green tea in the morning and I hate coffee")
        .await
        .unwrap();
    assert_eq!(memory.search("coffee", 1).await.unwrap(), vec!["User hates coffee."]);

    // The reconstruction call fails with a 500 (the query embedding before it succeeds).
    let query = HashEmbedder::new(64).vector("User likes green tea every morning.");
    fake.server().push(Reply::json(&embeddings(&[query])));
    fake.server()
        .push(Reply::status(500, r#"{"error":{"message":"down"}}"#));
    let outcome = memory
        .add(vec!["User likes green tea every morning.".to_owned()])
        .await
        .unwrap();
    assert!(
        outcome.warnings.iter().any(|w| w.contains("down")),
        "{:?}",
        outcome.warnings
    );
    let all = memory.get_latest(1, 10).await.unwrap();
    assert!(
        all.contains(&"User likes green tea in the morning.".to_owned()),
        "{all:?}"
    );
    assert!(all.contains(&"User hates coffee.".to_owned()));
    assert!(all.contains(&"User likes green tea every morning.".to_owned()));
    assert_eq!(
        memory.changesets(Default::default()).await.unwrap()[0].outcome,
        haema_core::Outcome::Fallback
    );
}

#[tokio::test]
async fn servers_without_json_schema_get_json_mode_then_a_schema_in_the_prompt() {
    let server = ScriptedServer::start().await;
    server.push(Reply::status(
        400,
        r#"{"error":{"message":"response_format type json_schema is not supported by this model"}}"#,
    ));
    server.push(Reply::status(
        400,
        r#"{"error":{"message":"'response_format' of type 'json_object' is not supported"}}"#,
    ));
    server.push(Reply::json(&chat_completion(
        "Sure! Here is the JSON:\n```json\n{\"contents\": [\"a\"]}\n```",
    )));
    server.push(Reply::json(&chat_completion(r#"{"contents": ["b"]}"#)));
    let llm = OpenAiLlm::new(settings(&server, Duration::from_secs(5))).unwrap();
    assert_eq!(
        ask(&llm).await.unwrap(),
        json!({"contents": ["a"]}),
        "a fenced answer in chatter is found"
    );
    let requests = server.received();
    assert_eq!(requests[0].body["response_format"]["type"], "json_schema");
    assert_eq!(requests[1].body["response_format"]["type"], "json_object");
    assert!(requests[2].body.get("response_format").is_none());
    let system = requests[2].body["messages"][0]["content"].as_str().unwrap();
    assert!(
        system.starts_with("sys") && system.contains("\"required\":[\"contents\"]"),
        "{system}"
    );
    // The client remembers what the server takes.
    assert_eq!(ask(&llm).await.unwrap(), json!({"contents": ["b"]}));
    assert!(server.received()[3].body.get("response_format").is_none());
}

#[tokio::test]
async fn other_bad_requests_are_not_mistaken_for_format_problems() {
    let server = ScriptedServer::start().await;
    server.push(Reply::status(
        400,
        r#"{"error":{"message":"maximum context length exceeded"}}"#,
    ));
    let llm = OpenAiLlm::new(settings(&server, Duration::from_secs(5))).unwrap();
    let err = ask(&llm).await.unwrap_err();
    assert_eq!(err.kind, ProviderErrorKind::BadRequest);
    assert!(err.to_string().contains("maximum context length"), "{err}");
    assert_eq!(server.received().len(), 1);
}

/// The Ollama recipe of docs/configuration.md, against answers in the shapes Ollama's OpenAI-compatible
/// endpoint sends.
#[tokio::test]
async fn the_ollama_recipe_works_with_ollama_shaped_answers() {
    let server = ScriptedServer::start().await;
    let dir = tempfile::tempdir().unwrap();
    let base = format!("{}/v1", server.url());
    let recipe = |name: &str| -> Option<String> {
        match name {
            "HAEMA_LLM" | "HAEMA_EMBEDDER" => Some("openai".into()),
            "HAEMA_LLM_BASE_URL" | "HAEMA_EMBED_BASE_URL" => Some(base.clone()),
            "HAEMA_LLM_MODEL" => Some("llama3.1:8b".into()),
            "HAEMA_EMBED_MODEL" => Some("nomic-embed-text".into()),
            _ => None,
        }
    };
    let settings = Settings::load_with_env(dir.path(), recipe).unwrap();
    let embedder = settings.build_embedder().unwrap().unwrap();
    assert_eq!(embedder.dims(), 768, "nomic-embed-text's dimension is known");
    let ollama_embedding = json!({"object": "list", "data": [{"object": "embedding", "embedding": vec![0.01f32; 768], "index": 0}], "model": "nomic-embed-text", "usage": {"prompt_tokens": 4, "total_tokens": 4}});
    let ollama_chat = |content: &str| {
        json!({"id": "chatcmpl-580", "object": "chat.completion", "created": 1_760_000_000, "model": "llama3.1:8b", "system_fingerprint": "fp_ollama",
               "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
               "usage": {"prompt_tokens": 120, "completion_tokens": 20, "total_tokens": 140}})
    };
    server.push(Reply::json(&ollama_embedding));
    server.push(Reply::json(&ollama_chat(
        r#"{"memories": ["The user keeps bees."], "coverage": "complete"}"#,
    )));
    server.push(Reply::json(&ollama_chat(
        "{\"should_update\": false, \"core_markdown\": null}",
    )));
    server.push(Reply::json(&ollama_embedding));
    let memory = Memory::open(dir.path(), settings.clone()).await.unwrap();
    let outcome = memory.add(vec!["user keeps bees".to_owned()]).await.unwrap();
    assert!(outcome.warnings.is_empty(), "{:?}", outcome.warnings);
    assert_eq!(memory.get_latest(1, 5).await.unwrap(), vec!["The user keeps bees."]);
    assert!(
        server.received().iter().all(|r| r.header("authorization").is_none()),
        "no key is needed for a local server"
    );

    server.push(Reply::status(404, r#"{"error":{"message":"model \"llama3.1:8b\" not found, try pulling it first","type":"api_error","param":null,"code":null}}"#));
    let llm = settings.build_llm().unwrap().unwrap();
    let schema = json!({"type": "object"});
    let err = llm
        .generate_structured(StructuredRequest {
            name: "x",
            system: "s",
            user: "u",
            schema: &schema,
        })
        .await
        .unwrap_err();
    assert_eq!(err.kind, ProviderErrorKind::BadRequest);
    assert!(err.to_string().contains("try pulling it first"), "{err}");
}

#[tokio::test]
async fn hybrid_search_falls_back_to_full_text_when_the_embedder_fails() {
    let fake = FakeOpenAi::start(64).await;
    let dir = tempfile::tempdir().unwrap();
    let mut settings = fake.settings(dir.path(), &[("HAEMA_LLM", "none")]);
    settings.embedder.max_retries = 0;
    let memory = Memory::open(dir.path(), settings).await.unwrap();
    memory.add(vec!["User hates coffee.".to_owned()]).await.unwrap();

    fake.server()
        .push(Reply::status(401, r#"{"error":{"message":"bad key"}}"#));
    let results = memory
        .search_records("coffee", 5, haema_core::SearchMode::Hybrid)
        .await
        .unwrap();
    assert_eq!(results.mode, haema_core::SearchMode::Lexical);
    assert!(
        results.notice.as_deref().is_some_and(|n| n.contains("bad key")),
        "{results:?}"
    );
    assert_eq!(results.hits[0].memory.content, "User hates coffee.");

    fake.server()
        .push(Reply::status(401, r#"{"error":{"message":"bad key"}}"#));
    let err = memory
        .search_records("coffee", 5, haema_core::SearchMode::Vector)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("bad key"), "{err}");
}

/// The stages of the chat calls the fake received, in order.
fn chat_stages(fake: &FakeOpenAi) -> Vec<String> {
    fake.server()
        .received()
        .iter()
        .filter(|r| r.path.ends_with("/chat/completions"))
        .map(|r| {
            r.body["response_format"]["json_schema"]["name"]
                .as_str()
                .unwrap_or_default()
                .to_owned()
        })
        .collect()
}

#[tokio::test]
async fn core_relevant_over_http_decides_whether_the_core_step_runs() {
    let fake = FakeOpenAi::start(64).await;
    let dir = tempfile::tempdir().unwrap();
    let settings = fake.settings(
        dir.path(),
        &[("HAEMA_REVIEW", "auto"), ("HAEMA_MERGE_DISTANCE_CUTOFF", "0.25")],
    );
    let memory = Memory::open(dir.path(), settings).await.unwrap();
    let core_md = std::fs::read_to_string(dir.path().join("core.md")).unwrap();

    // false: one call for the add, core.md untouched. A one-sentence text is not split.
    fake.set_core_relevant(Some(false));
    fake.answer(
        "core_update",
        json!({"should_update": true, "core_markdown": "# SOUL\n\n# TOOLS\n\n# RULE\n\n# USER\n- Short answers.\n"}),
    );
    memory.add("Ana keeps bees on the roof.").await.unwrap();
    assert_eq!(chat_stages(&fake), vec!["reconstruct"]);
    assert_eq!(std::fs::read_to_string(dir.path().join("core.md")).unwrap(), core_md);
    let received = fake.server().received();
    let chat = received.iter().find(|r| r.path.ends_with("/chat/completions")).unwrap();
    let schema = &chat.body["response_format"]["json_schema"]["schema"];
    assert_eq!(
        schema["properties"]["core_relevant"]["type"],
        json!(["boolean", "null"])
    );
    assert!(
        schema["required"].as_array().unwrap().contains(&json!("core_relevant")),
        "strict mode needs every property listed"
    );

    // true: the core step runs and its queued answer is applied.
    fake.set_core_relevant(Some(true));
    memory.add("Ana prefers short answers.").await.unwrap();
    assert_eq!(chat_stages(&fake), vec!["reconstruct", "reconstruct", "core_update"]);
    assert!(
        std::fs::read_to_string(dir.path().join("core.md"))
            .unwrap()
            .contains("- Short answers.")
    );

    // missing: the core step runs, as in HAEMA.
    fake.set_core_relevant(None);
    memory.add("Ana lives in Busan.").await.unwrap();
    assert_eq!(chat_stages(&fake)[3..], ["reconstruct", "core_update"]);
}

/// The key of [`key_mask_settings`]: long enough for a 300-character excerpt to cut it.
const LONG_KEY: &str = "sk-proj-Zq8Lm2Xv9Rt4Kp7Wn3Hb6Jd1Fs5Gc0YaQe8Uo2Ii4";

fn key_mask_settings(server: &ScriptedServer) -> OpenAiSettings {
    OpenAiSettings {
        api_key: Some(LONG_KEY.into()),
        retry: RetryPolicy {
            max_retries: 0,
            ..RetryPolicy::default()
        },
        ..settings(server, Duration::from_secs(5))
    }
}

/// Whether `text` holds 8 or more consecutive characters of [`LONG_KEY`].
fn holds_part_of_the_key(text: &str) -> Option<String> {
    (0..=LONG_KEY.len() - 8)
        .map(|i| &LONG_KEY[i..i + 8])
        .find(|part| text.contains(part))
        .map(str::to_owned)
}

#[tokio::test]
async fn the_key_is_masked_before_an_excerpt_cuts_it_in_part_and_in_normal_answers() {
    let server = ScriptedServer::start().await;
    // The key where the 300-character excerpt cuts the provider's message.
    let cut = format!("{}{LONG_KEY} and more", "x".repeat(280));
    server.push(Reply::status(401, &json!({"error": {"message": cut}}).to_string()));
    // The key echoed without its first characters.
    let echoed = format!("Incorrect API key provided: ***{}.", &LONG_KEY[6..]);
    server.push(Reply::status(401, &json!({"error": {"message": echoed}}).to_string()));
    // The key inside a normal 200 answer, which is kept in the changeset.
    let inside = json!({"contents": [format!("the header said {LONG_KEY}")]}).to_string();
    server.push(Reply::json(&chat_completion(&inside)));
    let llm = OpenAiLlm::new(key_mask_settings(&server)).unwrap();
    for _ in 0..2 {
        let err = ask(&llm).await.unwrap_err().to_string();
        assert_eq!(holds_part_of_the_key(&err), None, "{err}");
        assert!(err.contains("sk-…2Ii4"), "the masked key is shown instead: {err}");
    }
    let answer = ask(&llm).await.unwrap().to_string();
    assert_eq!(holds_part_of_the_key(&answer), None, "{answer}");
    assert!(answer.contains("the header said sk-…"), "{answer}");
}
