//! Imports: a path or a text by what it is (a HAEMA store folder, haema's own export, a
//! list of items), so that no front end decides it on its own; haema's JSONL export into an
//! empty store; a HAEMA (Python) store folder. The files are read and screened by
//! [`crate::transfer`]; lists of items are imported by [`super::import_items`].

use std::io::BufRead;
use std::path::Path;

use super::Memory;
use crate::error::{Error, Result};
use crate::transfer::haema_store::read_haema_store;
use crate::transfer::jsonl::{read_export, restore};
use crate::transfer::{
    CoreImport, HaemaReport, ImportReport, Imported, Record, is_claude_memory, is_export, is_haema_store, parse_items,
    read_claude_memory, screen,
};
use crate::types::core_md::CoreSections;
use crate::types::{CoreAuthor, MemoryId, MemoryRecord, MemoryStatus};

impl Memory {
    /// Imports the text of a file named `name`: haema's export as a whole store (into an
    /// empty store), anything else as a list of items. `progress(done, total)` follows the
    /// embedding.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// // JSONL (a JSON string or an object per line), a JSON list, a mem0 export, or haema's export
    /// let text = "\"The user is vegetarian.\"\n{\"content\": \"The user lives in Lyon.\"}\n";
    /// let imported = memory.import_text("notes.txt", text, |_, _| {}).await?;
    /// let summary = imported.summary();
    /// assert_eq!((summary.added, summary.skipped), (2, 0));
    /// if let Some(id) = summary.changeset {
    ///     println!("imported as changeset {id} (revert it to take the import back)");
    /// }
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The text is neither; the export does not fit this store; the embedder fails.
    pub async fn import_text(
        &self,
        name: &str,
        text: &str,
        progress: impl FnMut(usize, usize) + Send,
    ) -> Result<Imported> {
        if is_export(text) {
            return Ok(Imported::Export(
                self.import_jsonl_with_progress(text.as_bytes(), progress).await?,
            ));
        }
        let items = parse_items(text)?;
        let source = format!("import of {name}");
        Ok(Imported::Items(
            self.import_items_with_progress(items, &source, progress).await?,
        ))
    }

    /// Imports what `path` is: a HAEMA store folder, or a file ([`Memory::import_text`]).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// let file = dir.path().join("notes.jsonl");
    /// std::fs::write(&file, "{\"content\": \"The user is vegetarian.\"}\n")?;
    /// let imported = memory.import_path(&file, |done, total| eprintln!("embedded {done} of {total}")).await?;
    /// assert_eq!(imported.summary().added, 1);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// A folder that is not a HAEMA store; a file that cannot be read; as for
    /// [`Memory::import_text`].
    pub async fn import_path(&self, path: &Path, progress: impl FnMut(usize, usize) + Send) -> Result<Imported> {
        // Claude Code's memory folder, or its index named: each item and paragraph a memory.
        if let Some(folder) = crate::transfer::import_folder(path).filter(|f| is_claude_memory(f)) {
            let items = read_claude_memory(folder)?;
            let source = format!("import of Claude Code's memory {}", folder.display());
            return Ok(Imported::Items(
                self.import_items_with_progress(items, &source, progress).await?,
            ));
        }
        if path.is_dir() {
            if !is_haema_store(path) {
                return Err(Error::InvalidArgument(format!(
                    "{} is a folder but not a HAEMA store (it has neither latest.sqlite3 nor db/chroma.sqlite3), nor Claude Code's memory (it has no MEMORY.md); to import a file, name the file",
                    path.display()
                )));
            }
            return Ok(Imported::Haema(self.import_haema_with_progress(path, progress).await?));
        }
        let bytes = std::fs::read(path).map_err(|e| Error::io("read", path, e))?;
        let text = String::from_utf8(bytes).map_err(|_| {
            Error::InvalidArgument(format!(
                "{} is not UTF-8 text, so it cannot be imported",
                path.display()
            ))
        })?;
        self.import_text(&path.display().to_string(), &text, progress).await
    }

    /// Reads a JSONL export into this store. The store must be empty, or already hold
    /// exactly this export (then nothing is added). See the example on
    /// [`Memory::export_jsonl`].
    ///
    /// The file is screened as every write is: a memory larger than
    /// [`crate::limits::MAX_MEMORY_BYTES`] fails the import (naming its line) before
    /// anything is written; secrets are replaced by markers in every record; an active
    /// memory that reads like a prompt injection waits for review in a new pending
    /// changeset under the `guarded` and `review` policies (as does one that held a secret
    /// under `secrets.policy = hold`), instead of becoming active. The report says what
    /// was held and replaced. An export of a store that passed these screens is restored
    /// exactly as it was.
    pub async fn import_jsonl(&self, input: impl BufRead) -> Result<ImportReport> {
        self.import_jsonl_with_progress(input, |_, _| {}).await
    }

    /// [`Memory::import_jsonl`], calling `progress(embedded, to_embed)` as vectors are made.
    pub async fn import_jsonl_with_progress(
        &self,
        input: impl BufRead,
        progress: impl FnMut(usize, usize) + Send,
    ) -> Result<ImportReport> {
        let mut records = read_export(input)?;
        // Secrets replaced everywhere, and what may not become active without a person held
        // for review (see `screen`), before anything is written.
        let settings = self.settings();
        let screened = screen::screen(
            &mut records,
            settings.review,
            settings.secrets.policy,
            crate::types::now_ms(),
        );
        let mems: Vec<&MemoryRecord> = records
            .iter()
            .filter_map(|r| if let Record::Memory(m) = r { Some(&**m) } else { None })
            .collect();
        let texts: Vec<String> = mems
            .iter()
            .filter(|m| matches!(m.status, MemoryStatus::Active | MemoryStatus::Superseded))
            .map(|m| m.content.clone())
            .collect();
        let present = self
            .blocking({
                let ids: Vec<MemoryId> = mems.iter().map(|m| m.id.clone()).collect();
                move |inner| {
                    inner.store.read(|conn| {
                        Ok(ids
                            .iter()
                            .map(|id| conn.memories().by_id(id))
                            .collect::<Result<Vec<_>>>()?
                            .iter()
                            .filter(|m| m.is_some())
                            .count())
                    })
                }
            })
            .await?;
        if present == mems.len() && !mems.is_empty() {
            return Ok(ImportReport {
                already_present: present,
                ..ImportReport::default()
            });
        }
        let vectors = self.document_vectors_with_progress(texts, progress).await?;
        let report = self
            .blocking(move |inner| {
                let (report, core) = inner.store.write(|tx| {
                    let edited_core = tx.core().versions()?.iter().any(|v| v.author != CoreAuthor::Initial);
                    if edited_core || tx.changesets().any()? || tx.memories().any()? {
                        return Err(Error::InvalidArgument(
                            "a haema export can only be imported into an empty store (or the store it came from); use a new --store".into(),
                        ));
                    }
                    // Only the template's own version is there; the export brings the history.
                    tx.core_mut().delete_all()?;
                    restore(tx, &records, &|m| vectors.get(&m.content).map(Vec::as_slice))
                })?;
                let report = ImportReport {
                    held: screened.held,
                    pending: screened.pending,
                    secrets: screened.secrets,
                    warnings: screened.warnings,
                    ..report
                };
                if let Some(content) = core {
                    crate::store::core_write::finish_write(&inner.store, &content)?;
                }
                Ok(report)
            })
            .await?;
        Ok(report)
    }

    /// Imports a HAEMA store folder: its live memories with their timestamps (vectors made
    /// with this store's embedder) as one `import` changeset, and its core.md when this
    /// store's core is still empty. Importing again adds nothing.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let haema = tempfile::tempdir()?; // a HAEMA store: its latest.sqlite3 (and core.md, db/chroma.sqlite3)
    /// # let db = rusqlite::Connection::open(haema.path().join("latest.sqlite3"))?;
    /// # db.execute_batch("CREATE TABLE latest_memories (id TEXT, document TEXT, timestamp_ms INTEGER, deleted INTEGER);
    /// #     INSERT INTO latest_memories VALUES ('m1', 'The user runs on Sundays.', 1700000000000, 0);")?; drop(db);
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// let report = memory.import_haema_with_progress(haema.path(), |_, _| {}).await?;
    /// assert_eq!(report.added, 1);
    /// assert_eq!(memory.import_haema_with_progress(haema.path(), |_, _| {}).await?.added, 0); // once only
    /// # Ok(()) }
    /// ```
    pub async fn import_haema_with_progress(
        &self,
        dir: &Path,
        progress: impl FnMut(usize, usize) + Send,
    ) -> Result<HaemaReport> {
        let dir_owned = dir.to_path_buf();
        let found = tokio::task::spawn_blocking(move || read_haema_store(&dir_owned))
            .await
            .map_err(|e| Error::Internal(e.to_string()))??;
        let mut warnings = found.warnings.clone();
        let mut core_secrets = crate::secrets::SecretTally::default();
        let core = match &found.core {
            None => CoreImport::Missing,
            Some(text) => match CoreSections::parse(text) {
                Err(e) => {
                    warnings.push(format!(
                        "HAEMA's core.md was not imported: {e}; fix its headings and import again"
                    ));
                    CoreImport::KeptYours
                }
                Ok(theirs) => {
                    // Compared and applied with its secrets replaced, as every core write is.
                    let (core, tally) = crate::secrets::redact(&theirs.render());
                    let theirs = CoreSections::parse(&core)?;
                    let ours = self.core_sections().await?;
                    if ours == theirs {
                        CoreImport::Same
                    } else if ours.iter().all(|(_, text)| text.trim().is_empty()) {
                        warnings.extend(crate::secrets::receipt(&tally).map(|r| format!("in HAEMA's core.md, {r}")));
                        warnings.extend(crate::safety::core_warning(&core, "HAEMA's core.md"));
                        core_secrets = tally;
                        self.replace_core(&core).await?;
                        CoreImport::Imported
                    } else {
                        warnings.push(format!(
                            "this store already has a core profile, so HAEMA's core.md was not applied; it is at {}",
                            dir.join("core.md").display()
                        ));
                        CoreImport::KeptYours
                    }
                }
            },
        };
        let report = self
            .import_items_with_progress(
                found.memories,
                &format!("import of HAEMA store {}", dir.display()),
                progress,
            )
            .await?;
        let mut secrets = report.secrets;
        secrets.merge(&core_secrets);
        Ok(HaemaReport {
            added: report.added,
            skipped: report.skipped,
            changeset: report.changeset,
            replaced_not_imported: found.replaced,
            only_in_chroma: found.only_in_chroma,
            core,
            held: report.held,
            pending: report.pending,
            secrets,
            warnings: warnings.into_iter().chain(report.warnings).collect(),
        })
    }
}
