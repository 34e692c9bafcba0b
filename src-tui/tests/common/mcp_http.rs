//! An MCP client of the real `haema mcp --http`, over Streamable HTTP with an agent key.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};

/// A running `haema mcp --http` on a free port of 127.0.0.1.
pub struct Server {
    pub child: Child,
    pub url: String,
    pub stderr: BufReader<std::process::ChildStderr>,
}

impl Server {
    pub fn start(store: &Path, extra: &[&str]) -> Self {
        Self::start_with(store, extra, &[])
    }

    /// [`Server::start`] with environment variables (a machine's folders, a password).
    pub fn start_with(store: &Path, extra: &[&str], env: &[(&str, &str)]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_haema"))
            .env_clear()
            .env("HF_HUB_OFFLINE", "1")
            .envs(env.iter().copied())
            .arg("--store")
            .arg(store)
            .args(["mcp", "--http", "127.0.0.1:0"])
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        let url = loop {
            line.clear();
            assert!(
                stderr.read_line(&mut line).unwrap() > 0,
                "the server ended before it listened"
            );
            if let Some(at) = line.find("http://").or_else(|| line.find("https://")) {
                break line[at..].split_whitespace().next().unwrap().to_owned();
            }
        };
        Self { child, url, stderr }
    }

    /// The server's base (`http://127.0.0.1:PORT`, `https://…` with TLS).
    pub fn base(&self) -> String {
        self.url.trim_end_matches("/mcp").to_owned()
    }

    /// Sends SIGTERM and returns the exit code and what the server said on stderr after.
    pub fn terminate(mut self) -> (Option<i32>, String) {
        let pid = self.child.id().to_string();
        Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        let status = self.child.wait().unwrap();
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut self.stderr, &mut rest).unwrap();
        (status.code(), rest)
    }
}

/// One MCP session with one key.
pub struct Session {
    http: reqwest::Client,
    url: String,
    key: String,
    session: Option<String>,
    next_id: i64,
}

impl Session {
    /// Initializes a session with `key`.
    pub async fn open(url: &str, key: &str) -> Self {
        Self::open_with(reqwest::Client::new(), url, key).await
    }

    /// [`Session::open`] through `http` (a client that trusts a test certificate).
    pub async fn open_with(http: reqwest::Client, url: &str, key: &str) -> Self {
        let mut session = Self {
            http,
            url: url.to_owned(),
            key: key.to_owned(),
            session: None,
            next_id: 1,
        };
        let init = session
            .request(
                "initialize",
                json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}),
            )
            .await;
        assert!(init.get("result").is_some(), "{init}");
        session.notify("notifications/initialized").await;
        session
    }

    fn post(&self, body: &Value) -> reqwest::RequestBuilder {
        let mut request = self
            .http
            .post(&self.url)
            .bearer_auth(&self.key)
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", "2025-11-25")
            .json(body);
        if let Some(id) = &self.session {
            request = request.header("mcp-session-id", id);
        }
        request
    }

    async fn notify(&self, method: &str) {
        let response = self
            .post(&json!({"jsonrpc": "2.0", "method": method}))
            .send()
            .await
            .unwrap();
        assert!(response.status().is_success(), "{}", response.status());
    }

    /// A request and its answer (`result` or `error`).
    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let response = self
            .post(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .send()
            .await
            .unwrap();
        assert!(response.status().is_success(), "{}", response.status());
        if let Some(session) = response.headers().get("mcp-session-id") {
            self.session = Some(session.to_str().unwrap().to_owned());
        }
        let text = response.text().await.unwrap();
        text.lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .filter_map(|data| serde_json::from_str::<Value>(data.trim()).ok())
            .find(|message| message["id"] == id)
            .unwrap_or_else(|| panic!("no answer to {method} in {text}"))
    }

    /// Opens the session's stream of server messages (`GET /mcp`) and returns what arrived
    /// on it until `wanted` is in it, or after 10 s.
    pub async fn stream_until(&self, wanted: &str) -> String {
        let mut request = self
            .http
            .get(&self.url)
            .bearer_auth(&self.key)
            .header("accept", "text/event-stream")
            .header("mcp-protocol-version", "2025-11-25");
        if let Some(id) = &self.session {
            request = request.header("mcp-session-id", id);
        }
        let mut response = request.send().await.unwrap();
        assert!(response.status().is_success(), "{}", response.status());
        let mut seen = String::new();
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
        while !seen.contains(wanted) {
            match tokio::time::timeout_at(deadline, response.chunk()).await {
                Ok(Ok(Some(chunk))) => seen.push_str(&String::from_utf8_lossy(&chunk)),
                _ => break,
            }
        }
        seen
    }

    /// Ends the session (`DELETE /mcp`); the status of the answer.
    pub async fn close(self) -> u16 {
        let mut request = self.http.delete(&self.url).bearer_auth(&self.key);
        if let Some(id) = &self.session {
            request = request.header("mcp-session-id", id);
        }
        request.send().await.unwrap().status().as_u16()
    }

    /// A tool call's answer: the JSON-RPC message (`result` or `error`).
    pub async fn call(&mut self, tool: &str, arguments: Value) -> Value {
        self.request("tools/call", json!({"name": tool, "arguments": arguments}))
            .await
    }
}
