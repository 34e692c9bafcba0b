//! Forgetting: what a person (or an agent, under review) asks haema to forget, and the
//! receipt that stays in history once it is gone.

use serde::{Deserialize, Serialize};

use super::MemoryId;

/// What to forget: memories by id (each with the older memories it was built from) and
/// every memory mentioning a phrase. Either may be empty, not both.
///
/// ```
/// use haema_core::{ForgetRequest, MemoryId};
/// // A memory by id (with the older memories it was built from) ...
/// let by_id = ForgetRequest { memory_ids: vec![MemoryId::from("0b6c1a5e")], mentioning: None };
/// // ... or every memory that mentions a phrase, which is blanked everywhere else too.
/// let by_phrase = ForgetRequest { mentioning: Some("555-0100".into()), ..Default::default() };
/// assert!(!by_id.is_empty() && by_phrase.phrase() == Some("555-0100"));
/// assert!(ForgetRequest { mentioning: Some("  ".into()), ..Default::default() }.is_empty());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ForgetRequest {
    /// Memories to forget, in any status.
    #[serde(default)]
    pub memory_ids: Vec<MemoryId>,
    /// Forget every memory whose text holds this phrase, and blank it wherever else it is
    /// written: changes, their LLM exchanges, core.md and its versions, agent state. It is
    /// found in any form (Unicode compatibility forms, letter case, invisible characters
    /// and runs of spaces ignored) and as whole words ("Ann" and "Ann's", not "planning").
    /// A phrase of fewer than three letters or digits is refused.
    #[serde(default)]
    pub mentioning: Option<String>,
}

impl ForgetRequest {
    /// The phrase, trimmed; `None` when there is none or it is blank.
    pub fn phrase(&self) -> Option<&str> {
        self.mentioning.as_deref().map(str::trim).filter(|p| !p.is_empty())
    }

    /// True when it names nothing to forget.
    pub fn is_empty(&self) -> bool {
        self.memory_ids.is_empty() && self.phrase().is_none()
    }
}

/// The record a `forget` changeset keeps: the request while it waits for review (the phrase
/// is kept only until then), the receipt once it is done.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ForgetRecord {
    /// The phrase asked for, while the request waits; blanked once it is decided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mentioning: Option<String>,
    /// What was removed, once it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub receipt: Option<ForgetReceipt>,
}

/// What a forget removed: counts and ids, never the text.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ForgetReceipt {
    /// Memories whose text was removed (their ids are the changeset's related items).
    pub memories: usize,
    /// Earlier changes whose inputs, proposals, LLM exchanges or core text were blanked.
    pub changesets: usize,
    /// core.md versions whose text was blanked (core.md itself included when it changed).
    pub core_versions: usize,
    /// Agent state values (now or in their history) whose text was blanked.
    #[serde(default)]
    pub agent_state: usize,
    /// Whether a phrase was blanked too (the phrase itself is not kept).
    pub phrase: bool,
    /// What the forget, already committed, could not finish yet and the next open of the
    /// store finishes (rewriting core.md, scrubbing old copies from the files): said to the
    /// person who forgot, never stored.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unfinished: Vec<String>,
}

/// What a forget would remove: shown to a person before they confirm. From
/// [`Memory::forget_plan`](crate::Memory::forget_plan), which has an example.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ForgetPlan {
    /// The memories that would be forgotten, with their text, oldest first: the ones asked
    /// for, the older memories they were built from, and those mentioning the phrase.
    pub memories: Vec<super::MemoryRecord>,
    /// Changes whose recorded text would be blanked.
    pub changesets: usize,
    /// core.md versions whose text would be blanked.
    pub core_versions: usize,
    /// Agent state entries (values now or in their history) that hold the text: blanked,
    /// or removed when the key or agent id itself holds it.
    #[serde(default)]
    pub agent_state: usize,
    /// The agent state keys removed whole (each agent's key now and in its history), because
    /// the agent id or the key itself holds the text: a name is never half blanked.
    #[serde(default)]
    pub agent_state_removed: Vec<AgentStateKey>,
}

/// One key of one agent's state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct AgentStateKey {
    /// The agent.
    pub agent_id: String,
    /// The key.
    pub key: String,
}

impl ForgetPlan {
    /// True when the forget would remove nothing at all.
    pub fn is_empty(&self) -> bool {
        self.memories.is_empty() && self.changesets == 0 && self.core_versions == 0 && self.agent_state == 0
    }
}

/// A pending forget request (an agent's, waiting for review) with what approving it would
/// remove now: the phrase asked for and the plan. From
/// [`Memory::pending_forget`](crate::Memory::pending_forget), computed each time it is asked
/// for, so it always says what an approval would do at that moment.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct PendingForget {
    /// The request's changeset.
    pub changeset: super::ChangesetId,
    /// The phrase asked for, as the agent wrote it (blanked everywhere once approved).
    pub mentioning: Option<String>,
    /// The memories the request names: those asked for by id and those that mentioned the
    /// phrase when it was made (each forgets the older memories it was built from too).
    pub memory_ids: Vec<MemoryId>,
    /// What approving it would remove now.
    pub plan: ForgetPlan,
}

impl PendingForget {
    /// The request and what it removes, on one line (the phrase made printable):
    /// `forget “default”: 0 memories, 2 agent-state keys removed, 4 agent-state entries
    /// blanked or removed, 0 earlier changes and 0 core versions blanked`.
    pub fn summary(&self) -> String {
        let plan = &self.plan;
        let what = match &self.mentioning {
            Some(phrase) => format!("forget “{}”", crate::printable::printable_line(phrase)),
            None => format!("forget {} by id", count(self.memory_ids.len(), "memory", "memories")),
        };
        format!(
            "{what}: {}, {} removed, {} blanked or removed, {} and {} blanked",
            count(plan.memories.len(), "memory", "memories"),
            count(plan.agent_state_removed.len(), "agent-state key", "agent-state keys"),
            count(plan.agent_state, "agent-state entry", "agent-state entries"),
            count(plan.changesets, "earlier change", "earlier changes"),
            count(plan.core_versions, "core version", "core versions"),
        )
    }
}

/// `n` and the word for it.
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// What purging a user removed, for good: counts, never the text.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct PurgeReceipt {
    /// The user's memories, in every status (including those forgotten before).
    pub memories: usize,
    /// The changes made for the user: adds, edits, reverts, forgets.
    pub changesets: usize,
}
