//! Search: hybrid, vector or full-text, with filters and readable scores.

use super::{LexicalReason, Memory};
use crate::types::{SearchMode, SearchOptions, SearchResults};
use crate::{error::Result, search};

impl Memory {
    /// The texts of the `n` memories most relevant to `content` (hybrid search).
    /// `n <= 0` returns an empty list without embedding anything.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// memory.add(vec!["The user drinks green tea.".to_string(), "The user lives in Lyon.".to_string()]).await?;
    /// assert_eq!(memory.search("green tea", 1).await?, ["The user drinks green tea."]);
    /// assert!(memory.search("green tea", 0).await?.is_empty()); // as HAEMA: n <= 0 finds nothing
    /// # Ok(()) }
    /// ```
    pub async fn search(&self, content: &str, n: i64) -> Result<Vec<String>> {
        Ok(self
            .search_records(content, n, SearchMode::Hybrid)
            .await?
            .hits
            .into_iter()
            .map(|h| h.memory.content)
            .collect())
    }

    /// Search with scores, ids, timestamps and which signal found each hit.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// use haema_core::SearchMode;
    /// memory.add("The user drinks green tea.").await?;
    /// let results = memory.search_records("tea", 5, SearchMode::Lexical).await?;
    /// let hit = &results.hits[0];
    /// println!("{} scored {:.2}, found by {:?}, id {}", hit.memory.content, hit.score, hit.found_by, hit.memory.id);
    /// assert!(hit.score > 0.0 && hit.score <= 1.0);
    /// # Ok(()) }
    /// ```
    ///
    /// `options` is a [`SearchMode`] or [`SearchOptions`]: the mode, the memories that may be
    /// returned (`filter`: type, importance, source, writer, user, metadata, time, applied
    /// inside the search, so the top `n` are the best `n` that pass) and the lowest score a
    /// hit may have (`min_score`).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// use haema_core::{SearchMode, SearchOptions};
    /// memory.add(vec!["The user drinks green tea.".to_string(), "Bo dislikes black tea.".to_string()]).await?;
    /// let options = SearchOptions { min_score: Some(0.6), ..SearchOptions::mode(SearchMode::Hybrid) };
    /// let results = memory.search_records("green tea", 5, &options).await?;
    /// assert_eq!(results.hits.len(), 1); // "black tea" holds half the query's words: 0.5
    /// assert_eq!(results.mode, SearchMode::Lexical); // no embedder: by words; `notice` says why
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// A filter or minimum score out of range is [`crate::Error::InvalidArgument`]; the
    /// embedder's error in a `Vector` search (a `Hybrid` one answers by words and says why).
    pub async fn search_records(
        &self,
        query: &str,
        n: i64,
        options: impl Into<SearchOptions>,
    ) -> Result<SearchResults> {
        let options = options.into();
        let mut results = self.search_unnoted(query, n, &options).await?;
        if self.user().is_some() {
            // BM25 is computed over every user's memories: its raw value would tell one user
            // how common a word is among the others' (the readable score is the user's own).
            for hit in &mut results.hits {
                hit.bm25 = None;
            }
        }
        self.note_access(results.hits.iter().map(|h| h.memory.id.clone()));
        Ok(results)
    }

    /// [`Memory::search_records`] without noting what it returned (a recall notes what
    /// it gives the agent itself).
    pub(crate) async fn search_unnoted(&self, query: &str, n: i64, options: &SearchOptions) -> Result<SearchResults> {
        let mut options = options.clone().checked()?;
        let mode = options.mode;
        if n <= 0 {
            return Ok(SearchResults {
                mode,
                notice: None,
                hits: Vec::new(),
            });
        }
        // Past the store, a search gives all of it (as HAEMA's does); past MAX_HITS it gives
        // MAX_HITS, so that no number asked for makes it allocate beyond the store.
        let n = usize::try_from(n).unwrap_or(usize::MAX).min(crate::search::MAX_HITS);
        let has_vectors = self.inner.embedder.is_some();
        let (mut mode, mut notice) = match (mode, has_vectors) {
            (SearchMode::Lexical, _) | (_, true) => (mode, None),
            (_, false) => (
                SearchMode::Lexical,
                Some(
                    self.inner
                        .lexical
                        .clone()
                        .unwrap_or(LexicalReason::NoEmbedder)
                        .to_string(),
                ),
            ),
        };
        let query_vector = match (mode, &self.inner.embedder) {
            (SearchMode::Hybrid | SearchMode::Vector, Some(embedder)) => {
                // No secret in a query goes to the embedder (often another company's server),
                // whichever surface asked: MCP, the CLI, Python, a hook.
                let texts = vec![crate::secrets::redact(query).0];
                let embedded = match embedder.embed_query(&texts).await {
                    Ok(vectors) => crate::provider::check_embeddings(&embedder.id(), vectors, 1, embedder.dims()),
                    Err(e) => Err(e),
                };
                match embedded {
                    Ok(mut checked) => checked.pop(),
                    // Hybrid search still has the full-text signal: answer with it and say why.
                    Err(e) if mode == SearchMode::Hybrid => {
                        mode = SearchMode::Lexical;
                        notice = Some(format!("the embedder failed, so these are full-text results only: {e}"));
                        None
                    }
                    Err(e) => return Err(e.into()),
                }
            }
            _ => None,
        };
        let query = query.to_owned();
        options.mode = mode;
        let hits = self
            .blocking(move |inner| {
                inner.store.read(|store| {
                    search::run(
                        store,
                        &query,
                        query_vector.as_deref(),
                        n,
                        &options,
                        inner.settings.search.access_weight,
                    )
                })
            })
            .await?;
        Ok(SearchResults { mode, notice, hits })
    }
}
