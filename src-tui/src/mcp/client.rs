//! A client of `haema mcp --http` as an agent talks to it: an agent key, a session, JSON-RPC
//! requests whose answers come on an event stream. `haema bench` measures the server with
//! it, and the tests drive the real binary with it.

use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};

/// The MCP revision the client speaks.
const PROTOCOL: &str = "2025-11-25";

/// One MCP session over Streamable HTTP with one agent key.
pub struct HttpClient {
    http: reqwest::Client,
    url: String,
    key: String,
    session: Option<String>,
    next_id: AtomicI64,
}

impl HttpClient {
    /// Initializes a session at `url` (`http://…/mcp`) with `key`, as the client `name`.
    pub async fn open(url: &str, key: &str, name: &str) -> Result<Self> {
        Self::open_with(reqwest::Client::new(), url, key, name).await
    }

    /// [`HttpClient::open`] through `http` (one that trusts a test certificate).
    pub async fn open_with(http: reqwest::Client, url: &str, key: &str, name: &str) -> Result<Self> {
        let mut client = Self {
            http,
            url: url.to_owned(),
            key: key.to_owned(),
            session: None,
            next_id: AtomicI64::new(1),
        };
        let params =
            json!({"protocolVersion": PROTOCOL, "capabilities": {}, "clientInfo": {"name": name, "version": "1"}});
        let response = client
            .send(&json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": params}))
            .await?;
        client.session = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let answer = answer_to(&response.text().await?, 0, "initialize")?;
        if answer.get("result").is_none() {
            bail!("the server refused the session: {answer}");
        }
        client.notify("notifications/initialized").await?;
        Ok(client)
    }

    /// A POST of `body` to the server, with the key and the session (not sent yet).
    pub fn post(&self, body: &Value) -> reqwest::RequestBuilder {
        let request = self
            .http
            .post(&self.url)
            .bearer_auth(&self.key)
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", PROTOCOL)
            .json(body);
        self.with_session(request)
    }

    fn with_session(&self, request: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        match &self.session {
            Some(id) => request.header("mcp-session-id", id),
            None => request,
        }
    }

    /// Sends `body`; an answer other than a success is an error that says it.
    async fn send(&self, body: &Value) -> Result<reqwest::Response> {
        let response = self.post(body).send().await.context("cannot reach the server")?;
        if !response.status().is_success() {
            bail!(
                "the server answered {}: {}",
                response.status(),
                response.text().await.unwrap_or_default()
            );
        }
        Ok(response)
    }

    /// A notification (no answer).
    pub async fn notify(&self, method: &str) -> Result<()> {
        self.send(&json!({"jsonrpc": "2.0", "method": method})).await?;
        Ok(())
    }

    /// A request and its answer: the JSON-RPC message, `result` or `error`.
    pub async fn request(&self, method: &str, params: Value) -> Result<Value> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let text = self.send(&body).await?.text().await?;
        answer_to(&text, id, method)
    }

    /// A tool call's answer: the JSON-RPC message, `result` or `error`.
    pub async fn call(&self, tool: &str, arguments: Value) -> Result<Value> {
        self.request("tools/call", json!({"name": tool, "arguments": arguments}))
            .await
    }

    /// A tool's structured answer; an error, or a result marked as one, is an error.
    pub async fn call_ok(&self, tool: &str, arguments: Value) -> Result<Value> {
        let answer = self.call(tool, arguments).await?;
        if let Some(error) = answer.get("error") {
            bail!("{tool} failed: {error}");
        }
        let result = &answer["result"];
        if result["isError"] == json!(true) {
            bail!("{tool} failed: {}", result["content"]);
        }
        Ok(result["structuredContent"].clone())
    }

    /// Opens the session's stream of server messages (`GET`) and returns what arrived on it
    /// until `wanted` is in it, or after `wait`.
    pub async fn stream_until(&self, wanted: &str, wait: Duration) -> Result<String> {
        let request = self
            .http
            .get(&self.url)
            .bearer_auth(&self.key)
            .header("accept", "text/event-stream")
            .header("mcp-protocol-version", PROTOCOL);
        let mut response = self.with_session(request).send().await?;
        if !response.status().is_success() {
            bail!("the server answered {} to the stream", response.status());
        }
        let mut seen = String::new();
        let deadline = tokio::time::Instant::now() + wait;
        while !seen.contains(wanted) {
            match tokio::time::timeout_at(deadline, response.chunk()).await {
                Ok(Ok(Some(chunk))) => seen.push_str(&String::from_utf8_lossy(&chunk)),
                _ => break,
            }
        }
        Ok(seen)
    }

    /// Ends the session (`DELETE`); the status of the answer.
    pub async fn close(self) -> Result<u16> {
        let request = self.with_session(self.http.delete(&self.url).bearer_auth(&self.key));
        Ok(request.send().await?.status().as_u16())
    }
}

/// The message answering request `id` in an event stream's text.
fn answer_to(text: &str, id: i64, method: &str) -> Result<Value> {
    text.lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .filter_map(|data| serde_json::from_str::<Value>(data.trim()).ok())
        .find(|message| message["id"] == id)
        .with_context(|| format!("no answer to {method} in {text}"))
}
