//! core show / sections / set / lock / unlock / history / restore / export.

use std::collections::BTreeMap;

use anyhow::Result;
use haema_core::Memory;

use super::read_source;
use crate::cli::CoreCommand;
use crate::output::{self, print, utc};

pub async fn run(memory: &Memory, command: CoreCommand) -> Result<()> {
    match command {
        // Control characters in core.md print as `�` (see `output::print`).
        CoreCommand::Show => print(&memory.get_core().await?),
        CoreCommand::Export { file } => export(memory, &file).await,
        CoreCommand::Sections(flag) => {
            let sections = memory.core_sections().await?;
            let locked = memory.locked_sections().await?;
            if flag.json {
                let map: BTreeMap<&str, &str> = sections.iter().map(|(s, t)| (s.name(), t)).collect();
                return output::json(&map);
            }
            let mut text = String::new();
            for (section, body) in sections.iter() {
                let lock = if locked.contains(&section) { "  (locked)" } else { "" };
                text.push_str(&format!(
                    "# {section}{lock}\n{}\n\n",
                    if body.is_empty() { "(empty)" } else { body }
                ));
            }
            print(&text)
        }
        CoreCommand::Set { section, file } => {
            let text = read_source(&file)?;
            let version = memory.set_core_section(section, &text).await?;
            if let Some(receipt) = haema_core::secrets::receipt(&haema_core::secrets::redact(&text).1) {
                eprintln!("haema: warning: {receipt}");
            }
            print(&format!("Section {section} saved (core version {version}).\n"))
        }
        CoreCommand::Lock { section } => {
            memory.set_section_lock(section, true).await?;
            print(&format!("Section {section} is locked: the LLM will not change it.\n"))
        }
        CoreCommand::Unlock { section } => {
            memory.set_section_lock(section, false).await?;
            print(&format!("Section {section} is unlocked.\n"))
        }
        CoreCommand::History(flag) => {
            let versions = memory.core_versions().await?;
            if flag.json {
                return output::json(&versions);
            }
            let text: String = versions
                .iter()
                .map(|v| {
                    let by = v.changeset_id.map(|c| format!(" (changeset {c})")).unwrap_or_default();
                    format!("{:>4}  {}  {}{by}\n", v.id, utc(v.created_at_ms), v.author)
                })
                .collect();
            print(&text)
        }
        CoreCommand::Restore { version_id: version } => {
            let new = memory.restore_core_version(version).await?;
            print(&format!(
                "core.md is version {version} again (saved as version {new}).\n"
            ))
        }
    }
}

/// Writes core.md to `file` (- for standard output), never over an existing file.
async fn export(memory: &Memory, file: &std::path::Path) -> Result<()> {
    let text = memory.get_core().await?;
    if file.as_os_str() == "-" {
        return output::print_exact(&text);
    }
    // The owner's alone (0600), as every file of the store is.
    let mut out = haema_core::create_private(file).map_err(|e| {
        crate::UsageError(if e.kind() == std::io::ErrorKind::AlreadyExists {
            format!("{} exists: name a new file (nothing was written)", file.display())
        } else {
            format!("cannot create {}: {e}", file.display())
        })
    })?;
    std::io::Write::write_all(&mut out, text.as_bytes())
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", file.display()))?;
    print(&format!("core.md written to {}\n", file.display()))
}
