//! `haema config` and `haema doctor`.

use std::path::Path;

use anyhow::{Result, bail};
use haema_core::Settings;
use haema_core::config::Source;

use crate::UsageError;
use crate::cli::{ConfigAction, ConfigArgs};
use crate::output::{self, print};
use haema_core::config::connect::{Connection, Role};

/// `haema config`, `haema config set NAME VALUE`, `haema config unset NAME`.
pub fn run(dir: &Path, args: ConfigArgs) -> Result<()> {
    match args.action {
        None => config(dir, args.json),
        Some(ConfigAction::Set { name, value }) => {
            if name.trim().ends_with("api_key") {
                return Err(UsageError(format!(
                    "{} is never written to a file; save a key with `haema setup` (it asks without showing it and keeps it in the system keyring), or set {}",
                    name.trim(),
                    env_of_key(name.trim())
                ))
                .into());
            }
            std::fs::create_dir_all(dir)?;
            Settings::write_setting(dir, &name, Some(&value)).map_err(usage)?;
            println!(
                "{} = {value:?} written to {}",
                name.trim(),
                Settings::file_path(dir).display()
            );
            warn_if_overridden(name.trim());
            Ok(())
        }
        Some(ConfigAction::Unset { name }) => match name.trim() {
            key @ ("llm.api_key" | "embedder.api_key") => unset_key(dir, key),
            name => {
                if !Settings::file_path(dir).is_file() {
                    println!(
                        "{name} is not in {} (there is no such file): nothing to remove",
                        Settings::file_path(dir).display()
                    );
                    return Ok(());
                }
                Settings::write_setting(dir, name, None).map_err(usage)?;
                println!(
                    "{name} removed from {}; its default applies",
                    Settings::file_path(dir).display()
                );
                warn_if_overridden(name);
                Ok(())
            }
        },
    }
}

/// A core error about a setting, as a usage error (exit 2).
fn usage(e: haema_core::Error) -> anyhow::Error {
    match e {
        haema_core::Error::InvalidArgument(text) => UsageError(text).into(),
        other => other.into(),
    }
}

fn env_of_key(name: &str) -> &'static str {
    if name.starts_with("embedder") {
        "HAEMA_EMBED_API_KEY"
    } else {
        "HAEMA_LLM_API_KEY"
    }
}

/// Says when the environment sets `name`, so what was written does not apply here.
fn warn_if_overridden(name: &str) {
    let var = haema_core::config::SettingSpec::named(name).and_then(|s| s.env);
    if let Some(var) = var.filter(|v| std::env::var(v).is_ok_and(|x| !x.is_empty())) {
        eprintln!("haema: note: {var} is set in this environment and wins over haema.toml here");
    }
}

/// Removes the key saved in the keyring for the service `name`'s role is configured with.
fn unset_key(dir: &Path, name: &str) -> Result<()> {
    let env = |n: &str| std::env::var(n).ok();
    let settings = Settings::load_with(dir, Settings::user_file_path().as_deref(), env)?;
    let role = if name.starts_with("embedder") {
        Role::Embedder
    } else {
        Role::Llm
    };
    let state = Connection::state(&settings, role, env);
    let keys = haema_core::keys::from_env(env);
    if state.connection.service == haema_core::config::connect::Service::None {
        println!("no service is configured for {name}'s role: no key to remove");
        return Ok(());
    }
    if state.connection.forget_key(&*keys)? {
        println!("the key saved in the system keyring for this service is removed");
    } else {
        println!("no key was saved in the system keyring for this service");
    }
    if env(env_of_key(name)).is_some_and(|v| !v.is_empty()) {
        eprintln!(
            "haema: note: {} is set in this environment and still gives a key here",
            env_of_key(name)
        );
    }
    Ok(())
}

pub fn config(dir: &Path, as_json: bool) -> Result<()> {
    let lines = Settings::explain(dir, |name| std::env::var(name).ok())?;
    let user_file = Settings::user_file_path();
    if as_json {
        return output::json(&serde_json::json!({
            "store": dir,
            "file": Settings::file_path(dir),
            "user_file": user_file,
            "settings": lines,
        }));
    }
    let mut text = format!(
        "store  {}\nfile   {}\nuser   {}\n\n",
        dir.display(),
        Settings::file_path(dir).display(),
        user_file.map_or_else(|| "none (no home folder)".to_owned(), |p| p.display().to_string()),
    );
    for line in &lines {
        let source = match line.source {
            Source::Env => format!("env {}", line.env),
            Source::File => "file".to_owned(),
            Source::UserFile => "user file".to_owned(),
            Source::Keyring => "keyring".to_owned(),
            Source::Default => "default".to_owned(),
        };
        text.push_str(&format!(
            "{:<24} {:<44} {source}\n{:<24} {}\n",
            line.key, line.value, "", line.help
        ));
    }
    print(&text)
}

pub async fn doctor(dir: &Path, as_json: bool) -> Result<()> {
    let settings = Settings::load(dir)?;
    let checks = haema_core::doctor(dir, &settings).await;
    if as_json {
        output::json(&checks)?;
    } else {
        let text: String = checks
            .iter()
            .map(|c| {
                let next = c
                    .problem
                    .as_ref()
                    .map(|p| format!("; {}", crate::remedy::cli_check(p)))
                    .unwrap_or_default();
                format!(
                    "{} {:<9} {}{next}\n",
                    if c.ok { "ok  " } else { "FAIL" },
                    c.name,
                    c.detail
                )
            })
            .collect();
        print(&text)?;
    }
    let failed = checks.iter().filter(|c| !c.ok).count();
    if failed > 0 {
        bail!("{failed} check(s) failed; see above");
    }
    Ok(())
}
