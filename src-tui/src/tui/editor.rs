//! Editing a section in the user's `$VISUAL` / `$EDITOR`.

use std::process::Command;

use anyhow::{Context, Result, bail};
use haema_core::Section;

/// The editor command: `$VISUAL`, else `$EDITOR`, else `vi`; split on whitespace so that
/// `code --wait` works.
fn command() -> Vec<String> {
    let line = ["VISUAL", "EDITOR"]
        .iter()
        .filter_map(|v| std::env::var(v).ok())
        .find(|v| !v.trim().is_empty())
        .unwrap_or_else(|| "vi".to_owned());
    line.split_whitespace().map(str::to_owned).collect()
}

/// Opens `text` in the editor and returns what was saved (the terminal must be free).
pub fn edit(section: Section, text: &str) -> Result<String> {
    let file = tempfile::Builder::new()
        .prefix(&format!("haema-{}-", section.name()))
        .suffix(".md")
        .tempfile()
        .context("cannot create a temporary file for the editor")?;
    std::fs::write(file.path(), text).context("cannot write the temporary file")?;
    let parts = command();
    let (program, args) = parts.split_first().context("no editor; set $EDITOR")?;
    let status = Command::new(program)
        .args(args)
        .arg(file.path())
        .status()
        .with_context(|| format!("cannot start the editor `{program}`; set $EDITOR to one you have"))?;
    if !status.success() {
        bail!("the editor `{program}` exited with {status}; the section was not changed");
    }
    std::fs::read_to_string(file.path()).context("cannot read back the edited file")
}
