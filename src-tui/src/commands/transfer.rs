//! `haema export` and `haema import`.

use anyhow::{Context, Result};
use haema_core::{HaemaReport, Imported, Memory};

use super::read_source;
use crate::cli::{ExportArgs, ImportArgs};
use crate::output::{self, print};

/// Writes an export to standard output, or to a file: never over a file of the store (its
/// database, log, core.md, settings or any file already in its folder), written under a
/// temporary name beside it (yours alone) and renamed only once whole, so a failed export
/// leaves an existing file as it was.
pub async fn export(memory: &Memory, args: ExportArgs) -> Result<()> {
    let Some(path) = &args.output else {
        let mut out = std::io::BufWriter::new(std::io::stdout());
        if args.format == "markdown" {
            memory.export_markdown(&mut out).await?;
        } else {
            memory.export_jsonl(&mut out).await?;
        }
        return Ok(());
    };
    if overwrites_the_store(path, memory.dir()) {
        return Err(crate::UsageError(format!(
            "{} is a file of the store in {}: exporting there would overwrite the store itself; write the export somewhere else",
            path.display(),
            memory.dir().display()
        ))
        .into());
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = path.with_file_name(format!(".{name}.haema-export-{}", std::process::id()));
    let _ = std::fs::remove_file(&temp);
    let file = haema_core::create_private(&temp).with_context(|| format!("cannot create {}", temp.display()))?;
    let mut out = std::io::BufWriter::new(file);
    let written = if args.format == "markdown" {
        memory.export_markdown(&mut out).await.map(|()| None)
    } else {
        memory.export_jsonl(&mut out).await.map(Some)
    };
    let finished = written.map_err(anyhow::Error::from).and_then(|records| {
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        std::fs::rename(&temp, path).with_context(|| format!("cannot write {}", path.display()))?;
        Ok(records)
    });
    match finished {
        Ok(records) => {
            if let Some(records) = records {
                eprintln!("haema: wrote {records} records to {}", path.display());
            }
            Ok(())
        }
        Err(e) => {
            let _ = std::fs::remove_file(&temp);
            Err(e)
        }
    }
}

pub async fn import(memory: &Memory, args: ImportArgs) -> Result<()> {
    let bar = output::progress("memories");
    let imported = if haema_core::import_folder(&args.file).is_some() {
        memory.import_path(&args.file, output::advance(&bar)).await
    } else {
        let text = read_source(&args.file)?;
        let name = args.file.display().to_string();
        memory.import_text(&name, &text, output::advance(&bar)).await
    };
    bar.finish_and_clear();
    let imported = imported?;
    if args.json {
        return match &imported {
            Imported::Export(report) => output::json(report),
            Imported::Items(report) => output::json(report),
            Imported::Haema(report) => output::json(report),
        };
    }
    print(&match imported {
        Imported::Export(report) if report.memories == 0 && report.already_present > 0 => format!(
            "Nothing to import: all {} memories are already in this store.\n",
            report.already_present
        ),
        Imported::Export(report) => {
            let mut text = format!(
                "Imported {} memories, {} changesets, {} core versions and {} changes of agent state.\n",
                report.memories, report.changesets, report.core_versions, report.agent_state_changes
            );
            for w in &report.warnings {
                text.push_str(&format!("note: {w}\n"));
            }
            text
        }
        Imported::Items(report) => {
            let mut text = format!(
                "Imported {} memories{}; {} skipped (already known or repeated).\n",
                report.added,
                as_changeset(report.changeset),
                report.skipped
            );
            for w in &report.warnings {
                text.push_str(&format!("note: {w}\n"));
            }
            text
        }
        Imported::Haema(report) => haema_words(&report),
    })
}

/// ` as changeset 7` when an import made one.
fn as_changeset(changeset: Option<haema_core::ChangesetId>) -> String {
    changeset.map(|c| format!(" as changeset {c}")).unwrap_or_default()
}

/// What importing a HAEMA store folder did, in words.
fn haema_words(report: &HaemaReport) -> String {
    let mut text = format!(
        "Imported {} memories from the HAEMA store{}; {} already here.\n",
        report.added,
        as_changeset(report.changeset),
        report.skipped
    );
    if report.only_in_chroma > 0 {
        text.push_str(&format!(
            "{} of them were only in Chroma (a HAEMA write was interrupted before latest.sqlite3).\n",
            report.only_in_chroma
        ));
    }
    if report.replaced_not_imported > 0 {
        text.push_str(&format!(
            "{} memories HAEMA had replaced (kept there as deleted rows) were not imported.\n",
            report.replaced_not_imported
        ));
    }
    text.push_str(match report.core {
        haema_core::CoreImport::Imported => "core.md imported as a new core version.\n",
        haema_core::CoreImport::Same => "core.md: already the same here.\n",
        haema_core::CoreImport::KeptYours => "core.md: not applied (see below).\n",
        haema_core::CoreImport::Missing => "The HAEMA store has no core.md.\n",
    });
    for w in &report.warnings {
        text.push_str(&format!("note: {w}\n"));
    }
    text
}

/// Whether writing `path` would replace a file of the store in `dir`: a file already in
/// the store folder, or one of the names the store uses (however the path is spelled, a
/// link followed).
fn overwrites_the_store(path: &std::path::Path, dir: &std::path::Path) -> bool {
    if !haema_core::is_inside(path, dir) {
        return false;
    }
    let real = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let name = real
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    real.exists()
        || ["memory.db", "core.md", "haema.toml"]
            .iter()
            .any(|own| name.starts_with(own))
}
