//! TLS to the server, as `psql` does it: libpq's `sslmode`s, the server's CA from
//! `sslrootcert` (a PEM file, or `system` for the public CAs), and a client certificate from
//! `sslcert` / `sslkey`; the `PGSSL*` variables and the files in `~/.postgresql/` fill in
//! what the URL leaves out. rustls on ring: nothing of OpenSSL's.
//!
//! | `sslmode` | encrypted | the server's certificate |
//! |---|---|---|
//! | `disable` | never | — |
//! | `allow`, `prefer` (the default) | when the server offers it | checked against a root file when there is one |
//! | `require` | always | checked against a root file when there is one |
//! | `verify-ca` | always | signed by a CA of `sslrootcert` |
//! | `verify-full` | always | signed by a CA of `sslrootcert`, and for the host connected to |

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::WebPkiSupportedAlgorithms;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use rustls::{CertificateError, ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme};
use tokio_postgres::config::SslMode;
use tokio_postgres_rustls::MakeRustlsConnect;

use super::address::Env;
use crate::error::{Error, Result};

/// How much TLS a connection asks for: libpq's `sslmode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Disable,
    Prefer,
    Require,
    VerifyCa,
    VerifyFull,
}

impl Mode {
    fn parse(value: &str) -> std::result::Result<Self, String> {
        Ok(match value {
            "disable" => Self::Disable,
            // `allow` starts without TLS where libpq would; trying TLS first is never weaker.
            "allow" | "prefer" => Self::Prefer,
            "require" => Self::Require,
            "verify-ca" => Self::VerifyCa,
            "verify-full" => Self::VerifyFull,
            other => {
                return Err(format!(
                    "sslmode={other} is not a mode: use disable, prefer, require, verify-ca or verify-full"
                ));
            }
        })
    }

    /// What tokio-postgres is told: whether to ask for TLS and whether it must be had.
    pub(crate) fn ssl_mode(self) -> SslMode {
        match self {
            Self::Disable => SslMode::Disable,
            Self::Prefer => SslMode::Prefer,
            Self::Require | Self::VerifyCa | Self::VerifyFull => SslMode::Require,
        }
    }
}

/// Where the CAs that sign the server's certificate come from.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Roots {
    File(PathBuf),
    /// `sslrootcert=system`: the public CAs (the Mozilla list).
    System,
}

/// A connection's TLS settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Tls {
    pub(crate) mode: Mode,
    roots: Option<Roots>,
    cert: Option<PathBuf>,
    key: Option<PathBuf>,
}

impl Default for Tls {
    fn default() -> Self {
        Self {
            mode: Mode::Prefer,
            roots: None,
            cert: None,
            key: None,
        }
    }
}

/// The URL parameters this module reads (and tokio-postgres must not see).
pub(crate) const PARAMETERS: [&str; 4] = ["sslmode", "sslrootcert", "sslcert", "sslkey"];

impl Tls {
    /// Reads the URL's TLS parameters (`name=value`, decoded), then fills in what they leave
    /// out from `PGSSLMODE`, `PGSSLROOTCERT`, `PGSSLCERT`, `PGSSLKEY` and the files in
    /// `~/.postgresql/` (`root.crt`, `postgresql.crt` with `postgresql.key`). Over a Unix
    /// socket there is no TLS, whatever is asked (as libpq).
    pub(crate) fn from_parameters(
        given: &[(String, String)],
        env: Env<'_>,
        over_socket: bool,
    ) -> std::result::Result<Self, String> {
        if over_socket {
            return Ok(Self {
                mode: Mode::Disable,
                ..Self::default()
            });
        }
        let get = |name: &str, var: &str| {
            // The last one given wins, as in libpq.
            given
                .iter()
                .rev()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
                .or_else(|| env(var))
                .filter(|v| !v.is_empty())
        };
        let asked = get("sslmode", "PGSSLMODE").map(|m| Mode::parse(&m)).transpose()?;
        let home = env("HOME")
            .map(PathBuf::from)
            .or_else(|| directories::BaseDirs::new().map(|b| b.home_dir().to_path_buf()))
            .map(|h| h.join(".postgresql"));
        let existing = |name: &str| home.as_ref().map(|h| h.join(name)).filter(|p| p.is_file());
        let roots = match get("sslrootcert", "PGSSLROOTCERT") {
            Some(system) if system == "system" => Some(Roots::System),
            Some(file) => Some(Roots::File(PathBuf::from(file))),
            // `prefer` stays encrypted but unchecked without a CA named for it, so a CA
            // file meant for one server never stops a connection to another.
            None if asked.is_none_or(|m| m == Mode::Prefer) => None,
            None => existing("root.crt").map(Roots::File),
        };
        // The public CAs sign for anyone's domain: only the host's name makes them a check
        // (libpq has the same rule).
        let mode = match (asked, &roots) {
            (None, Some(Roots::System)) => Mode::VerifyFull,
            (Some(mode), Some(Roots::System)) if mode != Mode::VerifyFull => {
                return Err(
                    "sslrootcert=system trusts every public CA, which sign certificates for anyone's domain, so it \
                     needs sslmode=verify-full (its default): leave sslmode out or set it to verify-full"
                        .into(),
                );
            }
            (asked, _) => asked.unwrap_or(Mode::Prefer),
        };
        let (cert, key) = match (get("sslcert", "PGSSLCERT"), get("sslkey", "PGSSLKEY")) {
            (None, None) => match (existing("postgresql.crt"), existing("postgresql.key")) {
                (Some(cert), Some(key)) => (Some(cert), Some(key)),
                _ => (None, None),
            },
            (Some(cert), Some(key)) => (Some(cert.into()), Some(key.into())),
            (Some(_), None) => return Err("sslcert is given without sslkey, its private key".into()),
            (None, Some(_)) => return Err("sslkey is given without sslcert, its certificate".into()),
        };
        if matches!(mode, Mode::VerifyCa | Mode::VerifyFull) && roots.is_none() {
            let mode = if mode == Mode::VerifyCa {
                "verify-ca"
            } else {
                "verify-full"
            };
            return Err(format!(
                "sslmode={mode} checks the server's certificate against a CA, and none is given: add \
                 sslrootcert=/path/to/ca.pem (or sslrootcert=system for the public CAs), or put the CA in \
                 ~/.postgresql/root.crt"
            ));
        }
        Ok(Self { mode, roots, cert, key })
    }

    /// The connector tokio-postgres uses when the mode asks for TLS (with `disable`, one that
    /// is never used and reads no file).
    pub(crate) fn connector(&self) -> Result<MakeRustlsConnect> {
        if self.mode == Mode::Disable && (self.roots.is_some() || self.cert.is_some()) {
            return Self {
                mode: Mode::Disable,
                ..Self::default()
            }
            .connector();
        }
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let verifier: Arc<dyn ServerCertVerifier> = match &self.roots {
            Some(roots) => {
                let checked =
                    WebPkiServerVerifier::builder_with_provider(Arc::new(root_store(roots)?), Arc::clone(&provider))
                        .build()
                        .map_err(|e| tls_error(format!("cannot use the CAs of sslrootcert: {e}")))?;
                if self.mode == Mode::VerifyFull {
                    checked
                } else {
                    Arc::new(ChainOnly(checked))
                }
            }
            None => Arc::new(Unchecked(provider.signature_verification_algorithms)),
        };
        let builder = ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| tls_error(e.to_string()))?
            .dangerous()
            .with_custom_certificate_verifier(verifier);
        let config = match (&self.cert, &self.key) {
            (Some(cert), Some(key)) => {
                let chain = certificates(cert, "sslcert")?;
                let key = PrivateKeyDer::from_pem_file(key)
                    .map_err(|e| tls_error(format!("sslkey {}: not a PEM private key: {e}", key.display())))?;
                builder
                    .with_client_auth_cert(chain, key)
                    .map_err(|e| tls_error(format!("sslcert and sslkey do not go together: {e}")))?
            }
            _ => builder.with_no_client_auth(),
        };
        Ok(MakeRustlsConnect::new(config))
    }
}

fn tls_error(why: String) -> Error {
    Error::InvalidArgument(format!("TLS to PostgreSQL: {why}"))
}

/// The certificates of a PEM file; one at least.
fn certificates(path: &Path, parameter: &str) -> Result<Vec<CertificateDer<'static>>> {
    let bad = |why: String| tls_error(format!("{parameter} {}: {why}", path.display()));
    let found: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(path)
        .map_err(|e| bad(e.to_string()))?
        .collect::<std::result::Result<_, _>>()
        .map_err(|e| bad(format!("not a PEM certificate file: {e}")))?;
    if found.is_empty() {
        return Err(bad("holds no certificate (a PEM file with BEGIN CERTIFICATE)".into()));
    }
    Ok(found)
}

fn root_store(roots: &Roots) -> Result<RootCertStore> {
    let mut store = RootCertStore::empty();
    match roots {
        Roots::System => store.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned()),
        Roots::File(path) => {
            for cert in certificates(path, "sslrootcert")? {
                store
                    .add(cert)
                    .map_err(|e| tls_error(format!("sslrootcert {}: {e}", path.display())))?;
            }
        }
    }
    Ok(store)
}

/// `verify-ca`: the chain must lead to a CA of the root file; the name is not checked.
#[derive(Debug)]
struct ChainOnly(Arc<WebPkiServerVerifier>);

impl ServerCertVerifier for ChainOnly {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> std::result::Result<ServerCertVerified, rustls::Error> {
        // webpki checks the chain first and the name last: a wrong name means a good chain.
        match self
            .0
            .verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now)
        {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        self.0.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_verify_schemes()
    }
}

/// `prefer` and `require` without a root file, as libpq: encrypted, the certificate taken
/// as it comes (the handshake's signatures are still checked).
#[derive(Debug)]
struct Unchecked(WebPkiSupportedAlgorithms);

impl ServerCertVerifier for Unchecked {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> std::result::Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.0)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.0)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(pairs: &[(&str, &str)], vars: &[(&str, &str)]) -> std::result::Result<Tls, String> {
        let given: Vec<(String, String)> = pairs.iter().map(|(n, v)| ((*n).into(), (*v).into())).collect();
        let home = std::env::temp_dir().join("haema-no-such-home");
        let env = |name: &str| {
            if name == "HOME" {
                return Some(home.display().to_string());
            }
            vars.iter().find(|(n, _)| *n == name).map(|(_, v)| (*v).to_owned())
        };
        Tls::from_parameters(&given, &env, false)
    }

    #[test]
    fn modes_read_as_libpq_reads_them() {
        assert_eq!(parsed(&[], &[]).map(|t| t.mode), Ok(Mode::Prefer));
        assert_eq!(parsed(&[("sslmode", "allow")], &[]).map(|t| t.mode), Ok(Mode::Prefer));
        assert_eq!(
            parsed(&[("sslmode", "disable")], &[]).map(|t| t.mode),
            Ok(Mode::Disable)
        );
        assert_eq!(
            parsed(&[], &[("PGSSLMODE", "require")]).map(|t| t.mode),
            Ok(Mode::Require)
        );
        assert_eq!(
            parsed(&[("sslmode", "disable")], &[("PGSSLMODE", "require")]).map(|t| t.mode),
            Ok(Mode::Disable),
            "the URL wins"
        );
        let verify = parsed(&[("sslmode", "verify-full"), ("sslrootcert", "/etc/ca.pem")], &[]).unwrap();
        assert_eq!(verify.roots, Some(Roots::File("/etc/ca.pem".into())));
        let system = parsed(&[("sslrootcert", "system")], &[]).unwrap();
        assert_eq!(
            (system.mode, system.roots.clone()),
            (Mode::VerifyFull, Some(Roots::System))
        );
        assert!(system.connector().is_ok());
        for weak in ["prefer", "require", "verify-ca"] {
            let refused = parsed(&[("sslmode", weak), ("sslrootcert", "system")], &[]).unwrap_err();
            assert!(refused.contains("verify-full"), "{weak}: {refused}");
        }
    }

    #[test]
    fn a_ca_file_in_the_home_folder_is_for_the_modes_that_check() {
        let home = tempfile::tempdir().unwrap();
        std::fs::create_dir(home.path().join(".postgresql")).unwrap();
        let root = home.path().join(".postgresql/root.crt");
        std::fs::write(&root, "not read here").unwrap();
        let given = |mode: &str| vec![("sslmode".to_owned(), mode.to_owned())];
        let env = |name: &str| (name == "HOME").then(|| home.path().display().to_string());
        let prefer = Tls::from_parameters(&[], &env, false).unwrap();
        assert_eq!(
            prefer.roots, None,
            "prefer: encrypted, never stopped by a CA meant elsewhere"
        );
        for mode in ["require", "verify-ca", "verify-full"] {
            let tls = Tls::from_parameters(&given(mode), &env, false).unwrap();
            assert_eq!(tls.roots, Some(Roots::File(root.clone())), "{mode}");
        }
        let socket = Tls::from_parameters(&given("verify-full"), &env, true).unwrap();
        assert_eq!(socket.mode, Mode::Disable, "no TLS over a Unix socket");
        // Off, nothing is read: a broken file does not stop a plain connection.
        let off = Tls::from_parameters(&given("disable"), &env, false).unwrap();
        assert!(off.connector().is_ok());
    }

    #[test]
    fn what_cannot_work_is_told() {
        let unknown = parsed(&[("sslmode", "sometimes")], &[]).unwrap_err();
        assert!(unknown.contains("verify-full"), "{unknown}");
        let no_ca = parsed(&[("sslmode", "verify-full")], &[]).unwrap_err();
        assert!(no_ca.contains("sslrootcert=") && no_ca.contains("root.crt"), "{no_ca}");
        let half = parsed(&[("sslcert", "/c.pem")], &[]).unwrap_err();
        assert!(half.contains("sslkey"), "{half}");
        let missing = parsed(&[("sslmode", "verify-ca"), ("sslrootcert", "/no/such/ca.pem")], &[])
            .unwrap()
            .connector()
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(missing.contains("/no/such/ca.pem"), "{missing}");
    }
}
