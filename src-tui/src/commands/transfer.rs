//! `haema export` and `haema import`.

use anyhow::{Context, Result};
use haema_core::Memory;

use super::read_source;
use crate::cli::{ExportArgs, ImportArgs};
use crate::output::{self, print};

pub async fn export(memory: &Memory, args: ExportArgs) -> Result<()> {
    let mut out: Box<dyn std::io::Write + Send> = match &args.output {
        Some(path) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(path).with_context(|| format!("cannot create {}", path.display()))?,
        )),
        None => Box::new(std::io::BufWriter::new(std::io::stdout())),
    };
    if args.format == "markdown" {
        memory.export_markdown(&mut out).await?;
    } else {
        let records = memory.export_jsonl(&mut out).await?;
        if let Some(path) = &args.output {
            eprintln!("haema: wrote {records} records to {}", path.display());
        }
    }
    Ok(())
}

pub async fn import(memory: &Memory, args: ImportArgs) -> Result<()> {
    if args.file.is_dir() {
        return import_haema(memory, &args).await;
    }
    let text = read_source(&args.file)?;
    if haema_core::is_export(&text) {
        let bar = output::progress("memories");
        let report = memory
            .import_jsonl_with_progress(text.as_bytes(), output::advance(&bar))
            .await;
        bar.finish_and_clear();
        let report = report?;
        if args.json {
            return output::json(&report);
        }
        if report.memories == 0 && report.already_present > 0 {
            return print(&format!(
                "Nothing to import: all {} memories are already in this store.\n",
                report.already_present
            ));
        }
        return print(&format!(
            "Imported {} memories, {} changesets and {} core versions.\n",
            report.memories, report.changesets, report.core_versions
        ));
    }
    let items = haema_core::parse_items(&text)?;
    let bar = output::progress("memories");
    let report = memory
        .import_items_with_progress(
            items,
            &format!("import of {}", args.file.display()),
            output::advance(&bar),
        )
        .await;
    bar.finish_and_clear();
    let report = report?;
    if args.json {
        return output::json(&report);
    }
    print(&format!(
        "Imported {} memories{}; {} skipped (already known or repeated).\n",
        report.added,
        report
            .changeset
            .map(|c| format!(" as changeset {c}"))
            .unwrap_or_default(),
        report.skipped
    ))
}

/// `haema import <HAEMA store folder>`.
async fn import_haema(memory: &Memory, args: &ImportArgs) -> Result<()> {
    if !haema_core::is_haema_store(&args.file) {
        return Err(crate::UsageError(format!(
            "{} is a folder but not a HAEMA store (it has neither latest.sqlite3 nor db/chroma.sqlite3); to import a file, name the file",
            args.file.display()
        ))
        .into());
    }
    let bar = output::progress("memories");
    let report = memory
        .import_haema_with_progress(&args.file, output::advance(&bar))
        .await;
    bar.finish_and_clear();
    let report = report?;
    if args.json {
        return output::json(&report);
    }
    let mut text = format!(
        "Imported {} memories from the HAEMA store{}; {} already here.\n",
        report.added,
        report
            .changeset
            .map(|c| format!(" as changeset {c}"))
            .unwrap_or_default(),
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
    print(&text)
}
