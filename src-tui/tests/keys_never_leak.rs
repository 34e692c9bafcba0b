//! An API key never reaches disk, output, changesets or exports, even when a provider
//! echoes it back in an error: a whole session against providers on 127.0.0.1 that answer
//! 401 with the key in the message, then every file and every output is searched for it.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::*;
use haema_tests::{FakeOpenAi, Reply, ScriptedServer};

const KEY: &str = "sk-test-LEAKCHECK-7f3a9c2e41";

fn assert_no_key(what: &str, bytes: &[u8]) {
    assert!(
        !bytes.windows(KEY.len()).any(|w| w == KEY.as_bytes()),
        "the key leaked into {what}: {}",
        String::from_utf8_lossy(bytes)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_the_provider_echoes_is_masked_everywhere() {
    let embeddings = FakeOpenAi::start(64).await;
    let echoing = ScriptedServer::start().await;
    let refusal = format!(
        r#"{{"error":{{"message":"Incorrect API key provided: {KEY}. You can find your API key at https://example.invalid."}}}}"#
    );
    for _ in 0..40 {
        echoing.push(Reply::status(401, &refusal));
    }
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store");
    let export = dir.path().join("export.jsonl");
    let mut env = openai_env(&embeddings.base_url());
    env.retain(|(k, _)| *k != "HAEMA_LLM_BASE_URL");
    env.push(("HAEMA_LLM_BASE_URL", format!("{}/v1", echoing.url())));
    env.push(("HAEMA_LLM_API_KEY", KEY.into()));
    env.push(("HAEMA_EMBED_API_KEY", KEY.into()));
    let env = refs(&env);

    let mut outputs = Vec::new();
    for args in [
        vec!["add", "The user likes plums and lives in Turku", "--json"],
        vec!["add", "--items", "The user plays chess"],
        vec!["search", "plums", "--json"],
        vec!["recall", "what fruit", "--json"],
        vec!["history", "1", "--json"],
        vec!["review", "list", "--json"],
        vec!["status", "--json"],
        vec!["config", "--json"],
        vec!["doctor", "--json"],
        vec!["export", "-o", export.to_str().unwrap()],
        vec!["export", "--format", "markdown"],
    ] {
        let out = haema(&store, &env, &args, None);
        outputs.push((args.join(" "), out));
    }
    let history = String::from_utf8_lossy(&outputs[4].1.stdout).into_owned();
    assert!(
        history.contains("Incorrect API key provided: sk-…2e41"),
        "the provider's message is kept, with the key masked: {history}"
    );
    for (command, out) in &outputs {
        assert_no_key(&format!("the output of `haema {command}`"), &out.stdout);
        assert_no_key(&format!("the errors of `haema {command}`"), &out.stderr);
    }
    assert_no_key("the export", &std::fs::read(&export).unwrap());
    for entry in std::fs::read_dir(&store).unwrap().flatten() {
        assert_no_key(
            &entry.path().display().to_string(),
            &std::fs::read(entry.path()).unwrap(),
        );
    }
}
