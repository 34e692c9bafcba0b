//! `haema mcp --http` through the real binary: a key per agent, checked on every request
//! (401 with a challenge without one, 403 for another web page's origin), what each access
//! may call, a propose key's add waiting for review whatever the policy, a user-bound key
//! seeing only its user, what an agent did traced to its key and undone, `/healthz`, a
//! refused open address, and SIGTERM finishing cleanly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;

use crate::common;

use common::mcp_http::{Server, Session, initialize_request};
use common::*;
use serde_json::{Value, json};

fn key(store: &Path, args: &[&str]) -> String {
    let mut all = vec!["agent-key", "create"];
    all.extend_from_slice(args);
    all.push("--json");
    json_of(&haema(store, &[], &all, None))["key"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn store_with(dir: &Path, settings: &str) -> std::path::PathBuf {
    let store = dir.join("s");
    std::fs::create_dir_all(&store).unwrap();
    std::fs::write(
        store.join("haema.toml"),
        format!("{settings}[embedder]\nprovider = \"none\"\n"),
    )
    .unwrap();
    store
}

fn result(answer: &Value) -> &Value {
    assert!(answer.get("error").is_none(), "{answer}");
    assert_eq!(answer["result"]["isError"], json!(false), "{answer}");
    &answer["result"]["structuredContent"]
}

#[tokio::test]
async fn a_request_needs_a_valid_key_and_a_page_of_another_origin_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_with(dir.path(), "review = \"auto\"\n");
    let reader = key(&store, &["reader", "--access", "read"]);
    let gone = key(&store, &["gone", "--access", "write"]);
    ok(&haema(&store, &[], &["agent-key", "revoke", "gone"], None));
    let server = Server::start(&store, &[]);
    let http = reqwest::Client::new();

    let health = http.get(format!("{}/healthz", server.base())).send().await.unwrap();
    assert_eq!(health.status(), 200);
    let init = initialize_request();
    let post = |key: Option<&str>| {
        let request = http
            .post(&server.url)
            .header("accept", "application/json, text/event-stream")
            .json(&init);
        match key {
            Some(key) => request.bearer_auth(key),
            None => request,
        }
    };
    for (key, said) in [
        (None, "no agent key"),
        (
            Some("haema_ak_notakeyofthisstore000000000000000000000"),
            "not one of this store's",
        ),
        (Some(gone.as_str()), "agent key gone was revoked"),
    ] {
        let response = post(key).send().await.unwrap();
        assert_eq!(response.status(), 401, "{key:?}");
        let challenge = response.headers()["www-authenticate"].to_str().unwrap().to_owned();
        assert!(challenge.starts_with("Bearer realm=\"haema\""), "{challenge}");
        assert!(response.text().await.unwrap().contains(said), "{key:?}");
    }
    let evil = post(Some(&reader))
        .header("origin", "https://evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(evil.status(), 403, "a web page of another origin is refused");
    assert_eq!(post(Some(&reader)).send().await.unwrap().status(), 200);

    let (code, said) = server.terminate();
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("finishing the writes in flight"), "{said}");
}

#[tokio::test]
async fn a_read_key_only_reads_and_a_propose_keys_writes_wait_for_review() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_with(dir.path(), "review = \"auto\"\n");
    ok(&haema(&store, &[], &["add", "--items", "Ana drinks green tea"], None));
    let reader = key(&store, &["reader", "--access", "read"]);
    let proposer = key(&store, &["proposer", "--access", "propose"]);
    let writer = key(&store, &["writer", "--access", "write"]);
    let server = Server::start(&store, &[]);

    let mut read = Session::open(&server.url, &reader).await;
    let tools = read.request("tools/list", json!({})).await;
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"search_memory") && names.contains(&"recall"),
        "{names:?}"
    );
    assert!(
        !names.contains(&"add_memory") && !names.contains(&"forget_memory"),
        "{names:?}"
    );
    let found = read.call("search_memory", json!({"query": "green tea"})).await;
    assert_eq!(result(&found)["memories"][0]["content"], "Ana drinks green tea");
    let refused = read.call("add_memory", json!({"content": "Ana moved to Porto"})).await;
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("has read access, and add_memory needs propose access"),
        "{message}"
    );
    assert_eq!(refused["error"]["data"]["needed_access"], "propose");

    let mut propose = Session::open(&server.url, &proposer).await;
    let waits = propose
        .call("add_memory", json!({"content": "Ana moved to Porto"}))
        .await;
    assert_eq!(
        result(&waits)["status"],
        "pending",
        "under auto, a propose key's add still waits"
    );
    let mut write = Session::open(&server.url, &writer).await;
    let lands = write
        .call("add_memory", json!({"content": "Ana plays the cello"}))
        .await;
    assert_eq!(
        result(&lands)["status"],
        "committed",
        "a write key follows the store's policy"
    );

    let pending = ok(&haema(&store, &[], &["review", "list"], None));
    assert!(pending.contains("Ana moved to Porto"), "{pending}");
    assert!(
        pending.contains("via proposer"),
        "the review list names the agent: {pending}"
    );
    assert!(!pending.contains("cello"), "{pending}");
    server.terminate();
}

#[tokio::test]
async fn a_key_bound_to_a_user_sees_only_that_user() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_with(dir.path(), "review = \"auto\"\nscope = \"per_user\"\n");
    ok(&haema(
        &store,
        &[("HAEMA_USER", "alice")],
        &["add", "--items", "Alice drinks green tea"],
        None,
    ));
    ok(&haema(
        &store,
        &[("HAEMA_USER", "bob")],
        &["add", "--items", "Bob drinks green tea"],
        None,
    ));
    let alice = key(&store, &["--user", "alice", "alice-bot", "--access", "write"]);
    let server = Server::start(&store, &[]);

    let mut session = Session::open(&server.url, &alice).await;
    let found = session.call("search_memory", json!({"query": "green tea"})).await;
    let contents: Vec<&str> = result(&found)["memories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["content"].as_str().unwrap())
        .collect();
    assert_eq!(contents, ["Alice drinks green tea"]);
    let other = session
        .call("search_memory", json!({"query": "green tea", "user_id": "bob"}))
        .await;
    let refused = other.to_string();
    assert!(
        refused.contains("alice") && !refused.contains("Bob drinks"),
        "{refused}"
    );
    server.terminate();
}

#[tokio::test]
async fn what_an_agent_did_is_traced_to_its_key_and_undone_after_revoking_it() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_with(dir.path(), "review = \"auto\"\n");
    ok(&haema(&store, &[], &["add", "--items", "Ana drinks green tea"], None));
    let rogue = key(&store, &["rogue", "--access", "write"]);
    let server = Server::start(&store, &[]);
    let mut session = Session::open(&server.url, &rogue).await;
    let added = session
        .call("add_memory", json!({"content": "Ana hates every kind of music"}))
        .await;
    let id = result(&added)["changeset"].as_i64().unwrap();
    server.terminate();

    let history = ok(&haema(&store, &[], &["history"], None));
    let line = history.lines().find(|l| l.contains("music")).unwrap();
    assert!(line.contains("via rogue"), "{history}");
    let own = history.lines().find(|l| l.contains("green tea")).unwrap();
    assert!(!own.contains("via"), "a person's change names no key: {history}");
    let shown = ok(&haema(&store, &[], &["history", &id.to_string()], None));
    assert!(shown.contains("made by agent key rogue"), "{shown}");
    let by_key = ok(&haema(&store, &[], &["history", "--agent-key", "rogue"], None));
    assert_eq!(by_key.lines().count(), 1, "{by_key}");

    let revoked = ok(&haema(&store, &[], &["agent-key", "revoke", "rogue"], None));
    assert!(revoked.contains("It made 1 change: 1 committed"), "{revoked}");
    assert!(revoked.contains("haema agent-key undo rogue"), "{revoked}");
    let unasked = haema(&store, &[], &["agent-key", "undo", "rogue"], None);
    assert!(!unasked.status.success(), "without a terminal it needs --yes");
    assert!(String::from_utf8_lossy(&unasked.stderr).contains("--yes"));
    let undone = ok(&haema(&store, &[], &["agent-key", "undo", "rogue", "--yes"], None));
    assert!(undone.contains("1 change(s) reverted"), "{undone}");
    let left = ok(&haema(&store, &[], &["latest"], None));
    assert!(left.contains("green tea") && !left.contains("music"), "{left}");
    let again = ok(&haema(&store, &[], &["agent-key", "undo", "rogue", "--yes"], None));
    assert!(again.contains("nothing to undo"), "{again}");
    let unknown = haema(&store, &[], &["history", "--agent-key", "nobody"], None);
    assert!(!unknown.status.success());
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("nobody"));
}

/// A certificate for 127.0.0.1 and localhost signed by a new authority: the authority's
/// PEM, and the certificate's and key's files in `dir`.
fn certificate(dir: &Path) -> (String, std::path::PathBuf, std::path::PathBuf) {
    use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, IsCa, KeyPair};
    let mut ca = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let issuer = CertifiedIssuer::self_signed(ca, KeyPair::generate().unwrap()).unwrap();
    let key = KeyPair::generate().unwrap();
    let cert = CertificateParams::new(vec!["127.0.0.1".to_owned(), "localhost".to_owned()])
        .unwrap()
        .signed_by(&key, &issuer)
        .unwrap();
    let (cert_file, key_file) = (dir.join("server.crt"), dir.join("server.key"));
    std::fs::write(&cert_file, cert.pem()).unwrap();
    std::fs::write(&key_file, key.serialize_pem()).unwrap();
    (issuer.pem(), cert_file, key_file)
}

#[tokio::test]
async fn with_a_certificate_it_serves_https_and_refuses_plain_http() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_with(dir.path(), "review = \"auto\"\n");
    ok(&haema(&store, &[], &["add", "--items", "Ana drinks green tea"], None));
    let reader = key(&store, &["reader", "--access", "read"]);
    let (authority, cert, private) = certificate(dir.path());
    let (cert, private) = (cert.to_str().unwrap(), private.to_str().unwrap());
    let server = Server::start(&store, &["--tls-cert", cert, "--tls-key", private]);
    assert!(server.url.starts_with("https://127.0.0.1:"), "{}", server.url);

    let trusting = reqwest::Client::builder()
        .add_root_certificate(reqwest::Certificate::from_pem(authority.as_bytes()).unwrap())
        .build()
        .unwrap();
    let health = trusting.get(format!("{}/healthz", server.base())).send().await.unwrap();
    assert_eq!(health.status(), 200);
    let found = Session::open_with(trusting, &server.url, &reader)
        .await
        .call("search_memory", json!({"query": "green tea"}))
        .await;
    assert_eq!(result(&found)["memories"][0]["content"], "Ana drinks green tea");

    let untrusting = reqwest::Client::new();
    assert!(
        untrusting
            .get(format!("{}/healthz", server.base()))
            .send()
            .await
            .is_err(),
        "a client that does not trust the certificate gets nothing"
    );
    let plain = server.base().replace("https://", "http://");
    assert!(
        reqwest::get(format!("{plain}/healthz")).await.is_err(),
        "plain HTTP to the TLS port is dropped"
    );
    server.terminate();
}

#[tokio::test]
async fn past_its_requests_a_minute_or_the_sessions_limit_a_client_is_told_when_to_come_back() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_with(dir.path(), "review = \"auto\"\n");
    let busy = key(&store, &["busy", "--access", "read"]);
    let other = key(&store, &["other", "--access", "read"]);
    let server = Server::start(&store, &["--requests-per-minute", "6", "--max-sessions", "1"]);
    let http = reqwest::Client::new();

    let mut first = Session::open(&server.url, &busy).await;
    first.call("latest_memories", json!({})).await;
    let init = initialize_request();
    let refused = http
        .post(&server.url)
        .bearer_auth(&other)
        .header("accept", "application/json, text/event-stream")
        .json(&init)
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 503, "one session at most");
    assert!(refused.headers().contains_key("retry-after"));
    assert!(refused.text().await.unwrap().contains("--max-sessions"));
    assert!(first.close().await < 300, "a client ends its own session");
    let mut second = Session::open(&server.url, &other).await;
    second.call("latest_memories", json!({})).await;

    // `busy` has made 4 requests; the bucket holds 6 a minute.
    let mut answers = Vec::new();
    for _ in 0..10 {
        let response = http
            .post(&server.url)
            .bearer_auth(&busy)
            .header("accept", "application/json, text/event-stream")
            .header("mcp-session-id", "no-such-session")
            .json(&json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}))
            .send()
            .await
            .unwrap();
        answers.push(response.status().as_u16());
        if response.status() == 429 {
            let wait: u64 = response.headers()["retry-after"].to_str().unwrap().parse().unwrap();
            assert!((1..=10).contains(&wait), "{wait}");
            let body = response.text().await.unwrap();
            assert!(
                body.contains("agent key busy made more than 6 requests in a minute"),
                "{body}"
            );
            break;
        }
    }
    assert_eq!(answers.last(), Some(&429), "{answers:?}");
    assert!(answers.len() >= 2, "the sixth request still went through: {answers:?}");
    second.call("latest_memories", json!({})).await;
    server.terminate();
}

#[tokio::test]
async fn one_key_cannot_take_every_session() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_with(dir.path(), "");
    let greedy = key(&store, &["greedy", "--access", "read"]);
    let other = key(&store, &["other", "--access", "read"]);
    let server = Server::start(&store, &["--max-sessions", "3", "--max-sessions-per-key", "1"]);
    let first = Session::open(&server.url, &greedy).await;
    let init = initialize_request();
    let refused = reqwest::Client::new()
        .post(&server.url)
        .bearer_auth(&greedy)
        .header("accept", "application/json, text/event-stream")
        .json(&init)
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 503);
    assert!(refused.headers().contains_key("retry-after"));
    let said = refused.text().await.unwrap();
    assert!(
        said.contains("agent key greedy holds 1 session, its limit (--max-sessions-per-key)"),
        "{said}"
    );
    let mut theirs = Session::open(&server.url, &other).await;
    assert!(theirs.call("latest_memories", json!({})).await.get("result").is_some());
    // Its session ended, the key may open another.
    assert!(first.close().await < 300);
    let mut again = Session::open(&server.url, &greedy).await;
    assert!(again.call("latest_memories", json!({})).await.get("result").is_some());
    let (code, said) = server.terminate();
    assert_eq!(code, Some(0), "{said}");
}

#[tokio::test]
async fn a_session_hears_of_another_agent_s_write_on_its_stream() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_with(dir.path(), "review = \"auto\"\n");
    let watcher = key(&store, &["watcher", "--access", "read"]);
    let writer = key(&store, &["writer", "--access", "write"]);
    let server = Server::start(&store, &[]);
    let mut watching = Session::open(&server.url, &watcher).await;
    let subscribed = watching
        .request("resources/subscribe", json!({"uri": "haema://latest"}))
        .await;
    assert!(subscribed.get("result").is_some(), "{subscribed}");
    let stream = watching.stream_until("notifications/resources/updated");
    let write = async {
        // Once the stream is open, the other agent writes.
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        let mut writing = Session::open(&server.url, &writer).await;
        writing.call("add_memory", json!({"content": "Ana keeps bees."})).await
    };
    let (heard, added) = tokio::join!(stream, write);
    assert_eq!(result(&added)["status"], "committed");
    assert!(
        heard.contains("notifications/resources/updated") && heard.contains("haema://latest"),
        "{heard}"
    );
    assert!(heard.contains("notifications/resources/list_changed"), "{heard}");
    server.terminate();
}

#[test]
fn certificate_files_that_cannot_serve_are_refused_before_listening() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_with(dir.path(), "");
    let (_, cert, private) = certificate(dir.path());
    let other = tempfile::tempdir().unwrap();
    let (_, _, other_key) = certificate(other.path());
    let garbage = dir.path().join("garbage.pem");
    std::fs::write(&garbage, "not a certificate\n").unwrap();
    let path = |p: &Path| p.to_str().unwrap().to_owned();
    for (cert, key, said) in [
        (path(&garbage), path(&private), "holds no certificate"),
        (path(&cert), path(&garbage), "not a PEM private key"),
        (path(&cert), path(&other_key), "do not go together"),
        (path(&dir.path().join("missing.crt")), path(&private), "cannot be read"),
    ] {
        let out = haema(
            &store,
            &[],
            &["mcp", "--http", "127.0.0.1:0", "--tls-cert", &cert, "--tls-key", &key],
            None,
        );
        assert!(!out.status.success(), "{cert} {key}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(said), "{said}: {stderr}");
    }
    let half = haema(&store, &[], &["mcp", "--http", "--tls-cert", &path(&cert)], None);
    assert!(!half.status.success());
    assert!(String::from_utf8_lossy(&half.stderr).contains("--tls-key"));
}

#[test]
fn an_address_other_machines_reach_needs_the_trusted_network_flag() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_with(dir.path(), "");
    let out = haema(&store, &[], &["mcp", "--http", "0.0.0.0:0"], None);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("--trusted-network"), "{}", stderr(&out));
}

#[tokio::test]
async fn a_client_that_never_finishes_its_headers_is_dropped_and_others_are_served() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let dir = tempfile::tempdir().unwrap();
    let store = store_with(dir.path(), "");
    let server = Server::start(&store, &[]);
    let address = server.base().trim_start_matches("http://").to_owned();
    let mut slow = tokio::net::TcpStream::connect(&address).await.unwrap();
    slow.write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .await
        .unwrap();
    let health = reqwest::get(format!("{}/healthz", server.base())).await.unwrap();
    assert_eq!(health.status(), 200, "served while another client dawdles");
    let started = std::time::Instant::now();
    let mut rest = Vec::new();
    let read = tokio::time::timeout(std::time::Duration::from_secs(40), slow.read_to_end(&mut rest)).await;
    assert!(read.is_ok(), "the connection is still open after 40 s");
    assert!(
        started.elapsed() >= std::time::Duration::from_secs(15),
        "dropped only after a grace: {:?}",
        started.elapsed()
    );
    let (code, said) = server.terminate();
    assert_eq!(code, Some(0), "{said}");
}
