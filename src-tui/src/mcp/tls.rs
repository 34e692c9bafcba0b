//! TLS for `haema mcp --http`: a certificate chain and its private key from PEM files,
//! served with rustls (ring, already built for the providers) over HTTP/1.1. A file that is
//! missing, holds no certificate or key, or a key that is not the certificate's is refused
//! before the server listens, in words that say which file.

use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, bail};
use rustls::ServerConfig;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::TlsAcceptor;

/// The acceptor for the certificate chain in `cert` and the private key in `key`.
pub fn acceptor(cert: &Path, key: &Path) -> anyhow::Result<TlsAcceptor> {
    let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(cert)
        .with_context(|| format!("--tls-cert {}: cannot be read", cert.display()))?
        .collect::<Result<_, _>>()
        .with_context(|| format!("--tls-cert {}: not a PEM certificate file", cert.display()))?;
    if chain.is_empty() {
        bail!(
            "--tls-cert {}: holds no certificate (a PEM file with BEGIN CERTIFICATE, the server's first, then its chain)",
            cert.display()
        );
    }
    let private = PrivateKeyDer::from_pem_file(key).map_err(|e| {
        anyhow::anyhow!(
            "--tls-key {}: not a PEM private key ({e}); give the key the certificate was made for",
            key.display()
        )
    })?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .context("TLS: no protocol version available")?
        .with_no_client_auth()
        .with_single_cert(chain, private)
        .map_err(|e| {
            anyhow::anyhow!(
                "--tls-cert {} and --tls-key {} do not go together: {e}",
                cert.display(),
                key.display()
            )
        })?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(TlsAcceptor::from(Arc::new(config)))
}
