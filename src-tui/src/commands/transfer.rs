//! `haema export` and `haema import`.

use anyhow::{Context, Result};
use haema_core::{Memory, Record};

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
    let text = read_source(&args.file)?;
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or_default();
    if matches!(serde_json::from_str::<Record>(first), Ok(Record::Header { .. })) {
        let report = memory.import_jsonl(text.as_bytes()).await?;
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
    let report = memory
        .import_items(items, &format!("import of {}", args.file.display()))
        .await?;
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
