//! `haema mcp --http`: the same tools and resources over MCP's Streamable HTTP at `/mcp`,
//! each request carrying an agent key (`Authorization: Bearer haema_ak_…`, made with
//! `haema agent-key create`), and `/healthz` for process supervisors. It listens on
//! 127.0.0.1 unless told otherwise (an address other machines reach needs TLS, or the
//! person's word that the network is trusted), refuses a browser's page from another origin
//! (DNS rebinding), and on Ctrl-C or SIGTERM stops taking requests and finishes the writes
//! in flight before it exits.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::{Context, bail};
use bytes::Bytes;
use haema_core::{KeyCheck, Memory};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{AUTHORIZATION, CONTENT_TYPE, HeaderValue, WWW_AUTHENTICATE};
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use tokio_util::sync::CancellationToken;

use super::HaemaServer;
use super::limits::RequestLimit;

/// Largest request body, in bytes: a memory may be 64 KiB, and JSON escapes can double it.
const MAX_BODY_BYTES: usize = 1024 * 1024;

/// How `haema mcp --http` listens.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    /// The address and port.
    pub addr: SocketAddr,
    /// Serve on an address other machines reach without TLS: the person says the network
    /// in between is trusted.
    pub trusted_network: bool,
    /// Browser origins allowed to call (`https://app.example.com`); none by default.
    pub allowed_origins: Vec<String>,
    /// TLS: the certificate chain's PEM file and its private key's.
    pub tls: Option<(std::path::PathBuf, std::path::PathBuf)>,
    /// Sessions held at once, all keys together.
    pub max_sessions: usize,
    /// Sessions one key holds at once.
    pub max_sessions_per_key: usize,
    /// Requests a minute each agent key may make.
    pub requests_per_minute: u32,
}

/// How long a session may stay silent when rmcp does not say.
const SESSION_IDLE: std::time::Duration = std::time::Duration::from_secs(300);

/// How long a client may take over its TLS handshake.
const HANDSHAKE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// How long a request's headers may take to arrive, counted from the connection's start or
/// its last answer: so also how long a connection may stay idle between requests (clients
/// keep idle connections for less, or open another).
const HEADERS_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(20);

/// Connections served at once; one past it is closed at once (a client that opens many
/// and sends nothing cannot take every file descriptor).
const MAX_CONNECTIONS: usize = 1024;

type Body = BoxBody<Bytes, Infallible>;

/// What every connection shares.
struct Shared {
    memory: Memory,
    mcp: StreamableHttpService<HaemaServer, LocalSessionManager>,
    /// The sessions rmcp keeps, counted before a new one is opened.
    sessions: Arc<LocalSessionManager>,
    max_sessions: usize,
    max_sessions_per_key: usize,
    /// Which key opened each session; held while a session opens, so that two opening at
    /// once cannot both pass a limit.
    owners: tokio::sync::Mutex<super::limits::SessionOwners>,
    requests: RequestLimit,
    /// Cancelled when the server stops: sessions end, connections finish what they serve.
    stop: CancellationToken,
}

/// Serves the store over HTTP until Ctrl-C or SIGTERM.
pub async fn serve_http(memory: Memory, options: HttpOptions) -> anyhow::Result<()> {
    let server = HttpServer::bind(memory, &options).await?;
    let scheme = if server.tls.is_some() { "https" } else { "http" };
    eprintln!(
        "haema: serving MCP at {scheme}://{}/mcp (health at /healthz); stop with Ctrl-C",
        server.local_addr()
    );
    server.run(shutdown_signal()).await
}

/// A bound `haema mcp --http`: its listener, and what every connection shares.
pub struct HttpServer {
    listener: tokio::net::TcpListener,
    tls: Option<tokio_rustls::TlsAcceptor>,
    shared: Arc<Shared>,
    in_flight: super::in_flight::InFlight,
    /// The store's recall socket, served while this server runs.
    _recalls: haema_core::recall_socket::Serving,
}

impl HttpServer {
    /// Checks the options and listens.
    ///
    /// # Errors
    /// An address other machines reach without TLS or `--trusted-network`, certificate
    /// files that cannot serve, or an address that cannot be listened on.
    pub async fn bind(memory: Memory, options: &HttpOptions) -> anyhow::Result<Self> {
        let ip = options.addr.ip();
        let tls = match &options.tls {
            Some((cert, key)) => Some(super::tls::acceptor(cert, key)?),
            None => None,
        };
        if !ip.is_loopback() && tls.is_none() && !options.trusted_network {
            bail!(
                "{} is reachable from other machines, and without TLS agent keys and memories would cross the network in clear. Give --tls-cert FILE --tls-key FILE, serve on 127.0.0.1 behind a TLS proxy, or pass --trusted-network if the network in between is yours",
                options.addr
            );
        }
        let server = HaemaServer::new(memory.clone());
        server.upgrade_in_background();
        let recalls = server.serve_recalls();
        let in_flight = server.in_flight.clone();
        let stop = CancellationToken::new();
        let mut config = StreamableHttpServerConfig::default()
            .with_cancellation_token(stop.child_token())
            .with_max_request_body_bytes(MAX_BODY_BYTES);
        config = if options.allowed_origins.is_empty() {
            config.enforce_origin_validation()
        } else {
            config.with_allowed_origins(options.allowed_origins.clone())
        };
        if !ip.is_loopback() {
            // Reached by whatever name the machine has on the trusted network; browsers are
            // still held to the allowed origins.
            config = config.disable_allowed_hosts();
        }
        let factory = server.clone();
        let sessions = Arc::new(LocalSessionManager::default());
        // A session ends after its keep-alive without traffic; notifications stop a little
        // before, so that they never keep a session whose client has gone.
        let idle = sessions
            .session_config
            .keep_alive
            .unwrap_or(SESSION_IDLE)
            .saturating_sub(std::time::Duration::from_secs(5));
        let mcp = StreamableHttpService::new(move || Ok(factory.for_session(idle)), Arc::clone(&sessions), config);
        let shared = Arc::new(Shared {
            memory,
            mcp,
            sessions,
            max_sessions: options.max_sessions.max(1),
            max_sessions_per_key: options.max_sessions_per_key.max(1),
            owners: tokio::sync::Mutex::default(),
            requests: RequestLimit::new(options.requests_per_minute),
            stop,
        });
        let listener = tokio::net::TcpListener::bind(options.addr)
            .await
            .with_context(|| format!("cannot listen on {}", options.addr))?;
        Ok(Self {
            listener,
            tls,
            shared,
            in_flight,
            _recalls: recalls,
        })
    }

    /// The address it listens on (the port chosen when it was given 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.listener
            .local_addr()
            .unwrap_or_else(|_| SocketAddr::from(([127, 0, 0, 1], 0)))
    }

    /// Serves until `stopping` is ready, then stops taking requests and finishes the writes
    /// in flight.
    ///
    /// # Errors
    /// A write in flight when it stopped that could not be stored (each is named on
    /// standard error).
    pub async fn run(self, stopping: impl std::future::Future<Output = ()>) -> anyhow::Result<()> {
        let Self {
            listener,
            tls,
            shared,
            in_flight,
            _recalls,
        } = self;
        tokio::pin!(stopping);
        let connections = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
        loop {
            tokio::select! {
                accepted = listener.accept() => {
                    // Out of file descriptors (or another passing error): wait a moment
                    // rather than spin on it.
                    let Ok((stream, _)) = accepted else {
                        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                        continue;
                    };
                    let Ok(permit) = Arc::clone(&connections).try_acquire_owned() else { continue };
                    // An answer goes out as it is written: without this, its last piece
                    // waits for the client's delayed acknowledgement (about 40 ms a request).
                    let _ = stream.set_nodelay(true);
                    let shared = Arc::clone(&shared);
                    let tls = tls.clone();
                    tokio::spawn(async move {
                        let _permit = permit;
                        match tls {
                            None => serve_connection(stream, shared).await,
                            // A client that does not finish its handshake (or speaks plain
                            // HTTP to the TLS port) is dropped; nothing of the store is touched.
                            Some(tls) => {
                                if let Ok(Ok(stream)) = tokio::time::timeout(HANDSHAKE_TIMEOUT, tls.accept(stream)).await {
                                    serve_connection(stream, shared).await;
                                }
                            }
                        }
                    });
                }
                () = &mut stopping => break,
            }
        }
        eprintln!("haema: stopping: no new requests; finishing the writes in flight");
        shared.stop.cancel();
        in_flight.close();
        let unfinished = in_flight.finish().await;
        let failed = unfinished.iter().filter(|w| w.failed).count();
        for write in &unfinished {
            let outcome = if write.failed { "NOT stored" } else { "finished" };
            eprintln!(
                "haema: {} {outcome} after its client had gone: {}",
                write.tool, write.said
            );
        }
        if failed > 0 {
            bail!("{failed} write(s) in flight when the server stopped were not stored (see above)");
        }
        Ok(())
    }
}

/// Serves one connection's requests until it closes, or finishes them when the server
/// stops.
async fn serve_connection<S>(stream: S, shared: Arc<Shared>)
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let stop = shared.stop.clone();
    let service = hyper::service::service_fn(move |request| {
        let shared = Arc::clone(&shared);
        async move { Ok::<_, Infallible>(answer(&shared, request).await) }
    });
    // A client that starts a request and never finishes its headers is dropped, and so is a
    // connection left idle.
    let connection = hyper::server::conn::http1::Builder::new()
        .timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(HEADERS_TIMEOUT)
        .serve_connection(TokioIo::new(stream), service);
    tokio::pin!(connection);
    tokio::select! {
        _ = connection.as_mut() => {}
        () = stop.cancelled() => connection.as_mut().graceful_shutdown(),
    }
}

/// Ctrl-C, or SIGTERM from a process supervisor.
async fn shutdown_signal() {
    #[cfg(unix)]
    {
        let mut term = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(term) => term,
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
                return;
            }
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// One request: `/healthz`, or `/mcp` with a valid agent key.
async fn answer(shared: &Shared, mut request: Request<Incoming>) -> Response<Body> {
    match request.uri().path() {
        "/healthz" => text(StatusCode::OK, "ok\n"),
        "/mcp" => {
            let presented = request
                .headers()
                .get(AUTHORIZATION)
                .and_then(|value| value.to_str().ok())
                .and_then(|value| value.strip_prefix("Bearer ").or_else(|| value.strip_prefix("bearer ")))
                .map(str::to_owned);
            let Some(key) = presented else {
                return unauthorized(
                    "no agent key: send Authorization: Bearer <key> (make one with haema agent-key create)",
                );
            };
            match shared.memory.check_agent_key(&key).await {
                Ok(KeyCheck::Valid(agent)) => {
                    if let Err(wait) = shared.requests.take(&agent.name, std::time::Instant::now()) {
                        return busy(
                            StatusCode::TOO_MANY_REQUESTS,
                            wait,
                            &format!(
                                "agent key {} made more than {} requests in a minute (this server's --requests-per-minute)",
                                agent.name,
                                shared.requests.per_minute()
                            ),
                        );
                    }
                    if opens_a_session(&request) {
                        return open_session(shared, request, agent).await;
                    }
                    request.extensions_mut().insert(agent);
                    let ends_a_session = request.method() == hyper::Method::DELETE;
                    let mut response = shared.mcp.handle(request).await;
                    // A session ended: 204 No Content, which clients (the official Python
                    // SDK among them) take as done; rmcp says 202.
                    if ends_a_session && response.status() == StatusCode::ACCEPTED {
                        *response.status_mut() = StatusCode::NO_CONTENT;
                    }
                    response
                }
                Ok(KeyCheck::Unknown) => unauthorized("this agent key is not one of this store's"),
                Ok(KeyCheck::Revoked(name)) => unauthorized(&format!("agent key {name} was revoked")),
                Ok(KeyCheck::Expired(name)) => unauthorized(&format!("agent key {name} has expired")),
                Err(e) => text(
                    StatusCode::SERVICE_UNAVAILABLE,
                    &format!("the store cannot be read: {e}\n"),
                ),
            }
        }
        _ => text(
            StatusCode::NOT_FOUND,
            "haema serves MCP at /mcp and its health at /healthz\n",
        ),
    }
}

/// A request that opens a session, within the server's limit and its key's.
async fn open_session(shared: &Shared, mut request: Request<Incoming>, agent: haema_core::AgentKey) -> Response<Body> {
    let mut owners = shared.owners.lock().await;
    let (held, mine) = {
        let live = shared.sessions.sessions.read().await;
        (live.len(), owners.held_by(&agent.name, |id| live.contains_key(id)))
    };
    let sessions = |n: usize| format!("{n} session{}", if n == 1 { "" } else { "s" });
    let full = if held >= shared.max_sessions {
        Some(format!(
            "this server holds {}, its limit (--max-sessions)",
            sessions(held)
        ))
    } else if mine >= shared.max_sessions_per_key {
        Some(format!(
            "agent key {} holds {}, its limit (--max-sessions-per-key)",
            agent.name,
            sessions(mine)
        ))
    } else {
        None
    };
    if let Some(why) = full {
        return busy(
            StatusCode::SERVICE_UNAVAILABLE,
            std::time::Duration::from_secs(60),
            &format!("{why}: a silent session ends after five minutes, or a client ends its own with DELETE /mcp"),
        );
    }
    let name = agent.name.clone();
    request.extensions_mut().insert(agent);
    let response = shared.mcp.handle(request).await;
    if let Some(session) = response.headers().get("mcp-session-id").and_then(|v| v.to_str().ok()) {
        owners.opened(session, &name);
    }
    response
}

/// Whether a request would open a new session: a POST without a session id.
fn opens_a_session(request: &Request<Incoming>) -> bool {
    request.method() == hyper::Method::POST && !request.headers().contains_key("mcp-session-id")
}

/// A 429 or 503 that says why and, in `Retry-After`, when to come back.
fn busy(status: StatusCode, wait: std::time::Duration, why: &str) -> Response<Body> {
    let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    let mut response = text(status, &format!("{why}: try again in {seconds} s\n"));
    response
        .headers_mut()
        .insert(hyper::header::RETRY_AFTER, HeaderValue::from(seconds));
    response
}

/// A 401 with the challenge RFC 6750 asks for.
fn unauthorized(description: &str) -> Response<Body> {
    let mut response = text(StatusCode::UNAUTHORIZED, &format!("{description}\n"));
    let challenge = format!(
        "Bearer realm=\"haema\", error=\"invalid_token\", error_description=\"{}\"",
        description.replace('"', "'")
    );
    if let Ok(value) = HeaderValue::from_str(&challenge) {
        response.headers_mut().insert(WWW_AUTHENTICATE, value);
    }
    response
}

/// A plain-text answer.
fn text(status: StatusCode, body: &str) -> Response<Body> {
    let mut response = Response::new(Full::new(Bytes::from(body.to_owned())).boxed());
    *response.status_mut() = status;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("text/plain; charset=utf-8"));
    response
}
