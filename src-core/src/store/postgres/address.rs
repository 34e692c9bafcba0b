//! Where a PostgreSQL store is: its URL, its schema, and the password, found the way
//! `psql` finds it (the URL, `PGPASSWORD`, `~/.pgpass`) or in the OS keyring. haema never
//! writes a password anywhere: the link folder keeps the URL without it.

use std::path::PathBuf;
use std::str::FromStr;

use super::tls::{self, Tls};
use crate::error::{Error, Result};

use crate::store::places::DEFAULT_SCHEMA;

/// A PostgreSQL store's address, with its password when one was found.
#[derive(Clone)]
pub(crate) struct Address {
    /// `postgres://user@host:port/db?schema=name`: no password, every part spelled out.
    pub(crate) shown: String,
    /// The schema that holds the store's tables.
    pub(crate) schema: String,
    pub(crate) config: tokio_postgres::Config,
    /// How the connection is encrypted, and how the server is checked.
    pub(crate) tls: Tls,
}

impl std::fmt::Debug for Address {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.shown)
    }
}

/// A variable of the environment, as the standard `PG*` ones are read.
pub(crate) type Env<'a> = &'a dyn Fn(&str) -> Option<String>;

impl Address {
    /// Parses `url`, filling what it leaves out from the `PG*` variables as `psql` does.
    pub(crate) fn parse(url: &str, env: Env<'_>) -> Result<Self> {
        let bad = |why: String| {
            Error::InvalidArgument(format!(
                "“{}” is not a PostgreSQL URL haema can use: {why} (the form is postgres://user@host:5432/database?schema=name)",
                without_password(url)
            ))
        };
        let (base, query) = url.trim().split_once('?').unwrap_or((url.trim(), ""));
        let mut schema = None;
        // `rest` goes to tokio-postgres; `kept` (all but the schema and a password) is shown.
        let (mut rest, mut kept_pairs, mut tls_given) = (Vec::new(), Vec::new(), Vec::new());
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            match pair.split_once('=') {
                Some(("schema", value)) => schema = Some(value.to_owned()),
                Some((name, value)) if tls::PARAMETERS.contains(&name) => {
                    tls_given.push((name.to_owned(), decoded(value)));
                    kept_pairs.push(pair);
                }
                Some(("password", _)) => rest.push(pair),
                _ => {
                    rest.push(pair);
                    kept_pairs.push(pair);
                }
            }
        }
        let rebuilt = if rest.is_empty() {
            base.to_owned()
        } else {
            format!("{base}?{}", rest.join("&"))
        };
        let mut config = tokio_postgres::Config::from_str(&rebuilt).map_err(|e| bad(e.to_string()))?;
        if config.get_hosts().is_empty() {
            config.host(env("PGHOST").as_deref().unwrap_or("localhost"));
        }
        #[cfg(unix)]
        let over_socket = matches!(config.get_hosts().first(), Some(tokio_postgres::config::Host::Unix(_)));
        #[cfg(not(unix))]
        let over_socket = false;
        let tls = Tls::from_parameters(&tls_given, env, over_socket).map_err(bad)?;
        config.ssl_mode(tls.mode.ssl_mode());
        if config.get_ports().is_empty()
            && let Some(port) = env("PGPORT")
        {
            config.port(
                port.parse()
                    .map_err(|_| bad(format!("PGPORT “{port}” is not a port number")))?,
            );
        }
        if config.get_user().is_none() {
            let user = env("PGUSER").or_else(|| env("USER")).or_else(|| env("USERNAME"));
            config.user(user.ok_or_else(|| bad("it names no user, and neither does PGUSER".into()))?);
        }
        if config.get_dbname().is_none() {
            let user = config.get_user().unwrap_or_default().to_owned();
            config.dbname(env("PGDATABASE").unwrap_or(user));
        }
        if config.get_keepalives_idle() == std::time::Duration::from_secs(2 * 60 * 60) {
            // tokio-postgres's default: a server gone silent would go unnoticed for hours.
            config.keepalives_idle(std::time::Duration::from_secs(60));
        }
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(std::time::Duration::from_secs(10));
        }
        if config.get_application_name().is_none() {
            config.application_name("haema");
        }
        let schema = schema.unwrap_or_else(|| DEFAULT_SCHEMA.to_owned());
        check_schema_name(&schema).map_err(bad)?;
        let port = config.get_ports().first().copied().unwrap_or(5432);
        // The other parameters (but a password) stay: a link opens the store as given.
        let mut kept: String = kept_pairs.iter().map(|p| format!("&{p}")).collect();
        let authority = match config.get_hosts().first() {
            Some(tokio_postgres::config::Host::Tcp(host)) if host.contains(':') => format!("[{host}]:{port}"),
            Some(tokio_postgres::config::Host::Tcp(host)) => format!("{}:{port}", encoded(host)),
            // A Unix socket's folder goes in the parameters, where a URL can hold a path.
            #[cfg(unix)]
            Some(tokio_postgres::config::Host::Unix(path)) => {
                if !rest.iter().any(|p| p.starts_with("host=")) {
                    kept.push_str(&format!("&host={}", encoded(&path.display().to_string())));
                }
                if !rest.iter().any(|p| p.starts_with("port=")) {
                    kept.push_str(&format!("&port={port}"));
                }
                String::new()
            }
            None => format!("localhost:{port}"),
        };
        let shown = format!(
            "postgres://{}@{authority}/{}?schema={schema}{kept}",
            encoded(config.get_user().unwrap_or_default()),
            encoded(config.get_dbname().unwrap_or_default())
        );
        Ok(Self {
            shown,
            schema,
            config,
            tls,
        })
    }

    /// The account its password is kept under in the OS keyring: the URL without the
    /// schema or password (`postgres://user@host:port/db`).
    pub(crate) fn keyring_account(&self) -> String {
        self.shown
            .split_once('?')
            .map_or(self.shown.as_str(), |(base, _)| base)
            .to_owned()
    }

    /// Fills in the password when the URL has none: `PGPASSWORD`, then the password file
    /// (`PGPASSFILE`, else `~/.pgpass`), then the OS keyring.
    pub(crate) fn find_password(&mut self, env: Env<'_>) {
        if self.config.get_password().is_some() {
            return;
        }
        let found = env("PGPASSWORD").or_else(|| self.password_in_file(env)).or_else(|| {
            crate::keys::from_env(|k| env(k))
                .get(&self.keyring_account())
                .ok()
                .flatten()
        });
        if let Some(password) = found {
            self.config.password(password);
        }
    }

    fn password_in_file(&self, env: Env<'_>) -> Option<String> {
        let file = env("PGPASSFILE")
            .map(PathBuf::from)
            .or_else(|| directories::BaseDirs::new().map(|b| b.home_dir().join(".pgpass")))?;
        let text = std::fs::read_to_string(file).ok()?;
        let host = self.shown.split('@').nth(1)?.split(['/', '?']).next()?;
        let (host, port) = host.rsplit_once(':')?;
        let host = host.trim_start_matches('[').trim_end_matches(']');
        password_from_file(
            &text,
            [
                host,
                port,
                self.config.get_dbname().unwrap_or_default(),
                self.config.get_user().unwrap_or_default(),
            ],
        )
    }
}

/// The password of the first line of a `.pgpass` file that matches `wanted` (host, port,
/// database, user; `*` matches anything, `\:` and `\\` are a colon and a backslash).
fn password_from_file(text: &str, wanted: [&str; 4]) -> Option<String> {
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let mut fields = Vec::with_capacity(5);
        let mut field = String::new();
        let mut chars = line.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => field.extend(chars.next()),
                ':' if fields.len() < 4 => fields.push(std::mem::take(&mut field)),
                c => field.push(c),
            }
        }
        fields.push(field);
        if fields.len() == 5 && fields[..4].iter().zip(wanted).all(|(f, w)| f == "*" || f == w) {
            return fields.pop();
        }
    }
    None
}

/// A URL part with its `%XX` sequences decoded (a malformed one is kept as written).
fn decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .filter(|h| h.iter().all(u8::is_ascii_hexdigit))
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `text` with the characters that end a URL's part percent-encoded.
fn encoded(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '%' | '@' | '/' | ':' | '?' | '#' | '&' | '=' | ' ' | '[' | ']' => {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    out.push_str(&format!("%{b:02X}"));
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// A schema name haema makes and quotes safely: lower-case letters, digits and `_`, not
/// starting with a digit, at most 63 characters.
fn check_schema_name(name: &str) -> std::result::Result<(), String> {
    let fine = !name.is_empty()
        && name.len() <= 63
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && !name.starts_with("pg_");
    if fine {
        Ok(())
    } else {
        Err(format!(
            "the schema “{name}” must be lower-case letters, digits and _ (not starting with a digit or pg_)"
        ))
    }
}

/// `url` with its password (if any, before the host or as `password=`) replaced by `***`,
/// for messages.
pub(crate) fn without_password(url: &str) -> String {
    let url = match url.split_once('?') {
        Some((base, query)) => {
            let query: Vec<String> = query
                .split('&')
                .map(|p| {
                    if let Some((name, _)) = p.split_once('=').filter(|(n, _)| n.ends_with("password")) {
                        format!("{name}=***")
                    } else {
                        p.to_owned()
                    }
                })
                .collect();
            format!("{base}?{}", query.join("&"))
        }
        None => url.to_owned(),
    };
    let url = url.as_str();
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    match authority.rsplit_once('@') {
        Some((credentials, host)) => match credentials.split_once(':') {
            Some((user, _)) => format!("{scheme}://{user}:***@{host}{tail}"),
            None => url.to_owned(),
        },
        None => url.to_owned(),
    }
}

pub use super::link::link_postgres_store;
pub(crate) use super::link::{from_link, link_folder};

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = pairs.iter().map(|(k, v)| ((*k).into(), (*v).into())).collect();
        move |k| map.get(k).cloned()
    }

    #[test]
    fn a_url_is_spelled_out_without_its_password() {
        let env = env_of(&[("HAEMA_KEYRING", "off")]);
        let a = Address::parse("postgres://ann:s3cret@db.example:6543/team?schema=agents", &env).unwrap();
        assert_eq!(a.shown, "postgres://ann@db.example:6543/team?schema=agents");
        assert_eq!(a.schema, "agents");
        assert_eq!(a.config.get_password(), Some(&b"s3cret"[..]));
        assert_eq!(a.keyring_account(), "postgres://ann@db.example:6543/team");
        let b = Address::parse(
            "postgresql://db.example/team?sslmode=disable",
            &env_of(&[("PGUSER", "bob")]),
        )
        .unwrap();
        assert_eq!(
            b.shown,
            "postgres://bob@db.example:5432/team?schema=haema&sslmode=disable"
        );
    }

    #[test]
    fn the_pg_variables_fill_what_the_url_leaves_out() {
        let env = env_of(&[
            ("PGHOST", "10.0.0.5"),
            ("PGPORT", "7000"),
            ("PGUSER", "carol"),
            ("PGPASSWORD", "pw"),
            ("HAEMA_KEYRING", "off"),
        ]);
        let mut a = Address::parse("postgres://", &env).unwrap();
        a.find_password(&env);
        assert_eq!(a.shown, "postgres://carol@10.0.0.5:7000/carol?schema=haema");
        assert_eq!(a.config.get_password(), Some(&b"pw"[..]));
    }

    #[test]
    fn bad_urls_and_schemas_are_refused_in_words() {
        let env = env_of(&[("PGUSER", "x")]);
        for bad in [
            "postgres://h/db?schema=Bad-Name",
            "postgres://h/db?schema=pg_catalog",
            "postgres://h:notaport/db",
        ] {
            let error = Address::parse(bad, &env).unwrap_err();
            assert!(error.is_usage(), "{bad}: {error}");
        }
        let error = Address::parse("postgres://u:topsecret@h:notaport/db", &env).unwrap_err();
        assert!(!error.to_string().contains("topsecret"), "{error}");
    }

    #[test]
    fn the_password_file_is_read_as_psql_reads_it() {
        let file = "# comment\nother:5432:*:*:no\ndb\\:x:5432:team:ann:yes\\:really\n*:*:*:*:fallback\n";
        assert_eq!(
            password_from_file(file, ["db:x", "5432", "team", "ann"]).as_deref(),
            Some("yes:really")
        );
        assert_eq!(
            password_from_file(file, ["h", "1", "d", "u"]).as_deref(),
            Some("fallback")
        );
    }

    #[test]
    fn passwords_are_hidden_in_messages() {
        assert_eq!(without_password("postgres://a:b@h/d"), "postgres://a:***@h/d");
        assert_eq!(without_password("postgres://a@h/d"), "postgres://a@h/d");
        assert_eq!(
            without_password("postgres://a@h/d?password=x&schema=s"),
            "postgres://a@h/d?password=***&schema=s"
        );
    }

    #[test]
    fn a_link_keeps_the_parameters_but_the_password_and_refuses_tls_it_cannot_give() {
        let env = env_of(&[("HAEMA_KEYRING", "off")]);
        let a = Address::parse(
            "postgres://ann@h/db?application_name=agent7&password=pw&connect_timeout=5&schema=s",
            &env,
        )
        .unwrap();
        assert_eq!(
            a.shown,
            "postgres://ann@h:5432/db?schema=s&application_name=agent7&connect_timeout=5"
        );
        assert_eq!(a.config.get_password(), Some(&b"pw"[..]));
        let tls = Address::parse(
            "postgres://ann@h/db?sslmode=verify-full&sslrootcert=/etc/my%20ca.pem",
            &env,
        )
        .unwrap();
        assert_eq!(
            tls.shown,
            "postgres://ann@h:5432/db?schema=haema&sslmode=verify-full&sslrootcert=/etc/my%20ca.pem"
        );
        assert_eq!(tls.tls.mode, super::super::tls::Mode::VerifyFull);
        assert_eq!(tls.config.get_ssl_mode(), tokio_postgres::config::SslMode::Require);
        let error = Address::parse("postgres://ann@h/db?sslmode=verify-full", &env).unwrap_err();
        assert!(error.to_string().contains("sslrootcert"), "{error}");
        let secret = without_password("postgres://ann@h/db?sslpassword=hush&password=pw&schema=s");
        assert!(!secret.contains("hush") && !secret.contains("pw&"), "{secret}");
        let plain = Address::parse("postgres://ann@h/db?sslmode=disable", &env).unwrap();
        assert_eq!(plain.config.get_ssl_mode(), tokio_postgres::config::SslMode::Disable);
    }

    #[test]
    fn a_link_reads_back_as_the_same_address() {
        let env = env_of(&[("HAEMA_KEYRING", "off")]);
        for url in [
            "postgres://ann@/team?host=/var/run/postgresql",
            "postgres://ann%40corp@db.example/team%20a?schema=s",
            "postgres://ann@[::1]:6000/team",
        ] {
            let first = Address::parse(url, &env).unwrap();
            let again = Address::parse(&first.shown, &env).unwrap();
            assert_eq!(again.shown, first.shown, "{url}");
            assert_eq!(again.config.get_hosts(), first.config.get_hosts(), "{url}");
            assert_eq!(again.config.get_user(), first.config.get_user(), "{url}");
            assert_eq!(again.config.get_dbname(), first.config.get_dbname(), "{url}");
        }
    }

    #[test]
    fn a_store_keeps_one_link_folder_whatever_else_its_url_says() {
        let root = tempfile::tempdir().unwrap();
        let plain = link_folder("postgres://ann:pw@db.example/team?schema=s", root.path()).unwrap();
        assert_eq!(
            plain.file_name().and_then(|n| n.to_str()),
            Some("pg-ann_db.example_5432_team_schema_s")
        );
        let more = link_folder(
            "postgres://ann@db.example/team?schema=s&sslmode=require&application_name=agent7",
            root.path(),
        )
        .unwrap();
        assert_eq!(more, plain);
    }
}
