//! Effects the app asks for, and the messages their results come back as.

use std::collections::BTreeSet;
use std::path::PathBuf;

use haema_core::{
    AddOutcome, AddStatus, Changeset, ChangesetId, ChangesetSummary, CoreSections, CoreVersion, CoreVersionId,
    ForgetPlan, Lineage, MemoryId, MemoryRecord, PendingForget, Recall, SearchMode, SearchResults, Section, StoreInfo,
};

/// Work for the runtime: store reads and writes, provider calls, the external editor.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Counts and identities of the store.
    LoadInfo,
    /// A page of the newest memories: from the top (`after: None`) or after a record.
    LoadLatest {
        /// Keyset position.
        after: Option<Box<MemoryRecord>>,
        /// Page size.
        limit: usize,
    },
    /// Where a memory came from.
    LoadLineage(MemoryId),
    /// Search.
    Search {
        /// Tags the answer so that stale answers are dropped.
        generation: u64,
        /// Query.
        query: String,
        /// Mode.
        mode: SearchMode,
    },
    /// The recall block for a query.
    Recall {
        /// As for search.
        generation: u64,
        /// Query.
        query: String,
        /// Token budget.
        budget: usize,
    },
    /// core.md sections and locks.
    LoadCore,
    /// A person's new text for a section.
    SaveSection {
        /// Section.
        section: Section,
        /// New text.
        text: String,
    },
    /// Lock or unlock a section.
    SetLock {
        /// Section.
        section: Section,
        /// Locked?
        locked: bool,
    },
    /// Every version of core.md.
    LoadCoreVersions,
    /// Restore a version of core.md.
    RestoreCoreVersion(CoreVersionId),
    /// Pending and stale changesets.
    LoadReview,
    /// Approve a changeset.
    Approve(ChangesetId),
    /// Approve with a person's memories.
    ApproveEdited {
        /// Changeset.
        id: ChangesetId,
        /// The memories as edited.
        memories: Vec<String>,
    },
    /// Reject a changeset.
    Reject(ChangesetId),
    /// Approve several, in order.
    ApproveAll(Vec<ChangesetId>),
    /// Re-run a stale changeset.
    Rerun(ChangesetId),
    /// One changeset whole (History's details window).
    LoadChangeset(ChangesetId),
    /// A page of the history, as summaries.
    LoadHistory {
        /// Keyset position.
        before: Option<ChangesetId>,
        /// Page size.
        limit: usize,
    },
    /// Revert a committed changeset.
    Revert(ChangesetId),
    /// Revert several committed changesets, in order (the undo of approving them all).
    RevertAll(Vec<ChangesetId>),
    /// Put a rejected changeset back in Review (the undo of a rejection).
    Reopen(ChangesetId),
    /// What forgetting a memory would remove (the answer asks the person).
    PlanForget(MemoryId),
    /// Forget a memory (and what it was built from) for good.
    Forget(MemoryId),
    /// Delete one memory (a changeset a revert undoes).
    DeleteMemory(MemoryId),
    /// Replace one memory's text.
    UpdateMemory {
        /// The memory.
        id: MemoryId,
        /// Its new text.
        text: String,
    },
    /// Replace one memory's attributes.
    UpdateAttributes {
        /// The memory.
        id: MemoryId,
        /// Its new attributes, all of them.
        attributes: haema_core::MemoryAttributes,
    },
    /// Pin or unpin one memory.
    SetPinned {
        /// The memory.
        id: MemoryId,
        /// Pinned after.
        pinned: bool,
    },
    /// Every agent key.
    ListAgentKeys,
    /// Make a key for an agent (the answer shows it once).
    CreateAgentKey {
        /// The agent's name.
        name: String,
        /// What it may do.
        access: haema_core::AgentAccess,
        /// When it stops working: a date or a span from now.
        expires: Option<String>,
    },
    /// Give an agent a new key (the answer shows it once).
    RotateAgentKey(String),
    /// Stop an agent's key working.
    RevokeAgentKey(String),
    /// Revert an agent's committed changes and reject its waiting proposals.
    UndoAgentKey(String),
    /// The stores next to the open one.
    ListStores,
    /// Open another store (created when missing).
    SwitchStore(PathBuf),
    /// Add text through the pipeline (LLM work: off the UI thread).
    Add(String),
    /// Quit the TUI: the app's own, run when a question about quitting is answered yes
    /// (it never reaches the runtime).
    Quit,
    /// Edit a section in `$EDITOR` (the runtime suspends the screen).
    EditExternal {
        /// Section.
        section: Section,
        /// Its text now.
        text: String,
    },
}

/// How the last change is taken back with one key (z): what it was, in words, and the
/// effect that undoes it (itself a change z takes back: z again redoes).
#[derive(Debug, Clone, PartialEq)]
pub struct Undo {
    /// The change, as the status line names it: "the approval of #12".
    pub what: String,
    /// What undoes it.
    pub effect: Effect,
}

impl Undo {
    /// An undo of `what` by `effect`.
    pub fn new(what: impl Into<String>, effect: Effect) -> Self {
        Self {
            what: what.into(),
            effect,
        }
    }
}

/// A store the Stores view lists.
#[derive(Debug, Clone, PartialEq)]
pub struct StoreEntry {
    /// Folder.
    pub dir: PathBuf,
    /// Counts, or why they could not be read.
    pub info: Result<StoreInfo, String>,
}

/// Results coming back to the app.
#[derive(Debug, Clone, PartialEq)]
pub enum Msg {
    /// Store counts (boxed: the largest result by far).
    Info(Box<StoreInfo>),
    /// Latest page.
    Latest {
        /// Appended to what is loaded (else it replaces it).
        append: bool,
        /// Records.
        records: Vec<MemoryRecord>,
        /// The page size asked for (fewer means the end).
        limit: usize,
    },
    /// Lineage of a memory.
    Lineage(Box<Lineage>),
    /// What forgetting a memory would remove.
    ForgetPlan {
        /// The memory asked for.
        id: MemoryId,
        /// What would go.
        plan: Box<ForgetPlan>,
    },
    /// Search answer.
    SearchDone {
        /// Generation of the request.
        generation: u64,
        /// Results.
        results: SearchResults,
    },
    /// The profile's lines that hold the query's words (the profile is no memory, so search
    /// never returns it; they show beside the hits).
    ProfileLines {
        /// Generation of the request.
        generation: u64,
        /// The lines, best first.
        lines: Vec<haema_core::review::ProfileLine>,
    },
    /// Recall answer.
    RecallDone {
        /// Generation of the request.
        generation: u64,
        /// The block.
        recall: Recall,
    },
    /// core.md.
    Core {
        /// Sections.
        sections: CoreSections,
        /// Locked ones.
        locked: BTreeSet<Section>,
    },
    /// core.md versions, newest first.
    CoreVersions(Vec<CoreVersion>),
    /// Pending and stale changesets, newest first, and what approving each pending forget
    /// request among them would remove.
    Review(Vec<Changeset>, Vec<PendingForget>),
    /// One changeset whole, for the details window.
    Changeset(Box<Changeset>),
    /// History page.
    History {
        /// Appended?
        append: bool,
        /// Changeset summaries.
        page: Vec<ChangesetSummary>,
        /// Page size asked for.
        limit: usize,
    },
    /// Stores found.
    Stores(Vec<StoreEntry>),
    /// Every agent key.
    AgentKeys(Vec<haema_core::AgentKey>),
    /// A key just made or rotated, to show once.
    KeyMade(Box<haema_core::NewAgentKey>),
    /// The runtime opened another store.
    StoreSwitched {
        /// Its folder.
        dir: PathBuf,
    },
    /// A write finished; the message says what it did.
    Done(String),
    /// A write finished that one key takes back ([`Undo`]).
    Undoable {
        /// What it did.
        message: String,
        /// How to take it back.
        undo: Undo,
    },
    /// An add finished.
    Added(AddOutcome),
    /// Something failed; shown in the status line.
    Failed {
        /// What was being done (`add`, `approve`...).
        what: String,
        /// Why.
        error: String,
    },
    /// Another process wrote the store or core.md.
    StoreChanged,
    /// Background work (the embedding model downloading, vectors being made) advanced.
    Progress(String),
}

/// One line about what an add did.
pub fn describe_add(outcome: &AddOutcome) -> String {
    let id = outcome.changeset.map(|c| format!("changeset #{c}")).unwrap_or_default();
    let head = match outcome.status {
        AddStatus::Committed => format!("added: {id} committed"),
        AddStatus::Pending => format!("{id} waits for review (Review view)"),
        AddStatus::Noop => "nothing to add: the memory already knows this".to_owned(),
        AddStatus::Stale => format!("{id} is stale: other writes kept changing the same memories; re-run it"),
    };
    match outcome.warnings.first() {
        Some(w) => format!("{head}; {w}"),
        None => head,
    }
}

/// The question before forgetting: what goes, and that it cannot come back.
pub fn forget_question(plan: &ForgetPlan) -> String {
    let mut question = format!("Forget {} memories for good?", plan.memories.len());
    for memory in plan.memories.iter().take(3) {
        let text: String = memory.content.chars().take(60).collect();
        question.push_str(&format!(
            " «{}{}»",
            text,
            if memory.content.chars().count() > 60 { "…" } else { "" }
        ));
    }
    if plan.memories.len() > 3 {
        question.push_str(&format!(" and {} more", plan.memories.len() - 3));
    }
    question.push_str(&format!(
        ". Their text also goes from {} earlier changes and {} core versions",
        plan.changesets, plan.core_versions
    ));
    question.push_str(&state_words(plan));
    question.push_str(&format!(". {COPIES_OUTSIDE} This cannot be undone."));
    question
}

/// What a forget does to agent state, after a clause: ` and 4 agent state entries (keys
/// removed whole: default/task, default/cursor)`; empty when it touches none.
fn state_words(plan: &ForgetPlan) -> String {
    if plan.agent_state == 0 && plan.agent_state_removed.is_empty() {
        return String::new();
    }
    format!(" and {} agent state entries{}", plan.agent_state, state_keys(plan))
}

/// What a forget cannot reach.
const COPIES_OUTSIDE: &str = "Copies outside the store (exports, backups) still hold the text.";

/// The question before approving an agent's forget request: what approving it would remove
/// now, and that it cannot be undone.
pub fn pending_forget_question(forget: &PendingForget) -> String {
    format!(
        "Approve changeset #{}: {}{}? {COPIES_OUTSIDE} This cannot be undone.",
        forget.changeset,
        forget.summary(),
        state_keys(&forget.plan),
    )
}

/// The agent state keys a forget removes whole: ` (keys removed whole: default/task,
/// default/cursor)`; empty when none.
fn state_keys(plan: &ForgetPlan) -> String {
    if plan.agent_state_removed.is_empty() {
        return String::new();
    }
    let keys: Vec<String> = plan
        .agent_state_removed
        .iter()
        .take(5)
        .map(|k| {
            format!(
                "{}/{}",
                haema_core::printable_line(&k.agent_id),
                haema_core::printable_line(&k.key)
            )
        })
        .collect();
    let more = plan.agent_state_removed.len() - keys.len();
    format!(
        " (keys removed whole: {}{})",
        keys.join(", "),
        if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        }
    )
}

/// One line about what a forget did.
pub fn describe_forget(receipt: &Changeset) -> String {
    let counts = receipt
        .forget
        .as_ref()
        .and_then(|f| f.receipt.clone())
        .unwrap_or_default();
    format!(
        "forgot {} memories for good (changeset #{}); their text went from {} earlier changes and {} core versions",
        counts.memories, receipt.id, counts.changesets, counts.core_versions
    )
}
