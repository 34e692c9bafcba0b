//! Plain serde types returned by the engine: the "view model" both front ends render.

use serde::{Deserialize, Serialize};
pub mod core_md;

/// Where a memory stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MemoryStatus {
    /// Visible to search, latest and recall.
    Active,
    /// Proposed by a changeset that waits for review; invisible to reads.
    Pending,
    /// Replaced by a later changeset; kept for history and revert.
    Superseded,
    /// Removed on purpose.
    Forgotten,
}

impl MemoryStatus {
    /// The status as stored and serialised (`active`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Active => "active",
            Self::Pending => "pending",
            Self::Superseded => "superseded",
            Self::Forgotten => "forgotten",
        }
    }

    pub(crate) fn parse(text: &str) -> Self {
        match text {
            "active" => Self::Active,
            "pending" => Self::Pending,
            "superseded" => Self::Superseded,
            _ => Self::Forgotten,
        }
    }
}

/// One long-term memory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MemoryRecord {
    /// Stable id (UUID v4). A memory carried over unchanged by a merge keeps its id.
    pub id: String,
    /// The memory's text.
    pub content: String,
    /// When it became a memory (Unix ms); strictly increasing across the store.
    pub timestamp_ms: i64,
    /// Last status change (Unix ms).
    pub updated_at_ms: i64,
    /// Status.
    pub status: MemoryStatus,
    /// The changeset that made it.
    pub changeset_id: Option<i64>,
    /// The changeset that replaced it, if any.
    pub superseded_by: Option<i64>,
}

/// Which retrieval signal found a search hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FoundBy {
    /// Vector similarity only.
    Vector,
    /// Full-text (BM25) only.
    Lexical,
    /// Both signals.
    Both,
}

/// How to search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SearchMode {
    /// Vector KNN and BM25 fused by their scaled scores, with bonuses for named times and names.
    #[default]
    Hybrid,
    /// Vector similarity only.
    Vector,
    /// Full text only.
    Lexical,
}

impl SearchMode {
    /// The mode's name (`hybrid`, `vector`, `lexical`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Hybrid => "hybrid",
            Self::Vector => "vector",
            Self::Lexical => "lexical",
        }
    }
}

impl std::str::FromStr for SearchMode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "hybrid" => Ok(Self::Hybrid),
            "vector" => Ok(Self::Vector),
            "lexical" => Ok(Self::Lexical),
            other => Err(format!("unknown search mode `{other}`; use hybrid, vector or lexical")),
        }
    }
}

/// One search result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchHit {
    /// The memory.
    #[serde(flatten)]
    pub memory: MemoryRecord,
    /// Score; higher is better. In `vector` mode it is the cosine similarity; in `hybrid`
    /// and `lexical` mode the fused score: 0.6 × BM25 and 0.4 × similarity, each scaled to
    /// 0–1 over the candidates, plus 0.3 for a memory from a time the query names and 0.1
    /// for one with every name the query has.
    pub score: f64,
    /// Which signal found it.
    pub found_by: FoundBy,
    /// Cosine distance to the query, when the vector signal found it.
    pub distance: Option<f64>,
    /// BM25 value (lower is better, as SQLite reports it), when the lexical signal found it.
    pub bm25: Option<f64>,
}

/// The answer of a search, with what was actually used.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchResults {
    /// The mode that ran (a `hybrid` or `vector` request runs `lexical` on a store without vectors).
    pub mode: SearchMode,
    /// Set when the mode asked for was not available, saying why.
    pub notice: Option<String>,
    /// Best first.
    pub hits: Vec<SearchHit>,
}

/// Status of a changeset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChangesetStatus {
    /// Waits for a person.
    Pending,
    /// Applied.
    Committed,
    /// Declined by a person; nothing was applied.
    Rejected,
    /// Applied and later undone by a revert changeset.
    Reverted,
    /// Could not be applied because what it was built on changed; can be re-run.
    Stale,
}

impl ChangesetStatus {
    /// The status as stored and serialised (`pending`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Committed => "committed",
            Self::Rejected => "rejected",
            Self::Reverted => "reverted",
            Self::Stale => "stale",
        }
    }

    pub(crate) fn parse(text: &str) -> Self {
        match text {
            "pending" => Self::Pending,
            "committed" => Self::Committed,
            "rejected" => Self::Rejected,
            "reverted" => Self::Reverted,
            _ => Self::Stale,
        }
    }
}

/// How the proposed memories of a changeset came about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The LLM rebuilt the memories on the first try.
    Reconstructed,
    /// The LLM rebuilt them after one refinement.
    Refined,
    /// The LLM failed; related memories kept, new contents added as given.
    Fallback,
    /// No LLM configured; new contents added as given.
    NoLlm,
    /// Undo of an earlier changeset.
    Revert,
    /// Memories imported from a file, as they were.
    Import,
}

impl Outcome {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Reconstructed => "reconstructed",
            Self::Refined => "refined",
            Self::Fallback => "fallback",
            Self::NoLlm => "no_llm",
            Self::Revert => "revert",
            Self::Import => "import",
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
        }
    }

    pub(crate) fn parse(text: &str) -> Self {
        match text {
            "reconstructed" => Self::Reconstructed,
            "refined" => Self::Refined,
            "fallback" => Self::Fallback,
            "revert" => Self::Revert,
            "import" => Self::Import,
            _ => Self::NoLlm,
        }
    }
}

/// A memory the changeset was built on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RelatedItem {
    /// Id of the existing memory.
    pub memory_id: String,
    /// Its text when the changeset was made.
    pub content: String,
    /// Cosine (or lexical) distance to the nearest new content.
    pub distance: Option<f64>,
    /// True when the proposal carries it over unchanged (it is not removed).
    pub kept: bool,
}

/// A memory the changeset proposes (or, once committed, made).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProposedItem {
    /// Id of the memory it is (kept) or becomes.
    pub memory_id: Option<String>,
    /// Text.
    pub content: String,
    /// True when it is an existing related memory carried over unchanged.
    pub kept: bool,
}

/// One call to the LLM made while building a changeset.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LlmCall {
    /// Stage: `pre_split`, `reconstruct`, `refine` or `core_update`.
    pub stage: String,
    /// The raw answer, when there was one.
    pub answer: Option<serde_json::Value>,
    /// Why the answer was not used, if it was not.
    pub error: Option<String>,
}

/// A changeset with everything a reviewer needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Changeset {
    /// Id.
    pub id: i64,
    /// `add` or `revert`.
    pub kind: String,
    /// Status.
    pub status: ChangesetStatus,
    /// How the proposal came about.
    pub outcome: Outcome,
    /// When it was made (Unix ms).
    pub created_at_ms: i64,
    /// When it was decided, if it was.
    pub decided_at_ms: Option<i64>,
    /// Who decided: `auto` (the review policy), `user`, or `revert`.
    pub decided_by: Option<String>,
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
    pub reverts_id: Option<i64>,
    /// The changeset that reverted this one.
    pub reverted_by_id: Option<i64>,
}

impl Changeset {
    /// Related memories the proposal does not carry over: what committing it replaces.
    pub fn removed(&self) -> impl Iterator<Item = &RelatedItem> {
        self.related.iter().filter(|r| !r.kept)
    }

    /// Proposed memories that do not exist yet.
    pub fn added(&self) -> impl Iterator<Item = &ProposedItem> {
        self.proposed.iter().filter(|p| !p.kept)
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

/// The four core sections.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Section {
    /// Lasting identity, mission and communication style.
    Soul,
    /// Lasting tool capabilities and how to use them.
    Tools,
    /// Hard constraints, mandatory checks, priorities.
    Rule,
    /// Stable user profile and preferences.
    User,
}

impl Section {
    /// All sections in file order.
    pub const ALL: [Self; 4] = [Self::Soul, Self::Tools, Self::Rule, Self::User];

    /// The heading name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Soul => "SOUL",
            Self::Tools => "TOOLS",
            Self::Rule => "RULE",
            Self::User => "USER",
        }
    }
}

impl std::fmt::Display for Section {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Section {
    type Err = crate::Error;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|x| x.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| {
                crate::Error::InvalidArgument(format!("unknown core section `{s}`; use SOUL, TOOLS, RULE or USER"))
            })
    }
}

/// One version of core.md.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CoreVersion {
    /// Version id, increasing.
    pub id: i64,
    /// Full text.
    pub content: String,
    /// `llm`, `user`, `external` or `initial`.
    pub author: String,
    /// The changeset that made it, for LLM and revert versions.
    pub changeset_id: Option<i64>,
    /// When (Unix ms).
    pub created_at_ms: i64,
}

/// What `add()` did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AddOutcome {
    /// The changeset, or `None` when the input was empty.
    pub changeset: Option<i64>,
    /// `committed`, `pending`, `noop` (nothing to do) or `stale`.
    pub status: AddStatus,
    /// Things a person should know, e.g. that the LLM failed and the fallback was used.
    pub warnings: Vec<String>,
}

/// Short status of an `add()`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AddStatus {
    /// Applied.
    Committed,
    /// Waiting for review.
    Pending,
    /// Nothing to do (empty input, or nothing changes).
    Noop,
    /// Another writer changed the related memories every time; the changeset waits as stale.
    Stale,
}

/// `2026-11-22 04:07:31 UTC` for Unix milliseconds.
pub fn format_utc(ms: i64) -> String {
    let rem = ms.div_euclid(1000).rem_euclid(86_400);
    let (year, month, day) = civil_date(ms);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// (year, month, day) of Unix ms, UTC: the civil date from days since 1970-01-01 (Howard
/// Hinnant's `civil_from_days`).
pub(crate) fn civil_date(ms: i64) -> (i64, u32, u32) {
    let z = ms.div_euclid(86_400_000) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, u32::try_from(month).unwrap_or(1), u32::try_from(day).unwrap_or(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_formats_known_instants() {
        assert_eq!(format_utc(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(format_utc(1_771_814_357_000), "2026-02-23 02:39:17 UTC");
        assert_eq!(format_utc(951_782_400_000), "2000-02-29 00:00:00 UTC");
    }
}
