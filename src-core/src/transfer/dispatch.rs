//! One way in for every front end: a path or a text is imported by what it is (a HAEMA store
//! folder, haema's own export, or a list of items), so the CLI, the TUI and the desktop
//! never decide it each on their own.

use serde::Serialize;

use super::{HaemaReport, ImportReport, ItemsReport};
use crate::types::ChangesetId;

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
