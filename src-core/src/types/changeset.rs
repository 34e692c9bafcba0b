//! Changesets: what `add()`, a revert or an import proposes, and how it was decided.

use serde::{Deserialize, Serialize};

use super::{ChangesetId, MemoryAttributes, MemoryId};

closed_set! {
    /// Status of a changeset.
    pub enum ChangesetStatus ("changeset status") {
        /// Waits for a person.
        Pending = "pending",
        /// Applied.
        Committed = "committed",
        /// Declined by a person; nothing was applied.
        Rejected = "rejected",
        /// Applied and later undone by a revert changeset.
        Reverted = "reverted",
        /// Could not be applied because what it was built on changed; can be re-run.
        Stale = "stale",
    }
}

/// What a stale changeset's status means, in the words every surface shows (each adds its
/// own way out: a key, a button, a command).
pub const STALE_MEANING: &str = "the memories it was built on changed since it was proposed";

/// What a direct edit's stale outcome means: another writer changed the memory first.
pub const STALE_EDIT_MEANING: &str = "the memory changed meanwhile";

closed_set! {
    /// How the proposed memories of a changeset came about.
    pub enum Outcome ("changeset outcome") {
        /// The LLM rebuilt the memories on the first try.
        Reconstructed = "reconstructed",
        /// The LLM rebuilt them after one refinement.
        Refined = "refined",
        /// The LLM failed; related memories kept, new contents added as given.
        Fallback = "fallback",
        /// No LLM configured; new contents added as given.
        NoLlm = "no_llm",
        /// Undo of an earlier changeset.
        Revert = "revert",
        /// Memories imported from a file, as they were.
        Import = "import",
        /// Memories and text forgotten on request.
        Forget = "forget",
        /// One memory's text replaced by a person or an agent.
        Edited = "edited",
        /// One memory set aside on request (a revert brings it back).
        Deleted = "deleted",
    }
}

impl Outcome {
    /// One word for what a changeset of `kind` with this outcome did: `add`, `import`,
    /// `edit`, `delete`, `revert` or `forget`.
    ///
    /// ```
    /// use haema_core::{ChangesetKind, Outcome};
    /// assert_eq!(Outcome::Reconstructed.what(ChangesetKind::Add), "add");
    /// assert_eq!(Outcome::Edited.what(ChangesetKind::Add), "edit");
    /// assert_eq!(Outcome::NoLlm.describe(), "stored as given (no LLM configured)");
    /// ```
    pub fn what(self, kind: ChangesetKind) -> &'static str {
        match (kind, self) {
            (_, Self::Edited) => "edit",
            (_, Self::Deleted) => "delete",
            (_, Self::Import) => "import",
            (kind, _) => kind.as_str(),
        }
    }

    /// A short phrase for people.
    pub fn describe(self) -> &'static str {
        match self {
            Self::Reconstructed => "rebuilt by the LLM",
            Self::Refined => "rebuilt by the LLM after a refinement",
            Self::Fallback => "LLM failed: related memories kept, new contents added as given",
            Self::NoLlm => "stored as given (no LLM configured)",
            Self::Revert => "undo of an earlier changeset",
            Self::Import => "imported from a file as they were",
            Self::Forget => "forgotten on request",
            Self::Edited => "edited: the memory's text replaced",
            Self::Deleted => "deleted on request (a revert brings it back)",
        }
    }
}

closed_set! {
    /// What made a changeset.
    pub enum ChangesetKind ("changeset kind") {
        /// A change to memories: `add()`, an import, or one memory edited or deleted.
        Add = "add",
        /// The undo of an earlier changeset.
        Revert = "revert",
        /// A request to forget, then its receipt.
        Forget = "forget",
    }
}

closed_set! {
    /// Who (or what) decided a changeset.
    pub enum DecidedBy ("decider") {
        /// The review policy committed it without asking.
        Auto = "auto",
        /// A person approved, rejected or reverted it.
        User = "user",
        /// The check at approval found that what it was built on had changed (it is stale).
        Check = "check",
        /// A re-run replaced it with a newer changeset.
        Rerun = "rerun",
        /// An import brought it in as it was.
        Import = "import",
    }
}

closed_set! {
    /// A stage of the write pipeline that asks the LLM.
    pub enum LlmStage ("LLM stage") {
        /// Splitting a long text into short facts.
        PreSplit = "pre_split",
        /// Rebuilding the related memories with the new facts.
        Reconstruct = "reconstruct",
        /// A second try at the rebuild, with what was wrong with the first.
        Refine = "refine",
        /// Updating core.md.
        CoreUpdate = "core_update",
    }
}

/// A memory the changeset was built on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct RelatedItem {
    /// Id of the existing memory.
    pub memory_id: MemoryId,
    /// Its text when the changeset was made.
    pub content: String,
    /// Cosine (or lexical) distance to the nearest new content.
    pub distance: Option<f64>,
    /// True when the proposal carries it over unchanged (it is not removed).
    pub kept: bool,
}

/// A memory the changeset proposes (or, once committed, made).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ProposedItem {
    /// Id of the memory it is (kept) or becomes.
    pub memory_id: Option<MemoryId>,
    /// Text.
    pub content: String,
    /// True when it is an existing related memory carried over unchanged.
    pub kept: bool,
    /// The attributes it gets (for a new memory: the add's, merged with those of the
    /// memories it replaces).
    #[serde(default, skip_serializing_if = "MemoryAttributes::is_empty")]
    pub attributes: MemoryAttributes,
}

/// One call to the LLM made while building a changeset.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct LlmCall {
    /// Which stage asked.
    pub stage: LlmStage,
    /// The raw answer, when there was one.
    pub answer: Option<serde_json::Value>,
    /// Why the answer was not used, if it was not.
    pub error: Option<String>,
}

/// A changeset with everything a reviewer needs.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
/// let old = memory.add("The user lives in Oslo.").await?.memory_ids.remove(0);
/// let edit = memory.update_memory(&old, "The user lives in Bergen.").await?;
/// let changeset = memory.changeset(edit.changeset.ok_or("no change")?).await?;
/// let gone: Vec<&str> = changeset.removed().map(|r| r.content.as_str()).collect();
/// let new: Vec<&str> = changeset.added().map(|p| p.content.as_str()).collect();
/// assert_eq!((gone, new), (vec!["The user lives in Oslo."], vec!["The user lives in Bergen."]));
/// println!("{} ({}), {}", changeset.outcome.what(changeset.kind), changeset.status, changeset.outcome.describe());
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Changeset {
    /// Id.
    pub id: ChangesetId,
    /// What made it.
    pub kind: ChangesetKind,
    /// Status.
    pub status: ChangesetStatus,
    /// How the proposal came about.
    pub outcome: Outcome,
    /// When it was made (Unix ms).
    pub created_at_ms: i64,
    /// When it was decided, if it was.
    pub decided_at_ms: Option<i64>,
    /// Who (or what) decided it, once it is decided.
    pub decided_by: Option<DecidedBy>,
    /// The text given to `add()` when it was one string.
    pub raw_input: Option<String>,
    /// The normalised new contents.
    pub inputs: Vec<String>,
    /// Memories it was built on.
    pub related: Vec<RelatedItem>,
    /// Memories it proposes.
    pub proposed: Vec<ProposedItem>,
    /// core.md before the change, when it changes core.
    pub core_before: Option<String>,
    /// core.md after the change, when it changes core.
    pub core_after: Option<String>,
    /// LLM id.
    pub llm: Option<String>,
    /// Embedder id.
    pub embedder: Option<String>,
    /// Raw LLM answers.
    pub llm_calls: Vec<LlmCall>,
    /// Things a person should know (LLM failures, fallbacks).
    pub warnings: Vec<String>,
    /// The changeset this one reverts.
    pub reverts_id: Option<ChangesetId>,
    /// The changeset that reverted this one.
    pub reverted_by_id: Option<ChangesetId>,
    /// For a `forget`: the request, then the receipt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forget: Option<super::ForgetRecord>,
    /// The attributes the add was given (type, importance, source, writer, user, metadata).
    #[serde(default, skip_serializing_if = "MemoryAttributes::is_empty")]
    pub attributes: MemoryAttributes,
    /// The name of the agent key it was made through ([`Memory::for_agent`](crate::Memory::for_agent)),
    /// kept when the key is revoked; `None` for a person's own changes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_key: Option<String>,
}

impl Changeset {
    /// A changeset that brought `proposed` in from `source` as they were, committed at
    /// `now` (not yet in the store: inserting it gives it its id).
    pub(crate) fn imported(source: String, inputs: Vec<String>, proposed: Vec<ProposedItem>, now: i64) -> Self {
        Self {
            raw_input: Some(source),
            inputs,
            proposed,
            ..Self::decided(ChangesetKind::Add, Outcome::Import, DecidedBy::Import, now)
        }
    }

    /// A changeset with nothing in it yet, made at `now` (not yet in the store: inserting it
    /// gives it its id); the callers fill in what it holds.
    pub(crate) fn empty(kind: ChangesetKind, status: ChangesetStatus, outcome: Outcome, now: i64) -> Self {
        Self {
            id: ChangesetId::UNSAVED,
            kind,
            status,
            outcome,
            created_at_ms: now,
            decided_at_ms: None,
            decided_by: None,
            raw_input: None,
            inputs: Vec::new(),
            related: Vec::new(),
            proposed: Vec::new(),
            core_before: None,
            core_after: None,
            llm: None,
            embedder: None,
            llm_calls: Vec::new(),
            warnings: Vec::new(),
            reverts_id: None,
            reverted_by_id: None,
            forget: None,
            attributes: MemoryAttributes::default(),
            agent_key: None,
        }
    }

    /// [`Changeset::empty`], committed by `by` at `now`.
    pub(crate) fn decided(kind: ChangesetKind, outcome: Outcome, by: DecidedBy, now: i64) -> Self {
        Self {
            decided_at_ms: Some(now),
            decided_by: Some(by),
            ..Self::empty(kind, ChangesetStatus::Committed, outcome, now)
        }
    }

    /// Related memories the proposal does not carry over: what committing it replaces.
    pub fn removed(&self) -> impl Iterator<Item = &RelatedItem> {
        self.related.iter().filter(|r| !r.kept)
    }

    /// Proposed memories that do not exist yet.
    pub fn added(&self) -> impl Iterator<Item = &ProposedItem> {
        self.proposed.iter().filter(|p| !p.kept)
    }
}

/// Characters of input text a [`ChangesetSummary`] carries: enough for any list line or
/// preview, bounded however long the input was.
pub const SUMMARY_INPUT_CHARS: usize = 500;

/// What a list of changesets shows about one, without its items: a history line reads
/// this instead of the whole [`Changeset`] (an import of 100,000 memories is one row and
/// a few counts here). [`Memory::changeset`](crate::Memory::changeset) loads it whole.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ChangesetSummary {
    /// Id.
    pub id: ChangesetId,
    /// What made it.
    pub kind: ChangesetKind,
    /// Status.
    pub status: ChangesetStatus,
    /// How the proposal came about.
    pub outcome: Outcome,
    /// When it was made (Unix ms).
    pub created_at_ms: i64,
    /// When it was decided, if it was.
    pub decided_at_ms: Option<i64>,
    /// Who (or what) decided it, once it is decided.
    pub decided_by: Option<DecidedBy>,
    /// The text given to `add()`, cut to [`SUMMARY_INPUT_CHARS`] (with `…` when cut).
    pub raw_input: Option<String>,
    /// The first three normalised inputs, each cut like `raw_input`.
    pub first_inputs: Vec<String>,
    /// How many inputs there are in all.
    pub input_count: usize,
    /// Related memories it replaces (not kept): [`Changeset::removed`].
    pub removed: usize,
    /// New memories it proposes (not kept): [`Changeset::added`].
    pub added: usize,
    /// Whether it changes core.md.
    pub changes_core: bool,
    /// Number of warnings.
    pub warnings: usize,
    /// The changeset this one reverts.
    pub reverts_id: Option<ChangesetId>,
    /// The changeset that reverted this one.
    pub reverted_by_id: Option<ChangesetId>,
    /// The text of the first memory it replaces or removes, cut like `raw_input` (a
    /// delete's row names the memory it took away).
    #[serde(default)]
    pub first_removed: Option<String>,
    /// The text of the first memory it adds, cut like `raw_input`.
    #[serde(default)]
    pub first_added: Option<String>,
    /// The agent key it was made through, if one was: [`Changeset::agent_key`].
    #[serde(default)]
    pub agent_key: Option<String>,
}

/// `text` cut to [`SUMMARY_INPUT_CHARS`] characters, with `…` when it was longer.
pub(crate) fn summary_text(text: &str) -> String {
    match text.char_indices().nth(SUMMARY_INPUT_CHARS) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

impl From<&Changeset> for ChangesetSummary {
    /// The summary of a changeset already loaded whole (the store reads summaries without
    /// loading items; both agree).
    fn from(c: &Changeset) -> Self {
        Self {
            id: c.id,
            kind: c.kind,
            status: c.status,
            outcome: c.outcome,
            created_at_ms: c.created_at_ms,
            decided_at_ms: c.decided_at_ms,
            decided_by: c.decided_by,
            raw_input: c.raw_input.as_deref().map(summary_text),
            first_inputs: c.inputs.iter().take(3).map(|i| summary_text(i)).collect(),
            input_count: c.inputs.len(),
            removed: c.removed().count(),
            added: c.added().count(),
            changes_core: c.core_after.is_some(),
            warnings: c.warnings.len(),
            reverts_id: c.reverts_id,
            reverted_by_id: c.reverted_by_id,
            first_removed: c.removed().next().map(|r| summary_text(&r.content)),
            first_added: c.added().next().map(|p| summary_text(&p.content)),
            agent_key: c.agent_key.clone(),
        }
    }
}

/// Which changesets to list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ChangesetFilter {
    /// All of them.
    #[default]
    All,
    /// Only those with this status.
    Status(ChangesetStatus),
}

/// What [`Memory::add`](crate::Memory::add) did (see its example).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct AddOutcome {
    /// The changeset, or `None` when the input was empty.
    pub changeset: Option<ChangesetId>,
    /// `committed`, `pending`, `noop` (nothing to do) or `stale`.
    pub status: AddStatus,
    /// Things a person should know, e.g. that the LLM failed and the fallback was used.
    pub warnings: Vec<String>,
    /// The memories it made (or, while it waits for review, those it makes once approved as
    /// proposed), in the order proposed; memories carried over unchanged are not listed.
    #[serde(default)]
    pub memory_ids: Vec<MemoryId>,
}

closed_set! {
    /// Short status of an `add()`.
    pub enum AddStatus ("add status") {
        /// Applied.
        Committed = "committed",
        /// Waiting for review.
        Pending = "pending",
        /// Nothing to do (empty input, or nothing changes).
        Noop = "noop",
        /// Another writer changed the related memories every time; the changeset waits as stale.
        Stale = "stale",
    }
}
