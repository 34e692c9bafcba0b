//! Search modes and results.

use serde::{Deserialize, Serialize};

use super::MemoryRecord;
use super::invalid::Invalid;

closed_set! {
    /// Which retrieval signal found a search hit.
    pub enum FoundBy ("search signal") {
        /// Vector similarity only.
        Vector = "vector",
        /// Full-text (BM25) only.
        Lexical = "lexical",
        /// Both signals.
        Both = "both",
    }
}

closed_set! {
    /// How to search.
    #[derive(Default)]
    pub enum SearchMode ("search mode") {
        /// Vector KNN and BM25 fused by their scaled scores, with bonuses for named times and names.
        #[default]
        Hybrid = "hybrid",
        /// Vector similarity only.
        Vector = "vector",
        /// Full text only.
        Lexical = "lexical",
    }
}

/// One search result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SearchHit {
    /// The memory.
    #[serde(flatten)]
    pub memory: MemoryRecord,
    /// How well the memory matches the query, from 0 (not at all) to 1, on the same scale
    /// for every query, so a `min_score` means the same everywhere. In `vector` mode it is
    /// the cosine similarity (below 0 counts as 0); in `lexical` mode the share of the
    /// query's words (stemmed, function words aside) the memory holds; in `hybrid` mode
    /// either may vouch for it: `1 − (1 − similarity) × (1 − share)`.
    pub score: f64,
    /// The value hits are ordered by, higher first: in `vector` mode the similarity; in
    /// `hybrid` and `lexical` mode the fused score: 0.6 × BM25 and 0.4 × similarity, each
    /// scaled to 0–1 over the candidates, plus 0.3 for a memory from a time the query
    /// names and 0.1 for one with every name the query has. It compares hits of one search
    /// only.
    pub rank_score: f64,
    /// Which signal found it.
    pub found_by: FoundBy,
    /// Cosine distance to the query, when the memory has a vector (a hybrid search measures
    /// it for the memories only the full-text signal found as well).
    pub distance: Option<f64>,
    /// BM25 value (lower is better, as SQLite reports it), when the lexical signal found it.
    pub bm25: Option<f64>,
}

/// The answer of a search, with what was actually used. The example on
/// [`Memory::search_records`](crate::Memory::search_records) reads one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SearchResults {
    /// The mode that ran (a `hybrid` or `vector` request runs `lexical` on a store without vectors).
    pub mode: SearchMode,
    /// Set when the mode asked for was not available, saying why.
    pub notice: Option<String>,
    /// Best first.
    pub hits: Vec<SearchHit>,
}

/// How to search: the mode, which memories may be returned, and how good a hit must be.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SearchOptions {
    /// Hybrid (default), vector or lexical.
    #[serde(default)]
    pub mode: SearchMode,
    /// Only memories that pass it (applied inside the search).
    #[serde(default)]
    pub filter: super::MemoryFilter,
    /// Only hits whose [`SearchHit::score`] is at least this (0 to 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_score: Option<f64>,
}

impl SearchOptions {
    /// Options of `mode` with nothing else set.
    pub fn mode(mode: SearchMode) -> Self {
        Self {
            mode,
            ..Self::default()
        }
    }

    /// Options of `mode` among the memories that pass `filter`.
    ///
    /// ```
    /// use haema_core::{MemoryFilter, SearchMode, SearchOptions};
    /// let mine = MemoryFilter { agent_id: Some("planner".into()), ..Default::default() };
    /// let options = SearchOptions::filtered(SearchMode::Lexical, mine);
    /// assert!(options.clone().checked().is_ok());
    /// assert!(SearchOptions { min_score: Some(2.0), ..options }.checked().is_err());
    /// ```
    pub fn filtered(mode: SearchMode, filter: super::MemoryFilter) -> Self {
        Self {
            mode,
            filter,
            min_score: None,
        }
    }

    /// The options as applied (see [`super::MemoryFilter::checked`]).
    ///
    /// # Errors
    /// [`Invalid::Argument`] for a `min_score` outside [0, 1] and for a filter
    /// out of range.
    pub fn checked(mut self) -> Result<Self, Invalid> {
        self.filter = self.filter.checked()?;
        check_min_score(self.min_score)?;
        Ok(self)
    }
}

impl From<SearchMode> for SearchOptions {
    fn from(mode: SearchMode) -> Self {
        Self::mode(mode)
    }
}

impl From<&SearchOptions> for SearchOptions {
    fn from(options: &SearchOptions) -> Self {
        options.clone()
    }
}

/// Which page of the latest memories (newest first): where it starts and which memories
/// may be in it.
///
/// ```
/// use haema_core::{LatestOptions, LatestStart, MemoryFilter};
/// let mine = MemoryFilter { user_id: Some("ana".into()), ..MemoryFilter::default() };
/// let options = LatestOptions { filter: mine, ..LatestOptions::default() };
/// assert_eq!(options.start, LatestStart::Begin(1)); // from the newest
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LatestOptions {
    /// Where the page starts.
    pub start: LatestStart,
    /// Only memories that pass it.
    pub filter: super::MemoryFilter,
}

/// Where a page of latest memories starts.
#[derive(Debug, Clone, PartialEq)]
pub enum LatestStart {
    /// At the `begin`-th newest, 1-based as HAEMA's `begin` (1 is the newest).
    Begin(i64),
    /// Just after the memory a page before ended with (keyset paging: a long list read page
    /// by page neither skips nor repeats a memory when new ones arrive meanwhile).
    After {
        /// Its [`super::MemoryRecord::timestamp_ms`].
        timestamp_ms: i64,
        /// Its id.
        id: super::MemoryId,
    },
}

impl Default for LatestStart {
    fn default() -> Self {
        Self::Begin(1)
    }
}

impl LatestStart {
    /// Just after `memory` (the last of a page before).
    pub fn after(memory: &super::MemoryRecord) -> Self {
        Self::After {
            timestamp_ms: memory.timestamp_ms,
            id: memory.id.clone(),
        }
    }
}

impl LatestOptions {
    /// From the `begin`-th newest (1-based), among all memories.
    pub fn begin(begin: i64) -> Self {
        Self {
            start: LatestStart::Begin(begin),
            filter: super::MemoryFilter::default(),
        }
    }

    /// Just after `memory` (the last of a page before), among all memories.
    pub fn after(memory: &super::MemoryRecord) -> Self {
        Self {
            start: LatestStart::after(memory),
            filter: super::MemoryFilter::default(),
        }
    }
}

/// Refuses a minimum score outside [0, 1] (or not a number), saying what to give.
fn check_min_score(min_score: Option<f64>) -> Result<(), Invalid> {
    match min_score {
        Some(min) if !(0.0..=1.0).contains(&min) => Err(Invalid::Argument(format!(
            "the minimum score is {min}: give a number from 0 (anything) to 1 (a perfect match)"
        ))),
        _ => Ok(()),
    }
}

/// How often a memory was returned by a search or a recall, and when last (recorded in
/// batches: counts of the last few seconds may still be on their way to the store).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct AccessStats {
    /// Times returned (HatiData's `access_count`).
    pub access_count: u64,
    /// When last returned (Unix ms); `None` when never.
    pub last_accessed_ms: Option<i64>,
}
