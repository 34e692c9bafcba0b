//! `haema export` and `haema import`.

use std::io::BufReader;

use anyhow::{Context, Result};
use haema_core::Memory;

use crate::UsageError;
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
    let report = if args.file.as_os_str() == "-" {
        memory.import_jsonl(BufReader::new(std::io::stdin().lock())).await?
    } else {
        let file = std::fs::File::open(&args.file)
            .map_err(|e| UsageError(format!("cannot open {}: {e}", args.file.display())))?;
        memory.import_jsonl(BufReader::new(file)).await?
    };
    if args.json {
        return output::json(&report);
    }
    if report.memories == 0 && report.already_present > 0 {
        return print(&format!(
            "Nothing to import: all {} memories are already in this store.\n",
            report.already_present
        ));
    }
    print(&format!(
        "Imported {} memories, {} changesets and {} core versions.\n",
        report.memories, report.changesets, report.core_versions
    ))
}
