//! The arguments of `haema migrate` and `haema pg`: moving stores between places and
//! preparing a PostgreSQL database.

use std::path::PathBuf;

use clap::{Args, Subcommand};

#[derive(Debug, Args)]
pub struct MigrateArgs {
    /// The store to copy: a folder, a name, or a postgres:// URL.
    #[arg(long, value_name = "STORE")]
    pub from: PathBuf,
    /// Where to: a new folder or name, or a postgres:// URL of an empty schema.
    #[arg(long, value_name = "STORE")]
    pub to: PathBuf,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Subcommand)]
pub enum PgCommand {
    /// Create the pgvector extension (when missing) and the store's schema and tables,
    /// owned by the role haema will run as; run it with an admin's URL. Running it again
    /// changes nothing.
    Init {
        /// An admin's URL, naming the database and (with ?schema=) the store's schema.
        #[arg(value_name = "URL")]
        url: String,
        /// The role that will own the schema and its tables (default: the admin's).
        #[arg(long, value_name = "ROLE")]
        owner: Option<String>,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Keep a PostgreSQL store's password in the system keyring (asked without echo, tried
    /// on the server first), so that the URL, the environment and files need not hold it.
    Password {
        /// The store's URL (its password, if any, is ignored).
        #[arg(value_name = "URL")]
        url: String,
        /// Remove the saved password instead.
        #[arg(long)]
        remove: bool,
    },
}
