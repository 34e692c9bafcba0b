//! `haema config` and `haema doctor`.

use std::path::Path;

use anyhow::{Result, bail};
use haema_core::Settings;
use haema_core::config::Source;

use crate::output::{self, print};

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
