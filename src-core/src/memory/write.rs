//! `add()`: build a proposal, then commit it or leave it for review as the policy says.

use std::collections::HashMap;
use std::sync::Arc;

use super::{Inner, Memory, apply};
use crate::config::ReviewPolicy;
use crate::error::{Error, Result};
use crate::pipeline::{self, AddInput, Proposal, related};
use crate::provider::check_embeddings;
use crate::secrets::{SecretPolicy, SecretTally};
use crate::store::{MetaKey, Writer, core_write};
use crate::types::{
    AddOutcome, AddStatus, Changeset, ChangesetId, ChangesetKind, ChangesetStatus, DecidedBy, MemoryAttributes,
    MemoryId, MemoryStatus, Outcome,
};

/// How often `add()` rebuilds a proposal whose related memories another writer changed
/// meanwhile before it leaves the proposal as a stale changeset.
const MAX_ATTEMPTS: usize = 3;

/// Most texts sent in one embedding request.
const EMBED_REQUEST_MAX: usize = 96;

/// What storing a proposal did.
pub(crate) enum Stored {
    Committed(ChangesetId, Vec<MemoryId>),
    Pending(ChangesetId, Vec<MemoryId>),
    /// Stored as stale after the last attempt also met a conflict.
    Stale(ChangesetId, Vec<MemoryId>),
    /// Another writer changed the related memories after they were looked up.
    Conflict,
}

impl Stored {
    /// What the caller is told, `noop` when committing changed nothing.
    pub(crate) fn outcome(self, noop: bool, warnings: Vec<String>) -> Option<AddOutcome> {
        let (changeset, status, memory_ids) = match self {
            Self::Conflict => return None,
            Self::Committed(id, ids) if noop => (id, AddStatus::Noop, ids),
            Self::Committed(id, ids) => (id, AddStatus::Committed, ids),
            Self::Pending(id, ids) => (id, AddStatus::Pending, ids),
            Self::Stale(id, ids) => (id, AddStatus::Stale, ids),
        };
        Some(AddOutcome {
            changeset: Some(changeset),
            status,
            warnings,
            memory_ids,
        })
    }
}

impl Memory {
    /// Adds what an agent learned.
    ///
    /// A single text is split into items by the LLM first (unless it already is one short
    /// fact: one short sentence, not a question or a list); a list is taken item by item.
    /// Empty input (or only whitespace) does nothing. The related memories are rebuilt
    /// together with the new contents into one changeset, which is committed at once or
    /// waits for review depending on the review policy. If the LLM fails, the related
    /// memories are kept and the new contents added as given: nothing is lost.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// use haema_core::AddStatus;
    /// // One text, a list of texts, or a slice of `&str`s.
    /// let outcome = memory.add("The user is vegetarian.").await?;
    /// assert_eq!(outcome.status, AddStatus::Committed);
    /// let fact = memory.memory(&outcome.memory_ids[0]).await?;
    /// assert_eq!(fact.content, "The user is vegetarian.");
    /// memory.add(&["Ana lives in Lyon.", "Ana has a cat."][..]).await?;
    /// assert_eq!(memory.add("   ").await?.status, AddStatus::Noop);
    /// # Ok(()) }
    /// ```
    pub async fn add(&self, contents: impl Into<AddInput>) -> Result<AddOutcome> {
        self.add_with(contents, MemoryAttributes::default()).await
    }

    /// [`Memory::add`] with attributes: a type, an importance, a source, the agent and
    /// session writing, the user it is about, metadata. Every memory the add makes carries
    /// them, merged with those of the memories it replaces ([`MemoryAttributes::merged`]:
    /// the newest value of each, the highest importance, metadata key by key).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// use haema_core::MemoryAttributes;
    /// let attributes = MemoryAttributes {
    ///     memory_type: Some("preference".into()),
    ///     importance: Some(0.8),
    ///     agent_id: Some("planner".into()),
    ///     ..MemoryAttributes::default()
    /// };
    /// let outcome = memory.add_with("The user prefers window seats.", attributes).await?;
    /// let stored = memory.memory(&outcome.memory_ids[0]).await?;
    /// assert_eq!(stored.attributes.memory_type.as_deref(), Some("preference"));
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when an attribute is out of range, or a text (or an item)
    /// is larger than [`crate::limits::MAX_MEMORY_BYTES`] (nothing is stored), and the
    /// errors of [`Memory::add`].
    pub async fn add_with(&self, contents: impl Into<AddInput>, attributes: MemoryAttributes) -> Result<AddOutcome> {
        self.add_read(contents.into(), attributes, false).await
    }

    /// [`Memory::add_with`]; `captured` (a conversation captured from an agent's session)
    /// is always split by the LLM, and where the LLM fails nothing is stored: no fallback
    /// keeps a conversation as it was said.
    pub(crate) async fn add_read(
        &self,
        contents: AddInput,
        attributes: MemoryAttributes,
        captured: bool,
    ) -> Result<AddOutcome> {
        // Secrets are replaced before the LLM or the store sees the text.
        let input = contents;
        input.check_size()?;
        let mut secrets = crate::secrets::SecretTally::default();
        let input = input.redacted(&mut secrets);
        let attributes = attributes.checked()?;
        crate::secrets::refuse_in_ids(&attributes)?;
        let mut attributes = self.scoped_attributes(attributes)?;
        secrets.attributes(&mut attributes);
        for attempt in 1..=MAX_ATTEMPTS {
            let Some(mut proposal) = self
                .propose(input.clone(), attributes.clone(), secrets, captured)
                .await?
            else {
                return Ok(AddOutcome {
                    changeset: None,
                    status: AddStatus::Noop,
                    warnings: Vec::new(),
                    memory_ids: Vec::new(),
                });
            };
            if captured && proposal.llm_failed() {
                let provider = self.inner.llm.as_ref().map_or_else(|| "llm".to_owned(), |l| l.id());
                let why = proposal.warnings.join("; ");
                let message =
                    format!("the LLM could not read the captured conversation, so nothing of it was stored: {why}");
                return Err(crate::error::provider::ProviderError::new(
                    provider,
                    crate::error::provider::ProviderErrorKind::BadAnswer,
                    message,
                )
                .into());
            }
            let commit_now = self.commits_without_review(&mut proposal);
            let noop = proposal.is_noop();
            let warnings = proposal.warnings.clone();
            let last = attempt == MAX_ATTEMPTS;
            let stored = self.store_proposal(proposal, commit_now, DecidedBy::Auto, last).await?;
            match stored.outcome(noop, warnings) {
                Some(outcome) => return Ok(outcome),
                None => {
                    // Another writer is busy with the same memories: let it finish.
                    let pause = rand::random_range(10..50u64) * attempt as u64;
                    tokio::time::sleep(std::time::Duration::from_millis(pause)).await;
                }
            }
        }
        Err(Error::Internal("a write conflict was not resolved".into()))
    }

    /// Whether the review policy lets `proposal` be committed without a person, with a
    /// warning for each reason it waits: hostile text, a secret under `secrets.policy =
    /// hold`, or a pinned memory it would set aside (which waits for a person under every
    /// policy).
    pub(crate) fn commits_without_review(&self, proposal: &mut Proposal) -> bool {
        let pinned = proposal.replaces_pinned();
        let secret_policy = self.inner.settings.secrets.policy;
        let held_for_secrets = secret_policy == SecretPolicy::Hold && !proposal.secrets.is_empty();
        let commit_now = pinned.is_empty()
            && !held_for_secrets
            && match self.inner.settings.review {
                ReviewPolicy::Auto => true,
                ReviewPolicy::Review => false,
                ReviewPolicy::Guarded => proposal.is_safe(),
            };
        if !proposal.secrets.is_empty() {
            let warning = secret_policy.warning(&proposal.secrets, !commit_now);
            proposal.warnings.push(warning);
        }
        if !proposal.hostile.is_empty() {
            let warning = crate::safety::warning(&proposal.hostile, !commit_now);
            proposal.warnings.push(warning);
        }
        if !pinned.is_empty() {
            let ids: Vec<String> = pinned.iter().map(ToString::to_string).collect();
            proposal.warnings.push(format!(
                "it would replace or rewrite pinned memory {}: a pinned memory changes only with a person's approval",
                ids.join(", ")
            ));
        }
        commit_now
    }

    /// Runs the pipeline up to a proposal. `None` when there is nothing to add.
    /// `secrets`: those already replaced in `input` and `attributes`.
    pub(crate) async fn propose(
        &self,
        input: AddInput,
        attributes: MemoryAttributes,
        secrets: SecretTally,
        captured: bool,
    ) -> Result<Option<Proposal>> {
        let budget = std::time::Duration::from_secs(self.inner.settings.llm.add_deadline_secs);
        let llm = self
            .inner
            .llm
            .clone()
            .map(|llm| Arc::new(crate::provider::WithDeadline::new(llm, budget)) as Arc<dyn crate::provider::Llm>);
        let mut proposal = Proposal {
            attributes,
            secrets,
            ..Proposal::default()
        };
        let split_short = captured || self.inner.settings.llm.split_short_texts;
        if pipeline::normalise(llm.as_deref(), input, split_short, &mut proposal)
            .await
            .is_none()
        {
            return Ok(None);
        }
        // Stored first and embedded later: related memories are found by words.
        if self.embeds_later()
            && let Some(error) = self.deferred_error()
        {
            proposal.warnings.push(format!(
                "the embedder is not answering ({error}): the memories are stored and found by words until it answers and their vectors are made"
            ));
        }
        if let Some(embedder) = self.inner.embedder.as_ref().filter(|_| !self.embeds_later()) {
            let embedded = match embedder.embed_query(&proposal.inputs).await {
                Ok(vectors) => check_embeddings(&embedder.id(), vectors, proposal.inputs.len(), embedder.dims()),
                Err(e) => Err(e),
            };
            match embedded {
                Ok(vectors) => proposal.query_vectors = Some(vectors),
                // Nothing given is dropped for want of vectors: related memories are found
                // by words, and the new ones get their vectors when the embedder answers.
                Err(e) => proposal.warnings.push(embedder_down(&e)),
            }
        }
        let inputs = proposal.inputs.clone();
        let query_vectors = proposal.query_vectors.clone();
        let user = proposal.attributes.user_id.clone();
        let (found, core_text, locked) = self
            .blocking(move |inner| {
                let found = inner.store.read(|store| {
                    related::lookup(
                        store,
                        &inputs,
                        query_vectors.as_deref(),
                        inner.settings.merge,
                        user.as_deref(),
                    )
                })?;
                let core_text = inner.store.read_core()?;
                let locked = inner.store.read(|c| c.core().locks())?;
                Ok((found, core_text, locked))
            })
            .await?;
        proposal.related = found.iter().map(|f| f.item.clone()).collect();
        proposal.pinned = found
            .iter()
            .filter(|f| f.pinned)
            .map(|f| f.item.memory_id.clone())
            .collect();
        pipeline::reconstruct(llm.as_deref(), &found, &core_text, &mut proposal).await;
        proposal.assign_attributes(&found);
        // The core profile is shared by a store's users: what one user's add learns stays
        // with their memories.
        if self.user().is_none() {
            let locked: Vec<_> = locked.into_iter().collect();
            pipeline::update_core(llm.as_deref(), &core_text, &locked, &mut proposal).await;
        }
        proposal.redact_secrets();
        proposal.screen();
        Ok(Some(proposal))
    }

    /// Embeds the texts of new memories as documents (nothing for a lexical-only store).
    pub(crate) async fn document_vectors(&self, texts: Vec<String>) -> Result<HashMap<String, Vec<f32>>> {
        self.document_vectors_with_progress(texts, |_, _| {}).await
    }

    /// [`Memory::document_vectors`], calling `progress(done, total)` after each request.
    pub(crate) async fn document_vectors_with_progress(
        &self,
        texts: Vec<String>,
        mut progress: impl FnMut(usize, usize) + Send,
    ) -> Result<HashMap<String, Vec<f32>>> {
        let Some(embedder) = &self.inner.embedder else {
            return Ok(HashMap::new());
        };
        let mut out = HashMap::with_capacity(texts.len());
        // Providers cap a request (Gemini at 100 texts, OpenAI at 2048): large imports go in parts.
        for chunk in texts.chunks(EMBED_REQUEST_MAX) {
            let vectors = embedder.embed_document(chunk).await?;
            let vectors = check_embeddings(&embedder.id(), vectors, chunk.len(), embedder.dims())?;
            out.extend(chunk.iter().cloned().zip(vectors));
            progress(out.len(), texts.len());
        }
        Ok(out)
    }

    /// The vectors of new memories; none when the embedder fails (the memories are kept
    /// and get them later: the store is marked as behind), with a warning saying so.
    pub(crate) async fn vectors_or_later(
        &self,
        texts: Vec<String>,
        warnings: &mut Vec<String>,
    ) -> HashMap<String, Vec<f32>> {
        if self.embeds_later() {
            return HashMap::new();
        }
        match self.document_vectors(texts).await {
            Ok(vectors) => {
                self.catch_up_vectors().await;
                vectors
            }
            Err(e) => {
                let warning = embedder_down(&e);
                if !warnings.contains(&warning) {
                    warnings.push(warning);
                }
                HashMap::new()
            }
        }
    }

    /// Gives memories written while the embedder was down their vectors, now that it
    /// answers; an error leaves them for the next time.
    async fn catch_up_vectors(&self) {
        let Some(embedder) = self.inner.embedder.clone() else {
            return;
        };
        let store = Arc::clone(&self.inner.store);
        let behind = self
            .blocking(|inner| inner.store.read(|r| r.meta(MetaKey::VectorsBehind)))
            .await
            .ok()
            .flatten()
            .is_some();
        if behind {
            let _ = crate::maintenance::fill_missing(&store, embedder, |_| {}).await;
        }
    }

    /// Stores a proposal as a changeset and commits it now (as decided by `decided_by`) or
    /// leaves it pending. On a conflict with another writer it answers [`Stored::Conflict`]
    /// to be built again, or, on the `last_attempt`, stores it as stale.
    pub(crate) async fn store_proposal(
        &self,
        mut proposal: Proposal,
        commit_now: bool,
        decided_by: DecidedBy,
        last_attempt: bool,
    ) -> Result<Stored> {
        // The last screen before the store: nothing of a secret is written, whatever built
        // the proposal.
        proposal.redact_secrets();
        let texts = proposal
            .proposed
            .iter()
            .filter(|p| !p.kept)
            .map(|p| p.content.clone())
            .collect();
        let vectors = if commit_now {
            self.vectors_or_later(texts, &mut proposal.warnings).await
        } else {
            HashMap::new()
        };
        let llm_id = self.inner.llm.as_ref().map(|l| l.id());
        let embedder_id = self.inner.embedder.as_ref().map(|e| e.id());
        let stored = self
            .blocking(move |inner| {
                let stored = inner.store.write(|tx| {
                    let conflict = if commit_now {
                        conflict(tx, inner, &proposal)?
                    } else {
                        None
                    };
                    if conflict.is_some() && !last_attempt {
                        return Ok((Stored::Conflict, None));
                    }
                    if conflict.is_some() {
                        let (id, ids) = insert_proposal(tx, &proposal, ChangesetStatus::Stale, llm_id, embedder_id)?;
                        return Ok((Stored::Stale(id, ids), None));
                    }
                    let (id, ids) = insert_proposal(tx, &proposal, ChangesetStatus::Pending, llm_id, embedder_id)?;
                    if !commit_now {
                        return Ok((Stored::Pending(id, ids), None));
                    }
                    let core = apply::commit(tx, id, decided_by, &vectors)?;
                    Ok((Stored::Committed(id, ids), core))
                })?;
                if let (Stored::Committed(..), Some(content)) = &stored {
                    core_write::finish_write(&inner.store, content)?;
                }
                Ok(stored.0)
            })
            .await?;
        if matches!(stored, Stored::Committed(..)) && self.embeds_later() {
            self.catch_up_in_background();
        }
        Ok(stored)
    }
}

/// The warning of an add made while the embedder failed.
fn embedder_down(error: &dyn std::fmt::Display) -> String {
    format!(
        "the embedder failed ({error}): related memories were found by words, and the new memories get their vectors when it answers again"
    )
}

/// Whether what the proposal was built on changed meanwhile: a related memory is no
/// longer active (another writer merged it) or core.md changed. A memory that another
/// writer added meanwhile is no conflict: nothing is lost, and the next add that finds
/// both merges them.
fn conflict(tx: &dyn Writer, inner: &Inner, proposal: &Proposal) -> Result<Option<String>> {
    for related in &proposal.related {
        if tx
            .memories()
            .by_id(&related.memory_id)?
            .is_none_or(|(_, m)| m.status != MemoryStatus::Active)
        {
            return Ok(Some(format!(
                "related memory {} changed while the changeset was built",
                related.memory_id
            )));
        }
    }
    if let Some(before) = &proposal.core_before
        && &inner.store.read_core()? != before
    {
        return Ok(Some("core.md changed while the changeset was built".into()));
    }
    Ok(None)
}

/// Stores a proposal as a changeset with `status`, its new memories as pending rows;
/// returns the changeset's id and those of its new memories.
pub(crate) fn insert_proposal(
    tx: &dyn Writer,
    proposal: &Proposal,
    status: ChangesetStatus,
    llm: Option<String>,
    embedder: Option<String>,
) -> Result<(ChangesetId, Vec<MemoryId>)> {
    let mut proposed = proposal.proposed.clone();
    for item in proposed.iter_mut().filter(|p| !p.kept) {
        item.memory_id = Some(MemoryId::generate());
    }
    let changeset = Changeset {
        id: ChangesetId::UNSAVED,
        kind: ChangesetKind::Add,
        status,
        outcome: proposal.outcome.unwrap_or(Outcome::NoLlm),
        created_at_ms: crate::types::now_ms(),
        decided_at_ms: None,
        decided_by: None,
        raw_input: proposal.raw_input.clone(),
        inputs: proposal.inputs.clone(),
        related: proposal.related.clone(),
        proposed,
        core_before: proposal.core_before.clone(),
        core_after: proposal.core_after.clone(),
        llm,
        embedder,
        llm_calls: proposal.llm_calls.clone(),
        warnings: proposal.warnings.clone(),
        reverts_id: None,
        reverted_by_id: None,
        forget: None,
        attributes: proposal.attributes.clone(),
        // The store records the agent key a handle writes for (`store::made_by`).
        agent_key: None,
    };
    let id = tx.changesets_mut().insert(&changeset)?;
    insert_pending_rows(tx, id, &changeset)?;
    let ids = changeset.added().filter_map(|p| p.memory_id.clone()).collect();
    Ok((id, ids))
}

/// Inserts the pending memory rows of a changeset's new memories.
pub(crate) fn insert_pending_rows(tx: &dyn Writer, id: ChangesetId, changeset: &Changeset) -> Result<()> {
    let ts = crate::types::now_ms();
    for item in changeset.added() {
        if let Some(memory_id) = &item.memory_id {
            tx.memories_mut().insert(
                memory_id,
                &item.content,
                MemoryStatus::Pending,
                ts,
                id,
                &item.attributes,
            )?;
        }
    }
    Ok(())
}
