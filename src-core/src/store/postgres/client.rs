//! One connection to the server, used from the store's blocking calls.
//!
//! `tokio-postgres` is asynchronous: each connection has a task that does its I/O, and a
//! client that sends it queries over a channel. The tasks run on one small runtime of this
//! backend's own (a thread named `haema-postgres`); a query's future is driven on the
//! calling thread by [`block_on`], which needs no runtime. So the store's calls block like
//! SQLite's, from any thread, including one of the caller's own runtime (where the sync
//! `postgres` crate would panic).

use std::cell::RefCell;
use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll, Wake, Waker};

use tokio_postgres::types::ToSql;
use tokio_postgres::{Client, Row, Statement};

use super::address::Address;

use crate::error::{Error, Result};

/// The runtime that drives every connection's I/O task.
fn runtime() -> Result<&'static tokio::runtime::Runtime> {
    static RUNTIME: OnceLock<std::result::Result<tokio::runtime::Runtime, String>> = OnceLock::new();
    RUNTIME
        .get_or_init(|| {
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .thread_name("haema-postgres")
                .enable_all()
                .build()
                .map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(|e| Error::Internal(format!("cannot start the PostgreSQL connection thread: {e}")))
}

/// Runs `future` on the runtime of the connections (a connect, which needs its reactor).
pub(super) fn on_runtime<T: Send + 'static>(future: impl Future<Output = T> + Send + 'static) -> Result<T> {
    let handle = runtime()?.spawn(future);
    block_on(handle).map_err(|e| Error::Internal(format!("a PostgreSQL task failed: {e}")))
}

/// Starts `future` on the runtime of the connections and leaves it running.
pub(super) fn spawn(future: impl Future<Output = ()> + Send + 'static) -> Result<()> {
    runtime()?.spawn(future);
    Ok(())
}

/// Polls `future` to its end on this thread, parking between wake-ups.
pub(super) fn block_on<F: Future>(future: F) -> F::Output {
    struct Unpark(std::thread::Thread);
    impl Wake for Unpark {
        fn wake(self: Arc<Self>) {
            self.0.unpark();
        }
        fn wake_by_ref(self: &Arc<Self>) {
            self.0.unpark();
        }
    }
    let waker = Waker::from(Arc::new(Unpark(std::thread::current())));
    let mut context = Context::from_waker(&waker);
    let mut future = std::pin::pin!(future);
    loop {
        match future.as_mut().poll(&mut context) {
            Poll::Ready(value) => return value,
            Poll::Pending => std::thread::park(),
        }
    }
}

/// Opens a connection with `config`; its I/O task runs on the connections' runtime and
/// ends when the client is dropped.
pub(super) fn connect(address: &Address) -> Result<Client> {
    let config = address.config.clone();
    let tls = address.tls.connector()?;
    let (client, connection) = on_runtime(async move { config.connect(tls).await })?.map_err(connect_error)?;
    spawn(async move {
        // The error, if any, is the client's next query's error too.
        let _ = connection.await;
    })?;
    Ok(client)
}

/// Why a connection could not be made, in words that say what to check.
pub(super) fn connect_error(error: tokio_postgres::Error) -> Error {
    let words = error.to_string();
    let source = std::error::Error::source(&error)
        .map(ToString::to_string)
        .unwrap_or_default();
    if source.contains("does not exist") && !source.contains("role") {
        return Error::DatabaseMissing(format!("cannot connect to PostgreSQL ({words}{})", colon(&source)));
    }
    let hint = if source.contains("password authentication failed") || words.contains("password") {
        "check the user and password (in the URL, PGPASSWORD, ~/.pgpass or the OS keyring)"
    } else if source.contains("does not exist") {
        "the server has no role of that name: check the user in the URL"
    } else if source.contains("not valid for name") || source.contains("NotValidForName") {
        "the server's certificate is for another name than the host in the URL: connect by a name the \
         certificate has, or use sslmode=verify-ca to check only who signed it"
    } else if source.contains("CertificateRequired") || source.contains("certificate required") {
        "the server asks for a client certificate: give sslcert and sslkey (PEM files) in the URL, or \
         ~/.postgresql/postgresql.crt and postgresql.key"
    } else if source.contains("UnknownIssuer") || source.contains("BadSignature") || source.contains("certificate") {
        "the server's certificate is not signed by a CA of sslrootcert (or ~/.postgresql/root.crt): check \
         that file (the CA's PEM), or use sslmode=prefer to encrypt without checking the server"
    } else if source.contains("does not support TLS") {
        "the server does not offer TLS: turn on `ssl` in its postgresql.conf, or use sslmode=prefer"
    } else if words.contains("TLS") || words.contains("tls") {
        "the TLS handshake failed: check sslmode, sslrootcert, sslcert and sslkey"
    } else {
        "check that the server runs and the host and port are right"
    };
    Error::Database(format!("cannot connect to PostgreSQL ({words}{}): {hint}", colon(&source)).into())
}

fn colon(source: &str) -> String {
    if source.is_empty() {
        String::new()
    } else {
        format!(": {source}")
    }
}

/// A connection with its prepared statements, to the store in `schema`.
pub(super) struct Conn {
    pub(super) client: Client,
    schema: String,
    statements: RefCell<HashMap<String, Statement>>,
}

impl std::fmt::Debug for Conn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Conn")
            .field("closed", &self.client.is_closed())
            .finish()
    }
}

/// Parameters of one statement.
pub(super) type Params<'a> = [&'a (dyn ToSql + Sync)];

impl Conn {
    pub(super) fn new(client: Client, schema: &str) -> Self {
        Self {
            client,
            schema: schema.to_owned(),
            statements: RefCell::default(),
        }
    }

    /// The schema of the store this connection works on.
    pub(super) fn schema(&self) -> &str {
        &self.schema
    }

    /// The prepared statement of `sql`, prepared once per connection.
    fn statement(&self, sql: &str) -> Result<Statement> {
        if let Some(statement) = self.statements.borrow().get(sql) {
            return Ok(statement.clone());
        }
        let statement = block_on(self.client.prepare(sql))?;
        let mut statements = self.statements.borrow_mut();
        if statements.len() > 500 {
            statements.clear();
        }
        statements.insert(sql.to_owned(), statement.clone());
        Ok(statement)
    }

    /// The rows `sql` returns.
    pub(super) fn query(&self, sql: &str, params: &Params<'_>) -> Result<Vec<Row>> {
        let statement = self.statement(sql)?;
        Ok(block_on(self.client.query(&statement, params))?)
    }

    /// The one row `sql` returns, if any.
    pub(super) fn query_opt(&self, sql: &str, params: &Params<'_>) -> Result<Option<Row>> {
        let statement = self.statement(sql)?;
        Ok(block_on(self.client.query_opt(&statement, params))?)
    }

    /// The one row `sql` returns.
    pub(super) fn query_one(&self, sql: &str, params: &Params<'_>) -> Result<Row> {
        let statement = self.statement(sql)?;
        Ok(block_on(self.client.query_one(&statement, params))?)
    }

    /// Runs `sql`; how many rows it changed.
    pub(super) fn execute(&self, sql: &str, params: &Params<'_>) -> Result<u64> {
        let statement = self.statement(sql)?;
        Ok(block_on(self.client.execute(&statement, params))?)
    }

    /// Runs statements without parameters (transaction control, DDL).
    pub(super) fn batch(&self, sql: &str) -> Result<()> {
        Ok(block_on(self.client.batch_execute(sql))?)
    }
}

/// The server's errors as the engine's: a full disk is [`Error::DiskFull`]; anything else
/// is a database error with the server's words.
impl From<tokio_postgres::Error> for Error {
    fn from(error: tokio_postgres::Error) -> Self {
        use tokio_postgres::error::SqlState;
        match error.code() {
            Some(code) if *code == SqlState::DISK_FULL => Error::DiskFull,
            Some(code) if *code == SqlState::CHARACTER_NOT_IN_REPERTOIRE => Error::InvalidArgument(
                "the text holds the NUL character (U+0000), which PostgreSQL cannot store: remove it \
                 (or keep this memory in a folder store); nothing was written"
                    .into(),
            ),
            Some(code) if *code == SqlState::READ_ONLY_SQL_TRANSACTION => Error::InvalidState(
                "the PostgreSQL server refuses writes (a read-only replica or transaction): reading works".into(),
            ),
            _ => {
                let detail = error.as_db_error().map(|db| {
                    let mut words = db.message().to_owned();
                    if let Some(hint) = db.hint() {
                        words.push_str(": ");
                        words.push_str(hint);
                    }
                    words
                });
                match detail {
                    Some(words) => Error::Database(format!("PostgreSQL: {words}").into()),
                    None => Error::Database(Box::new(error)),
                }
            }
        }
    }
}
