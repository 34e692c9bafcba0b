//! Search modes and results.

use serde::{Deserialize, Serialize};

use super::MemoryRecord;

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
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SearchResults {
    /// The mode that ran (a `hybrid` or `vector` request runs `lexical` on a store without vectors).
    pub mode: SearchMode,
    /// Set when the mode asked for was not available, saying why.
    pub notice: Option<String>,
    /// Best first.
    pub hits: Vec<SearchHit>,
}
