//! Runs each command against `haema-core`.

mod agent_key;
mod bench;
mod confirm;
mod core;
mod demo;
mod edit;
mod eval;
mod forget;
mod memories;
mod model;
mod postgres;
mod prompt;
mod purge;
mod reembed;
mod review;
mod settings;
mod setup;
mod state;
mod transfer;

use std::io::{IsTerminal, Read};
use std::path::Path;

use anyhow::{Context, Result};

use crate::UsageError;
use crate::cli::{Cli, Command, LatestArgs, RecallArgs, SearchArgs};
use crate::{session, store_path};

/// Reads a file, or standard input for `-`.
pub fn read_source(path: &Path) -> Result<String> {
    if path == Path::new("-") {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("cannot read standard input")?;
        Ok(text)
    } else {
        std::fs::read_to_string(path)
            .map_err(|e| UsageError(format!("cannot read {}: {e}", path.display())))
            .map_err(anyhow::Error::from)
    }
}

/// A temporary folder, and the folder to keep stores in: `work` (created when needed) when
/// given, else the temporary one. The temporary folder goes when the guard is dropped.
fn work_folder(prefix: &str, work: Option<&std::path::Path>) -> Result<(tempfile::TempDir, std::path::PathBuf)> {
    let temp = tempfile::Builder::new()
        .prefix(prefix)
        .tempdir()
        .context("cannot make a temporary folder for the stores")?;
    let folder = match work {
        Some(dir) => {
            std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
            dir.to_path_buf()
        }
        None => temp.path().to_path_buf(),
    };
    Ok((temp, folder))
}

pub async fn run(cli: Cli) -> Result<()> {
    if let Some(Command::Demo(args)) = cli.command {
        let dir = demo::folder(cli.store)?;
        return demo::run(&dir, args).await;
    }
    if let Some(Command::Hook(command)) = cli.command {
        let target = crate::hooks::Target {
            store: cli.store,
            user: cli.user,
        };
        crate::hooks::run(command, target).await
    }
    if let Some(Command::Hooks(command)) = cli.command {
        let target = crate::hooks::Target {
            store: cli.store,
            user: cli.user,
        };
        return crate::hooks::manage(command, &target);
    }
    if let Some(Command::Eval(command)) = cli.command {
        return eval::run(command).await;
    }
    if let Some(Command::Bench(args)) = cli.command {
        return bench::run(args).await;
    }
    if let Some(Command::Migrate(args)) = cli.command {
        return postgres::migrate(args).await;
    }
    if let Some(Command::Pg(command)) = cli.command {
        return postgres::run(command).await;
    }
    let dir = store_path::resolve(cli.store)?;
    // These work on a store whose recorded embedder differs from the configured one.
    match cli.command {
        Some(Command::Reembed(args)) => return reembed::run(&dir, args).await,
        Some(Command::Config(args)) => return settings::run(&dir, args),
        Some(Command::Setup) => return setup::run(&dir).await,
        Some(Command::Doctor(flag)) => return settings::doctor(&dir, flag.json).await,
        Some(Command::Model(command)) => return model::run(&dir, command).await,
        _ => {}
    }
    // Commands that search or write get the embedding model on first use (the MCP server
    // answers at once and gets it in the background).
    let vectors = matches!(
        cli.command,
        Some(
            Command::Add(_)
                | Command::Search(_)
                | Command::Recall(_)
                | Command::Import(_)
                | Command::Forget(_)
                | Command::Update(_)
                | Command::EmbedPending(_)
        )
    );
    let memory = if vectors {
        session::open_for_vectors(&dir).await?
    } else {
        session::open(&dir).await?
    };
    let (memory, mut command) = (memory, cli.command);
    // A store that keeps users apart is opened for the user; in others the user is an
    // attribute of what is added and a filter of what is read.
    // An agent key made with --user is bound to that user, in any store.
    let key_user = cli.user.clone();
    let memory = if memory.requires_user() {
        // The MCP server takes each call's `user_id`; purge-user names its user.
        if cli.user.is_none()
            && !matches!(
                command,
                Some(Command::PurgeUser(_) | Command::Mcp(_) | Command::AgentKey(_))
            )
        {
            let error = haema_core::Error::UserRequired;
            return Err(UsageError(crate::remedy::with_cli_remedy(&error)).into());
        }
        session::as_user(memory, cli.user.as_deref())?
    } else {
        let user = cli.user.map(|u| u.trim().to_owned());
        match &mut command {
            Some(Command::Add(args)) => args.attributes.user_id = user,
            Some(Command::Search(SearchArgs { filter, .. }))
            | Some(Command::Latest(LatestArgs { filter, .. }))
            | Some(Command::Recall(RecallArgs { filter, .. })) => filter.user_id = user,
            _ => {}
        }
        memory
    };
    match command {
        None if std::io::stdout().is_terminal() && std::io::stdin().is_terminal() => crate::tui::run(memory).await,
        None => memories::overview(&memory).await,
        Some(Command::Status(flag)) => memories::status(&memory, flag.json).await,
        Some(Command::Add(args)) => memories::add(&memory, args).await,
        Some(Command::Search(args)) => memories::search(&memory, args).await,
        Some(Command::Latest(args)) => memories::latest(&memory, args).await,
        Some(Command::Recall(args)) => memories::recall(&memory, args).await,
        Some(Command::Core(command)) => core::run(&memory, command).await,
        Some(Command::Review(command)) => review::run(&memory, command).await,
        Some(Command::History(args)) => review::history(&memory, args).await,
        Some(Command::Revert(args)) => review::revert(&memory, args.id, args.json).await,
        Some(Command::Forget(args)) => forget::run(&memory, args).await,
        Some(Command::PurgeUser(args)) => purge::run(&memory, args).await,
        Some(Command::Delete(target)) => edit::delete(&memory, target).await,
        Some(Command::Update(args)) => edit::update(&memory, args).await,
        Some(Command::Pin(target)) => edit::pin(&memory, target, true).await,
        Some(Command::State(command)) => state::run(&memory, command).await,
        Some(Command::AgentKey(command)) => agent_key::run(&memory, command, key_user).await,
        Some(Command::Unpin(target)) => edit::pin(&memory, target, false).await,
        Some(Command::Export(args)) => transfer::export(&memory, args).await,
        Some(Command::Import(args)) => transfer::import(&memory, args).await,
        Some(Command::Mcp(args)) => match args.http {
            None => crate::mcp::serve(memory).await,
            Some(addr) => {
                let options = crate::mcp::HttpOptions {
                    addr,
                    trusted_network: args.trusted_network,
                    allowed_origins: args.allow_origins,
                    tls: args.tls_cert.zip(args.tls_key),
                    max_sessions: args.max_sessions,
                    max_sessions_per_key: args.max_sessions_per_key,
                    requests_per_minute: args.requests_per_minute,
                };
                crate::mcp::serve_http(memory, options).await
            }
        },
        Some(Command::EmbedPending(flag)) => memories::embed_pending(&memory, flag.json).await,
        Some(
            Command::Reembed(_)
            | Command::Config(_)
            | Command::Setup
            | Command::Doctor(_)
            | Command::Demo(_)
            | Command::Model(_)
            | Command::Eval(_)
            | Command::Bench(_)
            | Command::Migrate(_)
            | Command::Pg(_)
            | Command::Hook(_)
            | Command::Hooks(_),
        ) => Ok(()),
    }
}
