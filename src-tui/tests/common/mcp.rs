//! An MCP client of the real `haema mcp`, over its standard input and output.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::{Value, json};

pub struct Client {
    pub child: Child,
    pub input: Option<ChildStdin>,
    pub output: BufReader<ChildStdout>,
    next_id: i64,
    /// The notifications read while waiting for answers, oldest first.
    pub notifications: Vec<Value>,
}

impl Client {
    pub fn start(store: &std::path::Path, env: &[(&str, &str)]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_haema"))
            .env_clear()
            .env("HF_HUB_OFFLINE", "1")
            .envs(env.iter().copied())
            .arg("--store")
            .arg(store)
            .arg("mcp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let input = child.stdin.take();
        let output = BufReader::new(child.stdout.take().unwrap());
        Self {
            child,
            input,
            output,
            next_id: 1,
            notifications: Vec::new(),
        }
    }

    pub fn send(&mut self, message: &Value) {
        let input = self.input.as_mut().unwrap();
        writeln!(input, "{message}").unwrap();
        input.flush().unwrap();
    }

    /// Sends a request and returns its response (notifications in between are kept in
    /// [`Client::notifications`]).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let mut line = String::new();
            assert!(
                self.output.read_line(&mut line).unwrap() > 0,
                "the server closed its output"
            );
            let message: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
            if message["id"] == json!(id) {
                return message;
            }
            if message.get("id").is_none() {
                self.notifications.push(message);
            }
        }
    }

    /// Waits (pinging, up to 10 s) until a notification `method` arrived whose params
    /// `matches`; true when one did.
    pub fn heard(&mut self, method: &str, matches: impl Fn(&Value) -> bool) -> bool {
        for _ in 0..40 {
            if self
                .notifications
                .iter()
                .any(|n| n["method"] == method && matches(&n["params"]))
            {
                return true;
            }
            std::thread::sleep(std::time::Duration::from_millis(250));
            self.request("ping", json!({}));
        }
        false
    }

    /// The handshake: `initialize`, then the `initialized` notification.
    pub fn initialize(&mut self) {
        let init = self.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test-client", "version": "1.0"}}),
        );
        assert!(init["result"]["serverInfo"].is_object(), "{init}");
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    }

    pub fn call(&mut self, tool: &str, arguments: Value) -> Value {
        let response = self.request("tools/call", json!({"name": tool, "arguments": arguments}));
        response["result"].clone()
    }
}

pub fn structured(result: &Value) -> &Value {
    assert_eq!(result["isError"], json!(false), "{result}");
    &result["structuredContent"]
}

pub fn text(result: &Value) -> String {
    result["content"][0]["text"].as_str().unwrap().to_owned()
}
