//! A minimal HTTP/1.1 server on 127.0.0.1 with scripted replies.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};

/// One scripted reply.
#[derive(Debug, Clone)]
pub struct Reply {
    /// HTTP status code.
    pub status: u16,
    /// Extra headers.
    pub headers: Vec<(String, String)>,
    /// Body text.
    pub body: String,
    /// Wait this long before answering (to provoke client timeouts).
    pub delay: Duration,
}

impl Reply {
    /// 200 with a JSON body.
    pub fn json(body: &Value) -> Self {
        Self {
            status: 200,
            headers: Vec::new(),
            body: body.to_string(),
            delay: Duration::ZERO,
        }
    }

    /// Any status with a text body.
    pub fn status(status: u16, body: &str) -> Self {
        Self {
            status,
            headers: Vec::new(),
            body: body.to_owned(),
            delay: Duration::ZERO,
        }
    }

    /// Adds a header.
    #[must_use]
    pub fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }

    /// Delays the answer.
    #[must_use]
    pub fn delayed(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }
}

/// One request the server received.
#[derive(Debug, Clone)]
pub struct Recorded {
    /// Method.
    pub method: String,
    /// Path.
    pub path: String,
    /// Headers, names lower-cased.
    pub headers: Vec<(String, String)>,
    /// Body parsed as JSON (`Null` if it was not JSON).
    pub body: Value,
}

impl Recorded {
    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

type Handler = dyn Fn(&Recorded) -> Reply + Send + Sync;

struct State {
    script: VecDeque<Reply>,
    received: Vec<Recorded>,
    fallback: Option<Arc<Handler>>,
}

/// A server that answers with scripted replies, then with its fallback handler (or 500).
#[derive(Clone)]
pub struct ScriptedServer {
    state: Arc<Mutex<State>>,
    base: String,
}

impl ScriptedServer {
    /// Starts a server on a free port of 127.0.0.1.
    pub async fn start() -> Self {
        Self::start_with(None).await
    }

    /// Starts a server whose unscripted requests go to `handler`.
    pub async fn start_with(handler: Option<Arc<Handler>>) -> Self {
        let (listener, base) = bind().await;
        let state = Arc::new(Mutex::new(State {
            script: VecDeque::new(),
            received: Vec::new(),
            fallback: handler,
        }));
        let shared = Arc::clone(&state);
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let state = Arc::clone(&shared);
                tokio::spawn(async move {
                    let _ = serve(stream, state).await;
                });
            }
        });
        Self { state, base }
    }

    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> &str {
        &self.base
    }

    /// Queues a reply.
    pub fn push(&self, reply: Reply) -> &Self {
        self.lock().script.push_back(reply);
        self
    }

    /// Every request so far.
    pub fn received(&self) -> Vec<Recorded> {
        self.lock().received.clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A listener on a free port of 127.0.0.1, and its URL (`http://127.0.0.1:PORT`).
pub(crate) async fn bind() -> (TcpListener, String) {
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .unwrap_or_else(|e| panic!("cannot bind 127.0.0.1: {e}"));
    let addr = listener
        .local_addr()
        .unwrap_or_else(|e| panic!("no local address: {e}"));
    (listener, format!("http://{addr}"))
}

/// The request line and headers of a request, as the fake servers read them.
pub(crate) struct RequestHead {
    pub(crate) method: String,
    pub(crate) path: String,
    /// Names lower-cased, values trimmed.
    pub(crate) headers: Vec<(String, String)>,
}

impl RequestHead {
    /// Reads the next request's line and headers from a connection; `None` when the client
    /// closed it.
    pub(crate) async fn read(reader: &mut (impl AsyncBufRead + Unpin)) -> std::io::Result<Option<Self>> {
        let mut line = String::new();
        if reader.read_line(&mut line).await? == 0 {
            return Ok(None);
        }
        let mut parts = line.split_whitespace();
        let method = parts.next().unwrap_or_default().to_owned();
        let path = parts.next().unwrap_or_default().to_owned();
        let mut headers = Vec::new();
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header).await? == 0 {
                return Ok(None);
            }
            let header = header.trim_end();
            if header.is_empty() {
                return Ok(Some(Self { method, path, headers }));
            }
            if let Some((k, v)) = header.split_once(':') {
                headers.push((k.trim().to_lowercase(), v.trim().to_owned()));
            }
        }
    }

    /// The value of a header (`name` in lower case).
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

async fn serve(stream: TcpStream, state: Arc<Mutex<State>>) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream);
    while let Some(head) = RequestHead::read(&mut reader).await? {
        let length: usize = head.header("content-length").and_then(|v| v.parse().ok()).unwrap_or(0);
        let mut body = vec![0u8; length];
        reader.read_exact(&mut body).await?;
        let RequestHead { method, path, headers } = head;
        let recorded = Recorded {
            method,
            path,
            headers,
            body: serde_json::from_slice(&body).unwrap_or(Value::Null),
        };
        let reply = {
            let mut s = state.lock().unwrap_or_else(PoisonError::into_inner);
            s.received.push(recorded.clone());
            match s.script.pop_front() {
                Some(reply) => reply,
                None => match &s.fallback {
                    Some(handler) => handler(&recorded),
                    None => Reply::status(500, r#"{"error":{"message":"no scripted reply left"}}"#),
                },
            }
        };
        if !reply.delay.is_zero() {
            tokio::time::sleep(reply.delay).await;
        }
        let mut head = format!(
            "HTTP/1.1 {} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\n",
            reply.status,
            reply.body.len()
        );
        for (k, v) in &reply.headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str("\r\n");
        let stream = reader.get_mut();
        stream.write_all(head.as_bytes()).await?;
        stream.write_all(reply.body.as_bytes()).await?;
        stream.flush().await?;
    }
    Ok(())
}
