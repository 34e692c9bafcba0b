//! TLS to PostgreSQL, with libpq's `sslmode`s, against the real test server behind a real
//! TLS endpoint: the test server is built without OpenSSL, so each test puts a small
//! terminator on 127.0.0.1 in front of it — it answers PostgreSQL's `SSLRequest`, does the
//! handshake with rustls and certificates made here (rcgen), then passes the bytes on — as
//! a TLS-terminating pooler does. It refuses a connection that does not ask for TLS, so a
//! store that opens through it was encrypted.
//!
//! Needs the server `.ci/run` starts (`HAEMA_TEST_PG_URL`); without it each test says it is
//! skipped.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use common::*;
use haema_core::fake::HashEmbedder;
use haema_core::{Memory, ReviewPolicy};
use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// PostgreSQL's `SSLRequest`: length 8, code 80877103.
const SSL_REQUEST: [u8; 8] = [0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f];

fn server_url() -> Option<String> {
    let url = std::env::var("HAEMA_TEST_PG_URL").ok();
    if url.is_none() {
        eprintln!("skipped: no PostgreSQL test server (HAEMA_TEST_PG_URL; .ci/run starts one)");
    }
    url
}

/// A CA and what it signs, written as PEM files in `dir`.
struct Authority {
    issuer: CertifiedIssuer<'static, KeyPair>,
    file: PathBuf,
}

impl Authority {
    fn new(dir: &Path, name: &str) -> Self {
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.distinguished_name.push(DnType::CommonName, name);
        let issuer = CertifiedIssuer::self_signed(params, KeyPair::generate().unwrap()).unwrap();
        let file = dir.join(format!("{name}.pem"));
        std::fs::write(&file, issuer.pem()).unwrap();
        Self { issuer, file }
    }

    /// A certificate for `names` and its key, as DER, and as PEM files in `dir`.
    fn sign(&self, dir: &Path, file: &str, names: &[&str]) -> (CertificateDer<'static>, PrivateKeyDer<'static>) {
        let key = KeyPair::generate().unwrap();
        let names: Vec<String> = names.iter().map(|n| (*n).to_owned()).collect();
        let cert = CertificateParams::new(names)
            .unwrap()
            .signed_by(&key, &self.issuer)
            .unwrap();
        std::fs::write(dir.join(format!("{file}.crt")), cert.pem()).unwrap();
        std::fs::write(dir.join(format!("{file}.key")), key.serialize_pem()).unwrap();
        (
            cert.der().clone(),
            PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.serialize_der())),
        )
    }
}

/// The TLS endpoint in front of the server, on a thread and runtime of its own.
struct Terminator {
    port: u16,
    handshakes: Arc<AtomicUsize>,
    refused_plain: Arc<AtomicUsize>,
}

impl Terminator {
    fn start(upstream: SocketAddr, config: rustls::ServerConfig) -> Self {
        let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        let (handshakes, refused_plain) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let (counted, refused) = (Arc::clone(&handshakes), Arc::clone(&refused_plain));
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).unwrap();
                loop {
                    let Ok((mut socket, _)) = listener.accept().await else {
                        continue;
                    };
                    let (acceptor, counted, refused) = (acceptor.clone(), Arc::clone(&counted), Arc::clone(&refused));
                    tokio::spawn(async move {
                        let mut first = [0u8; 8];
                        if socket.read_exact(&mut first).await.is_err() || first != SSL_REQUEST {
                            refused.fetch_add(1, Ordering::SeqCst);
                            return;
                        }
                        if socket.write_all(b"S").await.is_err() {
                            return;
                        }
                        let Ok(mut tls) = acceptor.accept(socket).await else {
                            return;
                        };
                        counted.fetch_add(1, Ordering::SeqCst);
                        let Ok(mut server) = tokio::net::TcpStream::connect(upstream).await else {
                            return;
                        };
                        let _ = tokio::io::copy_bidirectional(&mut tls, &mut server).await;
                    });
                }
            });
        });
        Self {
            port,
            handshakes,
            refused_plain,
        }
    }
}

fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

fn server_config(chain: CertificateDer<'static>, key: PrivateKeyDer<'static>) -> rustls::ServerConfig {
    rustls::ServerConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(vec![chain], key)
        .unwrap()
}

/// The test server's address, and its URL with the host and port of `port` on `host`.
fn through(url: &str, host: &str, port: u16, schema: &str, tls: &str) -> (SocketAddr, String) {
    let (head, tail) = url.split_once('@').unwrap();
    let (authority, database) = tail.split_once('/').unwrap();
    let upstream: SocketAddr = authority.parse().unwrap();
    let database = database.split('?').next().unwrap();
    (
        upstream,
        format!("{head}@{host}:{port}/{database}?schema={schema}&{tls}"),
    )
}

fn schema(prefix: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!("{prefix}_{:x}{:x}", nanos % 0xffff_ffff, std::process::id())
}

async fn open(url: &str) -> (tempfile::TempDir, haema_core::Result<Memory>) {
    let dir = tempfile::tempdir().unwrap();
    haema_core::link_postgres_store(dir.path(), url).unwrap();
    let embedder = Arc::new(HashEmbedder::new(DIMS));
    let memory = Memory::open_with(dir.path(), settings(ReviewPolicy::Auto), None, Some(embedder)).await;
    (dir, memory)
}

#[tokio::test(flavor = "multi_thread")]
async fn verify_full_with_the_servers_ca_keeps_a_store_over_tls_and_follows_it_live() {
    let Some(url) = server_url() else { return };
    let files = tempfile::tempdir().unwrap();
    let ca = Authority::new(files.path(), "team-ca");
    let (chain, key) = ca.sign(files.path(), "server", &["127.0.0.1", "localhost"]);
    let (upstream, _) = through(&url, "127.0.0.1", 1, "x", "");
    let terminator = Terminator::start(upstream, server_config(chain, key));
    let tls = format!("sslmode=verify-full&sslrootcert={}", ca.file.display());
    let (_, store) = through(&url, "127.0.0.1", terminator.port, &schema("tls"), &tls);

    let (_a_dir, a) = open(&store).await;
    let a = a.unwrap();
    let (_b_dir, b) = open(&store).await;
    let b = b.unwrap();
    let before = b.data_version().await.unwrap();
    a.add(items(&["The VPN certificate renews in June"])).await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while b.data_version().await.unwrap() == before {
        assert!(Instant::now() < deadline, "B never saw A's commit through TLS");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(latest(&b).await, ["The VPN certificate renews in June"]);
    assert!(
        terminator.handshakes.load(Ordering::SeqCst) >= 2,
        "both machines connected through TLS"
    );
    assert_eq!(
        terminator.refused_plain.load(Ordering::SeqCst),
        0,
        "nothing tried without TLS"
    );
    assert!(b.location().contains("sslmode=verify-full"), "{}", b.location());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_certificate_no_trusted_ca_signed_is_refused_in_words() {
    let Some(url) = server_url() else { return };
    let files = tempfile::tempdir().unwrap();
    let (ca, stranger) = (
        Authority::new(files.path(), "team-ca"),
        Authority::new(files.path(), "stranger-ca"),
    );
    let (chain, key) = stranger.sign(files.path(), "server", &["127.0.0.1"]);
    let (upstream, _) = through(&url, "127.0.0.1", 1, "x", "");
    let terminator = Terminator::start(upstream, server_config(chain, key));
    for (mode, roots) in [
        ("verify-ca", ca.file.display().to_string()),
        ("verify-full", "system".to_owned()),
    ] {
        let tls = format!("sslmode={mode}&sslrootcert={roots}");
        let (_, store) = through(&url, "127.0.0.1", terminator.port, &schema("tls"), &tls);
        let (_dir, opened) = open(&store).await;
        let error = opened.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(error.contains("not signed by a CA of sslrootcert"), "{roots}: {error}");
        assert!(!error.contains("haema-test"), "no password in: {error}");
    }
    assert_eq!(terminator.handshakes.load(Ordering::SeqCst), 0);
}

#[tokio::test(flavor = "multi_thread")]
async fn verify_full_checks_the_host_name_and_verify_ca_only_the_signature() {
    let Some(url) = server_url() else { return };
    let files = tempfile::tempdir().unwrap();
    let ca = Authority::new(files.path(), "team-ca");
    let (chain, key) = ca.sign(files.path(), "server", &["db.internal"]);
    let (upstream, _) = through(&url, "127.0.0.1", 1, "x", "");
    let terminator = Terminator::start(upstream, server_config(chain, key));
    let root = format!("sslrootcert={}", ca.file.display());
    let (_, full) = through(
        &url,
        "127.0.0.1",
        terminator.port,
        &schema("tls"),
        &format!("sslmode=verify-full&{root}"),
    );
    let (_dir, opened) = open(&full).await;
    let error = opened.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(error.contains("another name than the host"), "{error}");

    let (_, ca_only) = through(
        &url,
        "127.0.0.1",
        terminator.port,
        &schema("tls"),
        &format!("sslmode=verify-ca&{root}"),
    );
    let (_dir, opened) = open(&ca_only).await;
    opened.unwrap().add(items(&["Signed by our CA"])).await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn require_and_prefer_encrypt_without_a_ca_and_a_plain_server_is_told() {
    let Some(url) = server_url() else { return };
    let files = tempfile::tempdir().unwrap();
    let ca = Authority::new(files.path(), "self-made");
    let (chain, key) = ca.sign(files.path(), "server", &["127.0.0.1"]);
    let (upstream, _) = through(&url, "127.0.0.1", 1, "x", "");
    let terminator = Terminator::start(upstream, server_config(chain, key));
    for mode in ["sslmode=require", "sslmode=prefer"] {
        let (_, store) = through(&url, "127.0.0.1", terminator.port, &schema("tls"), mode);
        let (_dir, opened) = open(&store).await;
        opened
            .unwrap()
            .add(items(&["Encrypted, the server unchecked"]))
            .await
            .unwrap();
    }
    assert!(terminator.handshakes.load(Ordering::SeqCst) >= 2);
    assert_eq!(terminator.refused_plain.load(Ordering::SeqCst), 0);

    // The test server itself offers no TLS: `require` is refused, `prefer` goes on plain.
    let (_, direct) = through(&url, "127.0.0.1", upstream.port(), &schema("tls"), "sslmode=require");
    let (_dir, opened) = open(&direct).await;
    let error = opened.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(error.contains("does not offer TLS"), "{error}");
    let (_, direct) = through(&url, "127.0.0.1", upstream.port(), &schema("tls"), "sslmode=prefer");
    let (_dir, opened) = open(&direct).await;
    opened.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_client_certificate_is_shown_when_the_server_asks_for_one() {
    let Some(url) = server_url() else { return };
    let files = tempfile::tempdir().unwrap();
    let ca = Authority::new(files.path(), "team-ca");
    let (chain, key) = ca.sign(files.path(), "server", &["127.0.0.1"]);
    ca.sign(files.path(), "agent", &["agent-7"]);
    let mut roots = rustls::RootCertStore::empty();
    roots.add(ca.issuer.der().clone()).unwrap();
    let clients = rustls::server::WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider())
        .build()
        .unwrap();
    let config = rustls::ServerConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_client_cert_verifier(clients)
        .with_single_cert(vec![chain], key)
        .unwrap();
    let (upstream, _) = through(&url, "127.0.0.1", 1, "x", "");
    let terminator = Terminator::start(upstream, config);
    let root = format!("sslmode=verify-full&sslrootcert={}", ca.file.display());
    let (_, without) = through(&url, "127.0.0.1", terminator.port, &schema("tls"), &root);
    let (_dir, opened) = open(&without).await;
    assert!(opened.is_err(), "no client certificate, no connection");

    let dir = files.path().display();
    let with = format!("{root}&sslcert={dir}/agent.crt&sslkey={dir}/agent.key");
    let (_, store) = through(&url, "127.0.0.1", terminator.port, &schema("tls"), &with);
    let (_dir, opened) = open(&store).await;
    opened
        .unwrap()
        .add(items(&["Shown a client certificate"]))
        .await
        .unwrap();
}
