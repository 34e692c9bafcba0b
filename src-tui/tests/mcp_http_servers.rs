//! Servers that die and servers that share, through the real binary over HTTP: a server
//! killed (SIGKILL: nothing flushed, nothing finished) while agents add loses no write it
//! answered, and leaves a whole store; two servers on one PostgreSQL store (two machines)
//! each serve what the other's agents wrote, and a session on one hears of a write through
//! the other. The PostgreSQL part needs the test server (`HAEMA_TEST_PG_URL`, which
//! `.ci/run` sets); elsewhere it says why it did not run.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::sync::{Arc, Mutex};

use crate::common;
use crate::store_checks;

use common::mcp_http::{Server, Session};
use common::*;
use serde_json::{Value, json};

fn write_key(store: &Path, name: &str) -> String {
    let made = json_of(&haema(
        store,
        &[],
        &["agent-key", "create", name, "--access", "write", "--json"],
        None,
    ));
    made["key"].as_str().unwrap().to_owned()
}

fn committed(answer: &Value) -> bool {
    answer["result"]["isError"] == json!(false) && answer["result"]["structuredContent"]["status"] == "committed"
}

#[tokio::test]
async fn a_server_killed_during_writes_loses_none_it_answered() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s");
    std::fs::create_dir_all(&store).unwrap();
    std::fs::write(
        store.join("haema.toml"),
        "review = \"auto\"\n[embedder]\nprovider = \"none\"\n",
    )
    .unwrap();
    let key = write_key(&store, "busy");
    let mut server = Server::start(&store, &[]);
    let answered = Arc::new(Mutex::new(Vec::<String>::new()));
    let mut agents = Vec::new();
    for agent in 0..4 {
        let (url, key, answered) = (server.url.clone(), key.clone(), Arc::clone(&answered));
        agents.push(tokio::spawn(async move {
            let mut session = Session::open(&url, &key).await;
            for n in 0.. {
                let text = format!("Agent {agent} wrote note {n} about the qx{agent}n{n} parcel.");
                // The server dies mid-way: a request then fails, and the agent stops.
                let Ok(answer) = tokio::spawn({
                    let text = text.clone();
                    async move { (session.call("add_memory", json!({"items": [text]})).await, session) }
                })
                .await
                else {
                    break;
                };
                session = answer.1;
                if committed(&answer.0) {
                    answered.lock().unwrap().push(text);
                }
            }
        }));
    }
    // Let them write for a while, then kill the server without warning.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while answered.lock().unwrap().len() < 20 {
        assert!(
            std::time::Instant::now() < deadline,
            "the agents' adds were not answered"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    server.child.kill().unwrap();
    server.child.wait().unwrap();
    for agent in agents {
        let _ = agent.await;
    }
    let answered = answered.lock().unwrap().clone();
    // The next process to open the store finishes what was cut off.
    ok(&haema(&store, &[], &["status"], None));
    let snapshot = store_checks::assert_whole(&store);
    for text in &answered {
        assert_eq!(
            snapshot.count_of(text),
            1,
            "an add the server answered is stored once: {text}"
        );
    }
    eprintln!("{} adds answered before the kill, every one stored", answered.len());
}

#[tokio::test]
async fn two_servers_on_one_postgres_store_serve_each_other_s_writes() {
    let Ok(url) = std::env::var("HAEMA_TEST_PG_URL") else {
        eprintln!("SKIPPED: needs HAEMA_TEST_PG_URL (the PostgreSQL test server .ci/run starts)");
        return;
    };
    let bare = url.replacen(":haema-test@", "@", 1);
    let store = std::path::PathBuf::from(format!("{bare}?schema=mcph_{}", std::process::id()));
    let root = tempfile::tempdir().unwrap();
    let (a, b) = (machine(root.path(), "a"), machine(root.path(), "b"));
    let settings = [("HAEMA_REVIEW", "auto"), ("HAEMA_EMBEDDER", "none")];
    let (a, b) = (with(&a, &settings), with(&b, &settings));
    // The key is made once, on machine A: the store keeps it for every machine.
    let made = json_of(&haema(
        &store,
        &a,
        &["agent-key", "create", "roamer", "--access", "write", "--json"],
        None,
    ));
    let key = made["key"].as_str().unwrap().to_owned();
    let server_a = Server::start_with(&store, &[], &a);
    let server_b = Server::start_with(&store, &[], &b);
    let mut on_a = Session::open(&server_a.url, &key).await;
    let mut on_b = Session::open(&server_b.url, &key).await;
    let subscribed = on_b
        .request("resources/subscribe", json!({"uri": "haema://latest"}))
        .await;
    assert!(subscribed.get("result").is_some(), "{subscribed}");

    let listening = {
        let on_b = &on_b;
        async move { on_b.stream_until("haema://latest").await }
    };
    let (heard, added) = tokio::join!(listening, async {
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        on_a.call(
            "add_memory",
            json!({"items": ["The build server reboots on the first Sunday of each month."]}),
        )
        .await
    });
    assert!(committed(&added), "{added}");
    assert!(
        heard.contains("notifications/resources/updated"),
        "a session on B hears of A's write: {heard}"
    );
    let found = on_b
        .call(
            "search_memory",
            json!({"query": "build server reboots", "mode": "lexical"}),
        )
        .await;
    assert!(found.to_string().contains("first Sunday"), "{found}");

    let from_b = on_b
        .call(
            "add_memory",
            json!({"items": ["Backups are copied off site at 02:00."]}),
        )
        .await;
    assert!(committed(&from_b), "{from_b}");
    let latest = on_a.call("latest_memories", json!({"count": 5})).await;
    assert!(latest.to_string().contains("off site at 02:00"), "{latest}");

    // Revoked on one machine, refused by both at once.
    ok(&haema(&store, &b, &["agent-key", "revoke", "roamer"], None));
    for server in [&server_a, &server_b] {
        let refused = reqwest::Client::new()
            .post(&server.url)
            .bearer_auth(&key)
            .header("accept", "application/json, text/event-stream")
            .json(&json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}))
            .send()
            .await
            .unwrap();
        assert_eq!(refused.status(), 401);
    }
    for server in [server_a, server_b] {
        let (code, said) = server.terminate();
        assert_eq!(code, Some(0), "{said}");
    }
}
