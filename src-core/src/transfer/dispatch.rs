//! One way in for every front end: a path or a text is imported by what it is (a HAEMA store
//! folder, haema's own export, or a list of items), so the CLI, the TUI and the desktop
//! never decide it each on their own.

use std::path::Path;

use serde::Serialize;

use super::{HaemaReport, ImportReport, ItemsReport, is_export, is_haema_store, parse_items};
use crate::types::ChangesetId;
use crate::{Error, Memory, Result};

/// What an import did, by the kind of source it was.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "source", rename_all = "snake_case")]
pub enum Imported {
    /// haema's own export: the store as it was, history and all.
    Export(ImportReport),
    /// A list of items (a JSON list, JSONL, a mem0 export), as one changeset.
    Items(ItemsReport),
    /// A HAEMA (Python) store folder, as one changeset.
    Haema(HaemaReport),
}

/// The numbers every front end shows after an import.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ImportSummary {
    /// Memories added.
    pub added: usize,
    /// Memories skipped because the store already had them.
    pub skipped: usize,
    /// The changeset that holds them, when one was made (it can be reverted).
    pub changeset: Option<ChangesetId>,
    /// Memories that wait for a person's review instead of being added: their text reads
    /// like a prompt injection (under the `guarded` and `review` policies), or held a
    /// secret under `secrets.policy = hold`.
    pub held: usize,
    /// Secrets replaced by markers before anything was stored.
    pub secrets: u32,
}

impl Imported {
    /// Added, skipped, the changeset, held for review and secrets replaced, whatever the
    /// source.
    pub fn summary(&self) -> ImportSummary {
        match self {
            Self::Export(r) => ImportSummary {
                // Those held for review are not added yet.
                added: r.memories - r.held,
                skipped: r.already_present,
                changeset: None,
                held: r.held,
                secrets: r.secrets.total(),
            },
            Self::Items(r) => ImportSummary {
                added: r.added,
                skipped: r.skipped,
                changeset: r.changeset,
                held: r.held,
                secrets: r.secrets.total(),
            },
            Self::Haema(r) => ImportSummary {
                added: r.added,
                skipped: r.skipped,
                changeset: r.changeset,
                held: r.held,
                secrets: r.secrets.total(),
            },
        }
    }
}

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
        if path.is_dir() {
            if !is_haema_store(path) {
                return Err(Error::InvalidArgument(format!(
                    "{} is a folder but not a HAEMA store (it has neither latest.sqlite3 nor db/chroma.sqlite3); to import a file, name the file",
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
}
