//! `haema migrate` (a store copied whole to another place) and `haema pg init` (a
//! database prepared for haema's stores).

use anyhow::{Context, Result};
use serde_json::json;

use crate::cli::{MigrateArgs, PgCommand};
use crate::output::{self, print};

/// A store name from the command line: a folder, a name or a PostgreSQL URL.
fn store_of(name: &std::path::Path) -> Result<std::path::PathBuf> {
    Ok(haema_core::store_dir_for(name)?)
}

pub async fn migrate(args: MigrateArgs) -> Result<()> {
    let (from, to) = (store_of(&args.from)?, store_of(&args.to)?);
    if from == to {
        return Err(crate::UsageError("--from and --to name the same store".into()).into());
    }
    let (from_shown, to_shown) = (shown(&args.from), shown(&args.to));
    let report = tokio::task::spawn_blocking(move || haema_core::migrate_store(&from, &to))
        .await
        .context("the copy stopped")??;
    if args.json {
        return output::json(&json!({"from": from_shown, "to": to_shown, "report": report}));
    }
    let mut text = format!(
        "Copied {from_shown} to {to_shown}: {} memories, {} changesets, {} core versions, {} locks, \
         {} vectors, {} agent state changes, access statistics of {} memories.\n",
        report.memories,
        report.changesets,
        report.core_versions,
        report.locks,
        report.vectors,
        report.agent_state_changes,
        report.access_stats,
    );
    if report.records_with_secrets == 0 {
        text.push_str(&format!(
            "Checked: the export of both is the same (SHA-256 {}).\n",
            report.checksum
        ));
    } else {
        text.push_str(&secrets_words(&report, &from_shown, &to_shown));
    }
    print(&text)
}

/// What a migration did with the secrets the source held, and how to remove them there.
fn secrets_words(report: &haema_core::MigrateReport, from: &str, to: &str) -> String {
    let records = match report.records_with_secrets {
        1 => "1 record of the source holds".to_owned(),
        n => format!("{n} records of the source hold"),
    };
    let mut text = format!(
        "Secrets: {records} what looks like a secret ({}), stored before haema screened for them. The copy has \
         a marker such as [secret: aws access key] in place of each.\n\
         Checked: the export of the copy is the source's with those secrets replaced (SHA-256 {}).\n",
        report.secrets, report.checksum
    );
    if report.vectors_to_remake > 0 {
        text.push_str(&format!(
            "{} memories of the copy get their search vectors made again from their new text on its next open \
             (or `haema embed-pending`).\n",
            report.vectors_to_remake
        ));
    }
    text.push_str(&format!(
        "The source still holds them. The copy's markers show where: `haema --store {to} search secret --mode lexical`. \
         Remove each from the source with `haema --store {from} forget --mentioning '<the secret>'` (it goes from its \
         memories, history, core versions and agent state), or delete the source once you no longer need it.\n"
    ));
    text
}

/// A store name as people are shown it: a URL without its password.
fn shown(name: &std::path::Path) -> String {
    let text = name.display().to_string();
    match text.split_once("://") {
        Some((scheme, rest)) => match rest.split_once('@') {
            Some((credentials, host)) => match credentials.split_once(':') {
                Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
                None => text,
            },
            None => text,
        },
        None => text,
    }
}

pub async fn run(command: PgCommand) -> Result<()> {
    match command {
        PgCommand::Password { url, remove: true } => {
            let removed = tokio::task::spawn_blocking(move || haema_core::forget_postgres_password(&url))
                .await
                .context("`pg password` stopped")??;
            print(if removed {
                "The saved password was removed from the system keyring.\n"
            } else {
                "No password was saved in the system keyring for this store.\n"
            })
        }
        PgCommand::Password { url, remove: false } => {
            let password = super::prompt::secret(&format!("Password for {}", shown(std::path::Path::new(&url))))?;
            if password.is_empty() {
                return Err(crate::UsageError("no password was typed; nothing was saved".into()).into());
            }
            let account = tokio::task::spawn_blocking(move || haema_core::save_postgres_password(&url, &password))
                .await
                .context("`pg password` stopped")??;
            print(&format!(
                "The server took it; it is kept in the system keyring for {account}, where haema finds it.\n"
            ))
        }
        PgCommand::Init { url, owner, json } => {
            let report = tokio::task::spawn_blocking(move || haema_core::init_postgres(&url, owner.as_deref()))
                .await
                .context("`pg init` stopped")??;
            if json {
                return output::json(&report);
            }
            let as_owner = report.store.split_once('@').map_or_else(
                || report.store.clone(),
                |(_, rest)| format!("postgres://{}@{rest}", report.owner),
            );
            print(&format!(
                "Ready: {} (schema version {}), owned by {}; pgvector {}{}.\n\
                 Run haema as {} with --store {as_owner} (its password from the URL, PGPASSWORD, ~/.pgpass or the keyring).\n",
                report.store,
                report.schema_version,
                report.owner,
                report.pgvector,
                if report.created_extension {
                    " created"
                } else {
                    " already there"
                },
                report.owner,
            ))
        }
    }
}
