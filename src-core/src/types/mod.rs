//! The values every layer shares: what the engine returns and the front ends render.
//!
//! Every closed set is an enum with one stable spelling (the one stored on disk, serialised
//! to JSON and shown in the desktop's generated TypeScript types); reading an unknown
//! spelling is an [`UnknownValue`] error that names it, never a silent default. Ids that mean
//! different things have different types.

mod agent_key;
mod agent_state;
mod attributes;
pub(crate) mod changeset;
pub mod core_md;
mod filter;
mod forget;
mod hostile;
mod ids;
pub(crate) mod invalid;
mod memory;
pub(crate) mod policy;
mod profile;
pub(crate) mod provider_kind;
mod search;
mod time;

pub use agent_key::{
    AGENT_KEY_PREFIX, AgentAccess, AgentActivity, AgentKey, AgentUndo, KeptChange, KeyCheck, MCP_HTTP_ADDR,
    NewAgentKey, UndoStep,
};
pub(crate) use agent_key::{AGENT_KEY_RANDOM_CHARS, checked_key_name, expiry_from};
pub use agent_state::{AgentState, AgentStateChange, DEFAULT_AGENT};
pub(crate) use agent_state::{MAX_STATE_VALUE_BYTES, checked_agent, checked_key, checked_value};
pub use attributes::{MAX_METADATA_BYTES, MEMORY_TYPES, MemoryAttributes};
pub use changeset::{
    AddOutcome, AddStatus, Changeset, ChangesetFilter, ChangesetKind, ChangesetStatus, ChangesetSummary, DecidedBy,
    LlmCall, LlmStage, Outcome, ProposedItem, RelatedItem, STALE_EDIT_MEANING, STALE_MEANING, SUMMARY_INPUT_CHARS,
};
pub use filter::{MemoryFilter, parse_when};
pub use forget::{AgentStateKey, ForgetPlan, ForgetReceipt, ForgetRecord, ForgetRequest, PendingForget, PurgeReceipt};
pub use hostile::{HostileFinding, HostileReason};
pub use ids::{ChangesetId, CoreVersionId, MemoryId};
pub use invalid::Invalid;
pub use memory::{MemoryRecord, MemoryStatus};
pub use profile::{CoreAuthor, CoreVersion, Section};
pub use search::{
    AccessStats, FoundBy, LatestOptions, LatestStart, SearchHit, SearchMode, SearchOptions, SearchResults,
};
pub(crate) use time::civil_date;
pub(crate) use time::now_ms;
pub use time::{format_utc, iso_utc, parse_time};

/// A value of a closed set that is not one of its spellings: from a file, the database, a
/// command-line flag or a front end.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} `{value}`; expected one of: {}", expected.join(", "))]
pub struct UnknownValue {
    /// Which set ("changeset status", "search mode", ...).
    pub what: &'static str,
    /// The text that was given.
    pub value: String,
    /// Every spelling the set has.
    pub expected: &'static [&'static str],
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_closed_set_round_trips_its_spellings_through_text_and_json() {
        fn check<T>(all: &[T])
        where
            T: Copy + std::fmt::Display + std::str::FromStr<Err = UnknownValue> + PartialEq + std::fmt::Debug,
            T: serde::Serialize + serde::de::DeserializeOwned,
        {
            for &value in all {
                let text = value.to_string();
                assert_eq!(text.parse::<T>().unwrap(), value);
                assert_eq!(serde_json::to_string(&value).unwrap(), format!("\"{text}\""));
                assert_eq!(serde_json::from_str::<T>(&format!("\"{text}\"")).unwrap(), value);
            }
            let error = "no-such-value".parse::<T>().unwrap_err();
            assert_eq!(error.value, "no-such-value");
            assert_eq!(error.expected.len(), all.len());
        }
        check(MemoryStatus::ALL);
        check(ChangesetStatus::ALL);
        check(Outcome::ALL);
        check(ChangesetKind::ALL);
        check(DecidedBy::ALL);
        check(LlmStage::ALL);
        check(CoreAuthor::ALL);
        check(FoundBy::ALL);
        check(SearchMode::ALL);
        check(&Section::ALL);
        check(AddStatus::ALL);
        check(provider_kind::ProviderKind::ALL);
        check(policy::ReviewPolicy::ALL);
        check(policy::StoreScope::ALL);
        check(HostileReason::ALL);
    }

    #[test]
    fn an_unknown_value_names_the_set_the_value_and_the_choices() {
        let error = "archived".parse::<MemoryStatus>().unwrap_err();
        assert_eq!(
            error.to_string(),
            "unknown memory status `archived`; expected one of: active, pending, superseded, forgotten"
        );
    }
}
