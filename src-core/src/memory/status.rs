//! How an open store stands, worded once for people: how search works now and what waits
//! for review. Every front end shows these sentences, so that no two views explain search
//! (or the review queue) in different words.

use serde::Serialize;

use super::{LexicalReason, StoreInfo};

/// How a store stands now, in sentences for people (see [`StoreInfo::status`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct StoreStatus {
    /// Whether search understands meaning now; when not, it finds memories by their words,
    /// and a search "by meaning" is answered by words.
    pub by_meaning: bool,
    /// How search works now, in one sentence.
    pub search: String,
    /// What a person can do about it, when anything (`None`: nothing to do, or it comes by
    /// itself).
    pub search_fix: Option<String>,
    /// The precise reason, for those who want it (the model's name, an environment
    /// variable); `None` when search understands meaning.
    pub search_detail: Option<String>,
    /// Changes waiting for review.
    pub waiting: usize,
    /// What waits for review, in one sentence.
    pub review: String,
    /// Captured conversations that wait for an AI to read them, in one sentence (`None`:
    /// none waits).
    pub captured: Option<String>,
}

impl StoreInfo {
    /// How this store stands now, in sentences for people.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// let status = memory.info().await?.status();
    /// assert!(!status.by_meaning);
    /// assert_eq!(status.search, "Search finds memories by their words only: no search model is chosen.");
    /// assert_eq!(status.review, "Nothing waits for you in Review.");
    /// # Ok(()) }
    /// ```
    pub fn status(&self) -> StoreStatus {
        let vectors = self.embedder != "none" && self.dims > 0;
        let reason = self
            .lexical_reason
            .clone()
            .or_else(|| (!vectors).then_some(LexicalReason::NoEmbedder));
        let (search, search_fix) = match &reason {
            None if self.vectors_behind => (
                "Search finds memories by their meaning and their words; a few new memories are found by their words only until they are prepared for search by meaning.".to_owned(),
                None,
            ),
            None => ("Search finds memories by their meaning and their words.".to_owned(), None),
            Some(LexicalReason::NoEmbedder) => (
                "Search finds memories by their words only: no search model is chosen.".to_owned(),
                Some("To search by meaning too, choose a search model in the settings.".to_owned()),
            ),
            Some(LexicalReason::ModelMissing { reason, .. }) => (
                "Search finds memories by their words only for now: the search model is not on this computer yet.".to_owned(),
                Some(if reason.contains("HF_HUB_OFFLINE") || reason.contains("offline") {
                    "Downloads are turned off on this computer; once they are allowed and it is online, the model (about 90 MB) comes by itself, or “haema model fetch” in a terminal fetches it.".to_owned()
                } else {
                    "It downloads by itself (about 90 MB) while this computer is online, or “haema model fetch” in a terminal fetches it.".to_owned()
                }),
            ),
            Some(LexicalReason::VectorsPending { .. }) => (
                "Search finds memories by their words only for a moment: the memories are being prepared for search by meaning.".to_owned(),
                None,
            ),
            Some(LexicalReason::ClientEmbedder { .. }) => (
                "Search finds memories by their words only here: their meaning is read by the program that made this memory, which only that program can do.".to_owned(),
                None,
            ),
        };
        let waiting = self.pending_changesets;
        let review = match waiting {
            0 => "Nothing waits for you in Review.".to_owned(),
            1 => "1 change waits for you in Review.".to_owned(),
            n => format!("{n} changes wait for you in Review."),
        };
        StoreStatus {
            by_meaning: reason.is_none(),
            search,
            search_fix,
            search_detail: reason.map(|r| r.to_string()),
            waiting,
            review,
            captured: match self.captures_waiting {
                0 => None,
                1 => Some("1 captured conversation waits for an AI to turn it into memories: nothing of it is stored until one is connected (`haema setup`, or Settings); its words wait in the agent's own transcript.".to_owned()),
                n => Some(format!(
                    "{n} captured conversations wait for an AI to turn them into memories: nothing of them is stored until one is connected (`haema setup`, or Settings); their words wait in the agents' own transcripts."
                )),
            },
        }
    }
}
