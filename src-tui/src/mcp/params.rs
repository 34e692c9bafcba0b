//! Tool parameters, with the descriptions a model reads in their JSON schemas.

use rmcp::schemars;
use serde::Deserialize;

/// `add_memory`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddParams {
    /// One text to remember; it is split into self-contained facts.
    pub content: Option<String>,
    /// Facts already split, one per item.
    pub items: Option<Vec<String>>,
    /// fact, episode, preference, context, or a word of your own.
    pub memory_type: Option<String>,
    /// How much it matters, from 0 to 1.
    pub importance: Option<f64>,
    /// Where it came from (a document, a tool, a conversation).
    pub source: Option<String>,
    /// The agent writing it.
    pub agent_id: Option<String>,
    /// The session it is written in.
    pub session_id: Option<String>,
    /// The user it is about.
    pub user_id: Option<String>,
    /// Free JSON metadata (an object).
    pub metadata: Option<serde_json::Map<String, serde_json::Value>>,
}

impl AddParams {
    /// The attributes the memories get.
    pub fn attributes(&mut self) -> haema_core::MemoryAttributes {
        haema_core::MemoryAttributes {
            memory_type: self.memory_type.take(),
            importance: self.importance,
            source: self.source.take(),
            agent_id: self.agent_id.take(),
            session_id: self.session_id.take(),
            user_id: self.user_id.take(),
            metadata: self.metadata.take().unwrap_or_default().into_iter().collect(),
        }
    }
}

/// Which memories a search, `latest_memories` or `recall` may return (all must hold).
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct FilterParams {
    /// Only memories of this type (fact, episode, preference, context or your own).
    pub memory_type: Option<String>,
    /// Only memories at least this important (0 to 1).
    pub min_importance: Option<f64>,
    /// Only memories from this source.
    pub source: Option<String>,
    /// Only memories written by this agent.
    pub agent_id: Option<String>,
    /// Only memories written in this session.
    pub session_id: Option<String>,
    /// Only memories about this user.
    pub user_id: Option<String>,
    /// Only memories whose metadata has each of these keys with this value (text, number,
    /// true, false or null).
    pub metadata: Option<serde_json::Map<String, serde_json::Value>>,
    /// Only memories learned at or after this time: an ISO 8601 date or time, or a time ago
    /// such as "7d", "12h", "30m", "2w".
    pub since: Option<String>,
    /// Only memories learned before this time (same forms as `since`).
    pub until: Option<String>,
    /// Arguments no tool knows: refused, never ignored.
    #[serde(flatten)]
    #[schemars(skip)]
    pub unknown: std::collections::BTreeMap<String, serde_json::Value>,
}

impl FilterParams {
    /// The filter, or what is wrong with the arguments.
    pub fn filter(self) -> Result<haema_core::MemoryFilter, String> {
        if let Some(name) = self.unknown.keys().next() {
            return Err(format!(
                "unknown argument `{name}`: see the tool's input schema for the arguments it takes"
            ));
        }
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
        let when = |name: &str, text: Option<String>| -> Result<Option<i64>, String> {
            text.map(|t| haema_core::parse_when(&t, now).map_err(|e| format!("`{name}`: {e}")))
                .transpose()
        };
        Ok(haema_core::MemoryFilter {
            memory_type: self.memory_type,
            min_importance: self.min_importance,
            source: self.source,
            agent_id: self.agent_id,
            session_id: self.session_id,
            user_id: self.user_id,
            metadata: self.metadata.unwrap_or_default().into_iter().collect(),
            since_ms: when("since", self.since)?,
            until_ms: when("until", self.until)?,
        })
    }
}

/// `search_memory`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct SearchParams {
    /// What to look for, in plain words.
    pub query: String,
    /// How many memories (default 5, at most 100; 0 or less finds nothing). `top_k` is the
    /// same.
    #[serde(alias = "top_k")]
    pub limit: Option<i64>,
    /// hybrid (default), vector or lexical.
    pub mode: Option<String>,
    /// Only memories scoring at least this, from 0 to 1 (1 = a perfect match).
    pub min_score: Option<f64>,
    /// Which memories may be found.
    #[serde(flatten)]
    pub filter: FilterParams,
}

/// `latest_memories`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct LatestParams {
    /// How many (default 10, at most 500; 0 or less gives nothing).
    pub count: Option<i64>,
    /// Position to start at, 1 = newest (default 1; below 1 is an error).
    pub begin: Option<i64>,
    /// Which memories may be listed.
    #[serde(flatten)]
    pub filter: FilterParams,
}

/// `read_core_section`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SectionParams {
    /// SOUL, TOOLS, RULE or USER.
    pub section: String,
    /// The user you work for, in a store that keeps each user's memories apart.
    pub user_id: Option<String>,
}

/// `recall`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct RecallParams {
    /// The user's request, or what the agent is about to do.
    pub query: String,
    /// Token budget of the block (default 800).
    pub budget_tokens: Option<usize>,
    /// At most this many relevant memories (default 10, at most 50).
    pub max_memories: Option<usize>,
    /// Relevant memories scoring below this (0 to 1) are left out.
    pub min_score: Option<f64>,
    /// How long to wait for the search, in ms (default the store's recall.timeout_ms, 500;
    /// 0: no limit); past it the block holds core and the newest memories.
    pub timeout_ms: Option<u64>,
    /// Which memories may be in its latest and relevant parts.
    #[serde(flatten)]
    pub filter: FilterParams,
}

/// `changeset_status`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChangesetParams {
    /// The changeset number add_memory returned.
    pub changeset: i64,
    /// The user you work for, in a store that keeps each user's memories apart.
    pub user_id: Option<String>,
}

/// `forget_memory`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ForgetParams {
    /// Ids of the memories to forget (as search_memory and latest_memories give them).
    pub memory_ids: Option<Vec<String>>,
    /// Forget every memory mentioning this phrase (whole words, in any letter case or
    /// Unicode form; at least three letters or digits), and blank it wherever it is written.
    pub mentioning: Option<String>,
    /// The user you work for, in a store that keeps each user's memories apart.
    pub user_id: Option<String>,
}

/// `delete_memory`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeleteParams {
    /// The memory's id (as search_memory and latest_memories give it).
    pub memory_id: String,
    /// The user you work for, in a store that keeps each user's memories apart.
    pub user_id: Option<String>,
}

/// `update_memory`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateParams {
    /// The memory's id (as search_memory and latest_memories give it).
    pub memory_id: String,
    /// Its new text, whole.
    pub content: String,
    /// The user you work for, in a store that keeps each user's memories apart.
    pub user_id: Option<String>,
}

/// `get_agent_state` and `delete_agent_state`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StateKeyParams {
    /// The key, e.g. current_task.
    pub key: String,
    /// Whose state (default: `default`); give your own id when several agents share a store.
    pub agent_id: Option<String>,
    /// The user you work for, in a store that keeps each user's memories apart.
    pub user_id: Option<String>,
}

/// `set_agent_state`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SetStateParams {
    /// The key, e.g. current_task.
    pub key: String,
    /// Any JSON value (at most 64 KB).
    pub value: serde_json::Value,
    /// Whose state (default: `default`); give your own id when several agents share a store.
    pub agent_id: Option<String>,
    /// The user you work for, in a store that keeps each user's memories apart.
    pub user_id: Option<String>,
}

/// A warning for a number in `value` (named `name`) that may have lost digits before haema
/// read it: a whole number too large for 64 bits arrives as the nearest float
/// (`12345678901234567890123` as `1.2345678901234568e22`), which cannot be told from a float
/// written so (`6.02214076e23`). `None` when every number is exact.
pub(super) fn inexact_number(name: &str, value: &serde_json::Value) -> Option<String> {
    use serde_json::Value;
    match value {
        Value::Number(n) if !n.is_i64() && !n.is_u64() => {
            let f = n.as_f64()?;
            (f.fract() == 0.0 && f.abs() >= 9_007_199_254_740_992.0).then(|| {
                format!(
                    "`{name}` is kept as {f:e}: if it was a whole number of more than 15 digits, JSON lost its last digits before haema read it; \
                     send such a number as a string (e.g. \"12345678901234567890123\") to keep it exactly"
                )
            })
        }
        Value::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, v)| inexact_number(&format!("{name}[{i}]"), v)),
        Value::Object(map) => map.iter().find_map(|(k, v)| inexact_number(&format!("{name}.{k}"), v)),
        _ => None,
    }
}

/// A cap of the core's as the `i64` an agent's count is read as (HAEMA's: 0 or less gives
/// nothing).
pub(super) fn cap(max: usize) -> i64 {
    i64::try_from(max).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::inexact_number;
    use serde_json::json;

    #[test]
    fn a_whole_number_beyond_64_bits_is_named_and_exact_numbers_pass() {
        let read: serde_json::Value = serde_json::from_str(r#"{"n": [1, {"m": 12345678901234567890123}]}"#).unwrap();
        let said = inexact_number("value", &read).unwrap();
        assert!(
            said.contains("`value.n[1].m`") && said.contains("as a string"),
            "{said}"
        );
        for exact in [
            json!(u64::MAX),
            json!(i64::MIN),
            json!(0.5),
            json!(9_007_199_254_740_991_i64),
            json!("12345678901234567890123"),
        ] {
            assert_eq!(inexact_number("value", &exact), None, "{exact}");
        }
    }
}
