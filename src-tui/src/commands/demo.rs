//! `haema demo`: a store made from a bundled sample, opened in the terminal UI.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::cli::DemoArgs;

/// The sample: a haema export made by `examples/make_demo_sample.rs`.
pub(crate) const SAMPLE: &str = include_str!("../../assets/demo.jsonl");
/// Marks a folder as a demo store, so that `--reset` never deletes anything else.
const MARKER: &str = ".haema-demo";

/// `$XDG_DATA_HOME/haema/demo`, unless a store was named.
pub fn folder(explicit: Option<PathBuf>) -> Result<PathBuf> {
    match explicit.filter(|p| !p.as_os_str().is_empty()) {
        Some(dir) => Ok(dir),
        None => Ok(haema_core::default_store_dir()
            .context("cannot find the home folder; pass --store DIR")?
            .parent()
            .context("the default store has no parent folder")?
            .join("demo")),
    }
}

fn is_empty_dir(dir: &Path) -> bool {
    std::fs::read_dir(dir).map_or(true, |mut entries| entries.next().is_none())
}

/// Creates the demo store when needed and opens it.
pub async fn run(dir: &Path, args: DemoArgs) -> Result<()> {
    if args.reset && dir.exists() {
        if !dir.join(MARKER).is_file() {
            bail!(
                "{} was not made by `haema demo`; not deleting it (choose another folder with --store)",
                dir.display()
            );
        }
        std::fs::remove_dir_all(dir).with_context(|| format!("cannot remove {}", dir.display()))?;
    }
    let fresh = is_empty_dir(dir);
    if !fresh && !dir.join(MARKER).is_file() {
        bail!(
            "{} already holds a store that is not the demo; choose an empty folder with --store",
            dir.display()
        );
    }
    let interactive = std::io::stdout().is_terminal() && std::io::stdin().is_terminal();
    // In a terminal the UI opens at once and gets the embedding model in the background;
    // otherwise the model is fetched (with progress) before the sample is imported.
    let memory = if interactive {
        crate::session::open(dir).await
    } else {
        crate::session::open_for_vectors(dir).await
    }
    .with_context(|| format!("cannot open the demo store at {}", dir.display()))?;
    if fresh {
        std::fs::write(
            dir.join(MARKER),
            "made by `haema demo`; `haema demo --reset` starts it again\n",
        )
        .with_context(|| format!("cannot write in {}", dir.display()))?;
        let report = memory
            .import_jsonl(SAMPLE.as_bytes())
            .await
            .context("cannot import the demo sample")?;
        eprintln!(
            "haema: demo store created at {} ({} memories, {} changesets)",
            dir.display(),
            report.memories,
            report.changesets
        );
    }
    if interactive {
        crate::tui::run(memory).await
    } else {
        super::memories::status(&memory, false).await?;
        eprintln!(
            "haema: run `haema --store {}` in a terminal to browse it",
            dir.display()
        );
        Ok(())
    }
}
