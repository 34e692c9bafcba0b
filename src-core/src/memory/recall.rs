//! `recall(query, budget)`: what it reads (core.md, the newest memories, a search within a
//! time limit); the block is put together by [`crate::search::recall::assemble`].

use std::time::Duration;

use super::Memory;
use crate::error::Result;
use crate::search::recall::{Recall, RecallOptions, assemble};
use crate::types::{LatestOptions, SearchMode, SearchOptions};

impl Memory {
    /// Builds the block an agent prepends to its prompt: core, then the newest memories,
    /// then the memories most relevant to `query`, within `budget` estimated tokens (items
    /// that do not fit are left out; core is cut only if it alone exceeds the budget).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// memory.add(vec!["The user is vegetarian.".to_string(), "The user lives in Lyon.".to_string()]).await?;
    /// let recall = memory.recall("Where should the user eat? They are vegetarian.", 300).await?;
    /// let system = format!("You are a helpful assistant.\n\n{}", recall.text);
    /// assert!(system.contains("- The user is vegetarian."));
    /// assert!(recall.tokens <= recall.budget);
    /// for item in &recall.items {
    ///     println!("{:?} {:?} {}", item.reason, item.score, item.content);
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn recall(&self, query: &str, budget: usize) -> Result<Recall> {
        self.recall_with(query, &RecallOptions::budget(budget)).await
    }

    /// [`Memory::recall`] as `options` say: a filter on its latest and relevant parts (core
    /// is the agent's profile and is always given), a minimum score and a number of
    /// relevant memories, and a time limit. A recall never keeps an agent waiting past the
    /// limit: when the search has not answered by then, the block holds core and the newest
    /// memories, and [`Recall::notice`] says so.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// use std::time::Duration;
    /// use haema_core::{MemoryAttributes, MemoryFilter, RecallOptions};
    /// let ana = MemoryAttributes { user_id: Some("ana".into()), ..Default::default() };
    /// memory.add_with("Ana is vegetarian.", ana).await?;
    /// memory.add("Bo eats anything.").await?;
    /// let options = RecallOptions {
    ///     filter: MemoryFilter { user_id: Some("ana".into()), ..Default::default() },
    ///     timeout: Some(Duration::from_millis(300)),
    ///     ..RecallOptions::budget(500)
    /// };
    /// let recall = memory.recall_with("what does the user eat?", &options).await?;
    /// assert!(recall.text.contains("Ana is vegetarian.") && !recall.text.contains("Bo"));
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// A filter or minimum score out of range is [`crate::Error::InvalidArgument`]; the
    /// errors of [`Memory::recall`].
    pub async fn recall_with(&self, query: &str, options: &RecallOptions) -> Result<Recall> {
        let search = SearchOptions {
            mode: SearchMode::Hybrid,
            filter: options.filter.clone(),
            min_score: options.min_score,
        }
        .checked()?;
        let core = self.get_core().await?;
        let latest = LatestOptions {
            filter: search.filter.clone(),
            ..LatestOptions::default()
        };
        let latest = self
            .latest_records(i64::try_from(options.latest).unwrap_or(i64::MAX), &latest)
            .await?;
        let limit = match options.timeout {
            Some(wait) if wait.is_zero() => Duration::MAX,
            Some(wait) => wait,
            None => RecallOptions::timeout_ms(self.settings().recall.timeout_ms),
        };
        let wanted = i64::try_from(options.max_memories).unwrap_or(i64::MAX);
        let searched = tokio::time::timeout(limit, self.search_unnoted(query, wanted, &search)).await;
        let (hits, notice) = match searched {
            Ok(results) => {
                let results = results?;
                (results.hits, results.notice)
            }
            Err(_) => (
                Vec::new(),
                Some(format!(
                    "the search took longer than {} ms, so the block holds core and the newest memories only",
                    limit.as_millis()
                )),
            ),
        };
        let max_chars = self.settings().recall.max_chars;
        let recall = assemble(&core, &latest, &hits, options.budget, max_chars, notice);
        self.note_access(recall.items.iter().filter_map(|i| i.id.clone()));
        Ok(recall)
    }
}
