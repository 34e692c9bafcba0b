//! Exports: haema's lossless JSONL ([`crate::transfer::Record`]) and a Markdown page for
//! people.

use std::io::Write;

use super::Memory;
use crate::error::{Error, Result};
use crate::transfer::jsonl::{agent_state_records, export_records};
use crate::transfer::{EXPORT_FORMAT, Record};
use crate::types::ChangesetFilter;

impl Memory {
    /// Writes the whole store as JSONL.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// use haema_core::Memory;
    /// memory.add("The user is vegetarian.").await?;
    /// let mut file = Vec::new(); // or a std::fs::File
    /// let records = memory.export_jsonl(&mut file).await?;
    /// assert!(haema_core::is_export(std::str::from_utf8(&file)?));
    /// // Into another (empty) store: the same memories, history and core.
    /// let copy_dir = tempfile::tempdir()?;
    /// let copy = Memory::open_with(copy_dir.path(), Default::default(), None, None).await?;
    /// let report = copy.import_jsonl(file.as_slice()).await?;
    /// assert_eq!(report.memories, 1);
    /// assert_eq!(copy.get_latest(1, 10).await?, ["The user is vegetarian."]);
    /// # let _ = records; Ok(()) }
    /// ```
    pub async fn export_jsonl(&self, out: &mut (impl Write + Send)) -> Result<usize> {
        let (records, embedder) = self
            .blocking(|inner| {
                inner.store.read(|conn| {
                    let (mut records, embedder) = export_records(conn)?;
                    records.extend(agent_state_records(conn)?);
                    Ok((records, embedder))
                })
            })
            .await?;
        let header = Record::Header {
            format: EXPORT_FORMAT.into(),
            version: 1,
            embedder,
        };
        let io = |e: std::io::Error| Error::io("write", "the export", e);
        for record in std::iter::once(&header).chain(&records) {
            serde_json::to_writer(&mut *out, record).map_err(|e| match e.io_error_kind() {
                Some(kind) => io(std::io::Error::new(kind, e)),
                None => Error::Internal(e.to_string()),
            })?;
            out.write_all(b"\n").map_err(io)?;
        }
        out.flush().map_err(io)?;
        Ok(records.len())
    }

    /// Writes the store for people: core.md, the active memories newest first, and the
    /// history of changesets. A page for people, printed to a terminal as often as saved:
    /// control characters are shown as `�` ([`crate::printable`]), as on every surface (the
    /// JSONL export and `core export` keep the text exact).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// memory.add("The user is vegetarian.").await?;
    /// let mut page = Vec::new();
    /// memory.export_markdown(&mut page).await?;
    /// assert!(String::from_utf8(page)?.contains("The user is vegetarian."));
    /// # Ok(()) }
    /// ```
    pub async fn export_markdown(&self, out: &mut (impl Write + Send)) -> Result<()> {
        let core = self.get_core().await?;
        let (active, history) = self
            .blocking(|inner| {
                inner.store.read(|conn| {
                    Ok((
                        conn.memories()
                            .latest(0, usize::MAX, &crate::types::MemoryFilter::default())?,
                        conn.changesets().list(ChangesetFilter::All, None)?,
                    ))
                })
            })
            .await?;
        let mut text = format!(
            "# Memory of {}\n\n## Core\n\n",
            crate::printable::printable_line(&self.dir().display().to_string())
        );
        for line in core.lines() {
            // Core headings become third-level headings under "Core".
            let line = crate::printable(line);
            match line.strip_prefix("# ") {
                Some(title) => text.push_str(&format!("### {title}\n")),
                None => {
                    text.push_str(&line);
                    text.push('\n');
                }
            }
        }
        text.push_str(&format!("\n## Memories ({}, newest first)\n\n", active.len()));
        for m in &active {
            text.push_str(&format!(
                "- {} — {}\n",
                crate::types::format_utc(m.timestamp_ms),
                crate::printable::printable_line(&m.content)
            ));
        }
        text.push_str(&format!(
            "\n## History ({} changesets, newest first)\n\n",
            history.len()
        ));
        for c in &history {
            text.push_str(&format!(
                "- #{} {} {} ({}), {} added, {} replaced{}\n",
                c.id,
                c.kind,
                c.status.as_str(),
                crate::types::format_utc(c.created_at_ms),
                c.added().count(),
                c.removed().count(),
                if c.core_after.is_some() { ", core changed" } else { "" }
            ));
        }
        out.write_all(text.as_bytes())
            .and_then(|()| out.flush())
            .map_err(|e| Error::io("write", "the export", e))
    }
}
