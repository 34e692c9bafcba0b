//! `haema reembed`: switch a store to another embedder with a progress bar.

use std::path::Path;

use anyhow::Result;
use haema_core::{ReembedProgress, Settings};

use crate::cli::ReembedArgs;
use crate::output::{self, print};

pub async fn run(dir: &Path, args: ReembedArgs) -> Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut settings = Settings::load(dir)?;
    if let Some(provider) = args.embedder {
        settings.embedder.provider = Some(provider);
    }
    if let Some(model) = args.model {
        settings.embedder.model = Some(model);
    }
    if let Some(dims) = args.dims {
        settings.embedder.dims = Some(dims);
    }
    if let Some(url) = args.base_url {
        settings.embedder.base_url = Some(url);
    }
    settings.validate()?;
    let embedder = super::model::build_embedder(&settings).await?;
    let bar = output::progress("memories");
    let report = haema_core::reembed(dir, embedder, |p: ReembedProgress| {
        bar.set_length(p.total as u64);
        bar.set_position(p.done as u64);
    })
    .await?;
    bar.finish_and_clear();
    let remembered = settings.remember_embedder(dir)?;
    if let Ok(set) = std::env::var("HAEMA_EMBEDDER")
        && set.trim() != settings.embedder.kind().as_str()
    {
        eprintln!(
            "haema: note: HAEMA_EMBEDDER={set} is set in this environment and wins over haema.toml: unset it (or set it to {}) before the next command",
            settings.embedder.kind().as_str()
        );
    }
    if args.json {
        let mut value = serde_json::to_value(&report)?;
        value["settings_written"] = remembered.into();
        return output::json(&value);
    }
    let how = if remembered {
        format!(
            "it is written under [embedder] in {}, so later commands use it",
            Settings::file_path(dir).display()
        )
    } else {
        format!(
            "[embedder] in {} already names it, so later commands use it",
            Settings::file_path(dir).display()
        )
    };
    print(&format!(
        "The store now uses embedder {} ({} dims){}; {} memories embedded by this run.\nThe embedder settings: {how}.\n",
        report.to,
        report.dims,
        if report.resumed {
            ", resuming an earlier run"
        } else {
            ""
        },
        report.embedded
    ))
}
