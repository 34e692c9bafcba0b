//! Direct edits of one memory: delete it, replace its text, pin it. An edit or a deletion
//! is a changeset like any other (history shows it, `revert` undoes it); a person's is
//! committed at once, an agent's follows the review policy. Only `forget` removes text for
//! good.

use super::Memory;
use crate::error::Missing;
use crate::error::{Error, Result};
use crate::pipeline::Proposal;
use crate::types::{
    AddOutcome, AddStatus, DecidedBy, MemoryAttributes, MemoryId, MemoryRecord, MemoryStatus, Outcome, ProposedItem,
    RelatedItem,
};

/// Who asks for an edit: a person decides it there and then; an agent's request follows
/// the review policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Asker {
    Person,
    Agent,
}

impl Memory {
    /// Deletes one memory, as a person: a changeset (outcome `deleted`) that sets it aside,
    /// committed at once. `haema revert` brings it back; `forget` removes its text for good.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// let id = memory.add("The user lives in Oslo.").await?.memory_ids.remove(0);
    /// memory.delete_memory(&id).await?;
    /// assert!(memory.get_latest(1, 10).await?.is_empty());
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::NotFound`] for an unknown id; [`Error::InvalidState`] for a memory that is
    /// not active (already replaced, pending review or forgotten).
    pub async fn delete_memory(&self, id: &MemoryId) -> Result<AddOutcome> {
        self.edit(id, None, None, Asker::Person).await
    }

    /// [`Memory::delete_memory`] asked by an agent: under the `auto` policy it is committed
    /// at once; under `guarded` and `review` (and for a pinned memory under every policy) it
    /// waits for a person.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> { let dir = tempfile::tempdir()?;
    /// # let settings = haema_core::Settings { review: haema_core::ReviewPolicy::Review, ..Default::default() };
    /// # let memory = haema_core::Memory::open_with(dir.path(), settings, None, None).await?;
    /// use haema_core::AddStatus;
    /// # memory.approve(memory.add("The user lives in Oslo.").await?.changeset.ok_or("none")?).await?;
    /// let id = memory.get_latest_records(1, 1).await?[0].id.clone();
    /// let outcome = memory.request_delete(&id).await?; // an agent asks, under the `review` policy
    /// assert_eq!(outcome.status, AddStatus::Pending);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Memory::delete_memory`].
    pub async fn request_delete(&self, id: &MemoryId) -> Result<AddOutcome> {
        self.edit(id, None, None, Asker::Agent).await
    }

    /// Replaces one memory's text, as a person: a changeset (outcome `edited`) whose new
    /// memory (a new id, with the old one's attributes and pin) replaces the old one,
    /// embedded again, committed at once. The same text changes nothing (`noop`).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// let old = memory.add("The user lives in Oslo.").await?.memory_ids.remove(0);
    /// let outcome = memory.update_memory(&old, "The user lives in Bergen.").await?;
    /// assert_ne!(outcome.memory_ids, [old]); // the new text is a new memory
    /// assert_eq!(memory.get_latest(1, 10).await?, ["The user lives in Bergen."]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for an empty text (delete the memory instead), and the
    /// errors of [`Memory::delete_memory`].
    pub async fn update_memory(&self, id: &MemoryId, content: &str) -> Result<AddOutcome> {
        self.edit(id, Some(content.to_owned()), None, Asker::Person).await
    }

    /// Replaces one memory's attributes (type, importance, source, writer, session, user,
    /// metadata: all of them, as given), as a person: like [`Memory::update_memory`], a
    /// changeset whose new memory (same text, a new id) replaces the old one, committed at
    /// once and undone by `revert`. The same attributes change nothing (`noop`).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// use haema_core::MemoryAttributes;
    /// let id = memory.add("The user lives in Oslo.").await?.memory_ids.remove(0);
    /// let fact = MemoryAttributes { memory_type: Some("fact".into()), importance: Some(0.9), ..Default::default() };
    /// let new = memory.update_attributes(&id, fact).await?.memory_ids.remove(0);
    /// assert_eq!(memory.memory(&new).await?.attributes.importance, Some(0.9));
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for an attribute out of range, and the errors of
    /// [`Memory::delete_memory`].
    pub async fn update_attributes(&self, id: &MemoryId, attributes: MemoryAttributes) -> Result<AddOutcome> {
        let attributes = attributes.checked()?;
        crate::secrets::refuse_in_ids(&attributes)?;
        let attributes = self.scoped_attributes(attributes)?;
        self.edit(id, None, Some(attributes), Asker::Person).await
    }

    /// [`Memory::update_memory`] asked by an agent: follows the review policy as
    /// [`Memory::request_delete`] does (under `guarded` it waits, since it replaces a memory).
    /// See the example on [`Memory::request_delete`].
    ///
    /// # Errors
    /// As [`Memory::update_memory`].
    pub async fn request_update(&self, id: &MemoryId, content: &str) -> Result<AddOutcome> {
        self.edit(id, Some(content.to_owned()), None, Asker::Agent).await
    }

    /// Pins (or unpins) a memory: a pinned memory is never replaced or rewritten without a
    /// person's review, whatever the review policy; what replaces it after review is pinned
    /// too. Returns the memory as it is now.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// let id = memory.add("The user is allergic to peanuts.").await?.memory_ids.remove(0);
    /// assert!(memory.set_pinned(&id, true).await?.pinned);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::NotFound`] for an unknown id; [`Error::InvalidState`] for a memory that is
    /// not active.
    pub async fn set_pinned(&self, id: &MemoryId, pinned: bool) -> Result<MemoryRecord> {
        let id = id.clone();
        self.blocking(move |inner| {
            inner.store.write(|tx| {
                let (rowid, memory) = active(tx.memories().by_id(&id)?, &id)?;
                if memory.pinned != pinned {
                    tx.memories_mut().set_pinned(rowid, pinned, crate::types::now_ms())?;
                }
                Ok(())
            })?;
            let found = inner.store.read(|r| r.memories().by_id(&id))?;
            found.map(|(_, m)| m).ok_or(Error::NotFound(Missing::Memory(id)))
        })
        .await
    }

    /// Builds the changeset of an edit (new `content`, new `attributes`, or both) or a
    /// deletion (neither) and stores it.
    async fn edit(
        &self,
        id: &MemoryId,
        content: Option<String>,
        attributes: Option<MemoryAttributes>,
        asker: Asker,
    ) -> Result<AddOutcome> {
        let mut secrets = crate::secrets::SecretTally::default();
        let content = match content {
            Some(text) if text.trim().is_empty() => {
                return Err(Error::InvalidArgument(
                    "the new text is empty: to remove a memory, delete it".into(),
                ));
            }
            Some(text) => {
                crate::limits::check_memory_size(text.trim())?;
                Some(text)
            }
            None => None,
        };
        let content = content.map(|t| {
            let mut text = t.trim().to_owned();
            secrets.string(&mut text);
            text
        });
        let attributes = attributes.map(|mut a| {
            secrets.attributes(&mut a);
            a
        });
        let lookup = id.clone();
        let found = self
            .blocking(move |inner| inner.store.read(|r| r.memories().by_id(&lookup)))
            .await?;
        let (_, memory) = active(found, id)?;
        let delete = content.is_none() && attributes.is_none();
        let content = content.or_else(|| attributes.as_ref().map(|_| memory.content.clone()));
        let attributes = attributes.unwrap_or_else(|| memory.attributes.clone());
        if !delete && content.as_deref() == Some(memory.content.as_str()) && attributes == memory.attributes {
            return Ok(AddOutcome {
                changeset: None,
                status: AddStatus::Noop,
                warnings: Vec::new(),
                memory_ids: Vec::new(),
            });
        }
        let mut proposal = Proposal {
            inputs: content.iter().cloned().collect(),
            related: vec![RelatedItem {
                memory_id: memory.id.clone(),
                content: memory.content.clone(),
                distance: None,
                kept: false,
            }],
            proposed: content
                .iter()
                .map(|text| ProposedItem {
                    memory_id: None,
                    content: text.clone(),
                    kept: false,
                    attributes: attributes.clone(),
                })
                .collect(),
            outcome: Some(if content.is_some() {
                Outcome::Edited
            } else {
                Outcome::Deleted
            }),
            attributes,
            pinned: if memory.pinned {
                vec![memory.id.clone()]
            } else {
                Vec::new()
            },
            secrets,
            ..Proposal::default()
        };
        proposal.screen();
        let (commit_now, decided_by) = match asker {
            Asker::Person => {
                // A person decides at once, but what reads like an injection is still marked.
                if !proposal.hostile.is_empty() {
                    let warning = crate::safety::person_warning(&proposal.hostile);
                    proposal.warnings.push(warning);
                }
                if !proposal.secrets.is_empty() {
                    let warning = self.settings().secrets.policy.warning(&proposal.secrets, false);
                    proposal.warnings.push(warning);
                }
                (true, DecidedBy::User)
            }
            Asker::Agent => (self.commits_without_review(&mut proposal), DecidedBy::Auto),
        };
        let warnings = proposal.warnings.clone();
        let stored = self.store_proposal(proposal, commit_now, decided_by, true).await?;
        stored
            .outcome(false, warnings)
            .ok_or_else(|| Error::Internal("an edit met a conflict on its last attempt".into()))
    }
}

/// The memory of `found`, when it is active; else why it cannot be edited.
fn active(found: Option<(i64, MemoryRecord)>, id: &MemoryId) -> Result<(i64, MemoryRecord)> {
    match found {
        None => Err(Error::NotFound(Missing::Memory(id.clone()))),
        Some((rowid, memory)) if memory.status == MemoryStatus::Active => Ok((rowid, memory)),
        Some((_, memory)) => Err(Error::InvalidState(format!(
            "memory {id} is {}, not active: only what search and latest show can be edited, deleted or pinned",
            memory.status
        ))),
    }
}
