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

/// An `initialize` request as a client's first message, for tests that post it by hand to
/// see how the server answers it (a refusal, a limit).
pub fn initialize_request() -> Value {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}})
}

/// One MCP session with one key: the library's client, whose failures fail the test.
pub struct Session(haema_tui::mcp::HttpClient);

impl Session {
    /// Initializes a session with `key`.
    pub async fn open(url: &str, key: &str) -> Self {
        Self::open_with(reqwest::Client::new(), url, key).await
    }

    /// [`Session::open`] through `http` (a client that trusts a test certificate).
    pub async fn open_with(http: reqwest::Client, url: &str, key: &str) -> Self {
        let client = haema_tui::mcp::HttpClient::open_with(http, url, key, "test").await;
        Self(client.unwrap_or_else(|e| panic!("{e:#}")))
    }

    /// A request and its answer (`result` or `error`).
    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        let answer = self.0.request(method, params).await;
        answer.unwrap_or_else(|e| panic!("{method}: {e:#}"))
    }

    /// Opens the session's stream of server messages (`GET /mcp`) and returns what arrived
    /// on it until `wanted` is in it, or after 10 s.
    pub async fn stream_until(&self, wanted: &str) -> String {
        let seen = self.0.stream_until(wanted, std::time::Duration::from_secs(10)).await;
        seen.unwrap_or_else(|e| panic!("{e:#}"))
    }

    /// Ends the session (`DELETE /mcp`); the status of the answer.
    pub async fn close(self) -> u16 {
        self.0.close().await.unwrap_or_else(|e| panic!("{e:#}"))
    }

    /// A tool call's answer: the JSON-RPC message (`result` or `error`).
    pub async fn call(&mut self, tool: &str, arguments: Value) -> Value {
        self.0
            .call(tool, arguments)
            .await
            .unwrap_or_else(|e| panic!("{tool}: {e:#}"))
    }
}
