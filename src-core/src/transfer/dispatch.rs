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
    /// A list of items (JSON, JSONL, a mem0 export, plain lines), as one changeset.
    Items(ItemsReport),
    /// A HAEMA (Python) store folder, as one changeset.
    Haema(HaemaReport),
}

/// The three numbers every front end shows after an import.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ImportSummary {
    /// Memories added.
    pub added: usize,
    /// Memories skipped because the store already had them.
    pub skipped: usize,
    /// The changeset that holds them, when one was made (it can be reverted).
    pub changeset: Option<ChangesetId>,
}

impl Imported {
    /// Added, skipped and the changeset, whatever the source.
    pub fn summary(&self) -> ImportSummary {
        match self {
            Self::Export(r) => ImportSummary {
                added: r.memories,
                skipped: r.already_present,
                changeset: None,
            },
            Self::Items(r) => ImportSummary {
                added: r.added,
                skipped: r.skipped,
                changeset: r.changeset,
            },
            Self::Haema(r) => ImportSummary {
                added: r.added,
                skipped: r.skipped,
                changeset: r.changeset,
            },
        }
    }
}

impl Memory {
    /// Imports the text of a file named `name`: haema's export as a whole store (into an
    /// empty store), anything else as a list of items. `progress(done, total)` follows the
    /// embedding.
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
