//! Review: list, approve (optionally edited), reject, revert and re-run changesets.

use super::{Memory, apply, write};
use crate::error::{Error, Result};
use crate::error::{Missing, ReviewAction};
use crate::pipeline::{self, AddInput, Proposal, stages::normalize};
use crate::store::{Writer, core_write};
use crate::types::{
    AddOutcome, Changeset, ChangesetId, ChangesetKind, ChangesetStatus, CoreAuthor, DecidedBy, MemoryAttributes,
    MemoryId, MemoryStatus, Outcome, ProposedItem, RelatedItem,
};

impl Memory {
    /// One changeset.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// let id = memory.add("The user is vegetarian.").await?.changeset.ok_or("nothing added")?;
    /// let changeset = memory.changeset(id).await?;
    /// assert_eq!(changeset.proposed[0].content, "The user is vegetarian.");
    /// assert!(changeset.llm_calls.is_empty()); // no LLM: stored as given
    /// # Ok(()) }
    /// ```
    pub async fn changeset(&self, id: ChangesetId) -> Result<Changeset> {
        self.blocking(move |inner| {
            inner
                .store
                .read(|conn| conn.changesets().get(id))?
                .ok_or(Error::NotFound(Missing::Changeset(id)))
        })
        .await
    }

    /// Commits a pending changeset as proposed.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> { let dir = tempfile::tempdir()?;
    /// # let settings = haema_core::Settings { review: haema_core::ReviewPolicy::Review, ..Default::default() };
    /// # let memory = haema_core::Memory::open_with(dir.path(), settings, None, None).await?;
    /// use haema_core::{AddStatus, ChangesetStatus};
    /// let outcome = memory.add("The user is allergic to peanuts.").await?;
    /// assert_eq!(outcome.status, AddStatus::Pending); // the `review` policy holds every change
    /// assert!(memory.search("peanuts", 5).await?.is_empty()); // not a memory yet
    /// let waiting = memory.pending().await?;
    /// let approved = memory.approve(waiting[0].id).await?;
    /// assert_eq!(approved.status, ChangesetStatus::Committed);
    /// assert_eq!(memory.search("peanuts", 5).await?.len(), 1);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::Stale`] (and the changeset is marked `stale`) when a related memory is no
    /// longer active or core.md changed since the changeset was made.
    pub async fn approve(&self, id: ChangesetId) -> Result<Changeset> {
        let changeset = self.changeset(id).await?;
        expect_status(&changeset, &[ChangesetStatus::Pending], ReviewAction::Approve)?;
        if changeset.kind == ChangesetKind::Forget {
            return self.approve_forget(changeset).await;
        }
        let texts = changeset.added().map(|p| p.content.clone()).collect();
        let vectors = self.vectors_or_later(texts, &mut Vec::new()).await;
        let stale = self
            .blocking(move |inner| {
                let outcome = inner.store.write(|tx| {
                    let current = changeset_in(tx, id, &[ChangesetStatus::Pending], ReviewAction::Approve)?;
                    if let Some(reason) = apply::staleness(tx, &inner.store, &current)? {
                        tx.changesets_mut().decide(
                            id,
                            ChangesetStatus::Stale,
                            DecidedBy::Check,
                            crate::types::now_ms(),
                        )?;
                        let mut warnings = current.warnings.clone();
                        warnings.push(format!("marked stale: {reason}"));
                        tx.changesets_mut().set_warnings(id, &warnings)?;
                        return Ok(Err(()));
                    }
                    Ok(Ok(apply::commit(tx, id, DecidedBy::User, &vectors)?))
                })?;
                match outcome {
                    Ok(Some(content)) => core_write::finish_write(&inner.store, &content).map(|()| false),
                    Ok(None) => Ok(false),
                    Err(()) => Ok(true),
                }
            })
            .await?;
        if !stale && self.embeds_later() {
            self.catch_up_in_background();
        }
        if stale {
            return Err(Error::Stale(id));
        }
        self.changeset(id).await
    }

    /// Replaces the proposed memories of a pending changeset with a person's version, then
    /// approves it. Items equal to a related memory keep that memory.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> { let dir = tempfile::tempdir()?;
    /// # let settings = haema_core::Settings { review: haema_core::ReviewPolicy::Review, ..Default::default() };
    /// # let memory = haema_core::Memory::open_with(dir.path(), settings, None, None).await?;
    /// # memory.add("The user likes tea").await?;
    /// let id = memory.pending().await?[0].id;
    /// memory.approve_edited(id, vec!["The user likes green tea.".to_string()]).await?;
    /// assert_eq!(memory.get_latest(1, 10).await?, ["The user likes green tea."]);
    /// # Ok(()) }
    /// ```
    pub async fn approve_edited(&self, id: ChangesetId, memories: Vec<String>) -> Result<Changeset> {
        let mut secrets = crate::secrets::SecretTally::default();
        let mut memories = normalize(memories);
        for (i, memory) in memories.iter().enumerate() {
            crate::limits::check_memory_size_of(memory, &format!("edited memory {}", i + 1))?;
        }
        memories.iter_mut().for_each(|m| secrets.string(m));
        let changeset = self.changeset(id).await?;
        expect_status(&changeset, &[ChangesetStatus::Pending], ReviewAction::Edit)?;
        not_a_forget(&changeset, ReviewAction::Edit)?;
        if memories.is_empty() && !changeset.related.is_empty() {
            return Err(Error::InvalidArgument(format!(
                "the edited version of changeset {id} is empty: approving it would set aside {} memories and add nothing; to keep them, reject the change",
                changeset.related.len()
            )));
        }
        if memories.is_empty() && changeset.core_after.is_none() {
            return Err(Error::InvalidArgument(format!(
                "the edited version of changeset {id} is empty: approving it would change nothing; write the memories to keep, one a line, or reject the change"
            )));
        }
        let mut proposal = Proposal {
            related: changeset
                .related
                .iter()
                .map(|r| RelatedItem {
                    kept: false,
                    ..r.clone()
                })
                .collect(),
            ..Proposal::default()
        };
        pipeline::remark(&mut proposal, memories);
        let (related, proposed) = (proposal.related, proposal.proposed);
        self.blocking(move |inner| {
            inner.store.write(|tx| {
                let mut current = changeset_in(tx, id, &[ChangesetStatus::Pending], ReviewAction::Edit)?;
                for old in current.added() {
                    if let Some((rowid, _)) = old
                        .memory_id
                        .as_ref()
                        .map(|m| tx.memories().by_id(m))
                        .transpose()?
                        .flatten()
                    {
                        tx.memories_mut().delete_pending(rowid)?;
                    }
                }
                let merged = attributes_replacing(tx, &related, &current.attributes)?;
                current.proposed = proposed
                    .into_iter()
                    .map(|p| {
                        if p.kept {
                            p
                        } else {
                            ProposedItem {
                                memory_id: Some(MemoryId::generate()),
                                attributes: merged.clone(),
                                ..p
                            }
                        }
                    })
                    .collect();
                current.related = related;
                tx.changesets_mut().write_proposed(id, &current.proposed)?;
                tx.changesets_mut().write_related_kept(id, &current.related)?;
                let mut warnings = current.warnings.clone();
                warnings.push("the proposed memories were edited by a person before approval".into());
                if !secrets.is_empty() {
                    warnings.push(crate::secrets::SecretPolicy::Redact.warning(&secrets, false));
                }
                tx.changesets_mut().set_warnings(id, &warnings)?;
                write::insert_pending_rows(tx, id, &current)
            })
        })
        .await?;
        self.approve(id).await
    }

    /// Declines a pending or stale changeset; nothing of it is applied. Its proposal stays
    /// in the history.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> { let dir = tempfile::tempdir()?;
    /// # let settings = haema_core::Settings { review: haema_core::ReviewPolicy::Review, ..Default::default() };
    /// # let memory = haema_core::Memory::open_with(dir.path(), settings, None, None).await?;
    /// use haema_core::ChangesetStatus;
    /// let id = memory.add("The user hates Mondays.").await?.changeset.ok_or("nothing added")?;
    /// assert_eq!(memory.reject(id).await?.status, ChangesetStatus::Rejected);
    /// assert_eq!(memory.reopen(id).await?.status, ChangesetStatus::Pending); // changed our mind
    /// # Ok(()) }
    /// ```
    pub async fn reject(&self, id: ChangesetId) -> Result<Changeset> {
        self.decline(id, DecidedBy::User, ReviewAction::Reject).await?;
        self.changeset(id).await
    }

    /// Marks a pending or stale changeset rejected by `by` and drops its pending rows.
    async fn decline(&self, id: ChangesetId, by: DecidedBy, action: ReviewAction) -> Result<()> {
        self.blocking(move |inner| {
            inner.store.write(|tx| {
                let mut current = changeset_in(tx, id, &[ChangesetStatus::Pending, ChangesetStatus::Stale], action)?;
                drop_pending_rows(tx, &current)?;
                if let Some(record) = current.forget.as_mut() {
                    // A declined forget keeps no copy of what it named.
                    record.mentioning = None;
                    for item in &mut current.related {
                        item.content.clear();
                    }
                    tx.changesets_mut().rewrite_text(&current)?;
                }
                tx.changesets_mut()
                    .decide(id, ChangesetStatus::Rejected, by, crate::types::now_ms())
            })
        })
        .await
    }

    /// Takes back a person's rejection: the changeset waits for review again, as it was
    /// (approving it still checks that what it was built on has not changed since). The
    /// example on [`Memory::reject`] reopens a changeset.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?;
    /// # let settings = haema_core::Settings { review: haema_core::ReviewPolicy::Review, ..Default::default() };
    /// # let memory = haema_core::Memory::open_with(dir.path(), settings, None, None).await?;
    /// use haema_core::ChangesetStatus;
    /// let id = memory.add("The user is vegetarian.").await?.changeset.ok_or("nothing added")?;
    /// memory.reject(id).await?;
    /// assert_eq!(memory.reopen(id).await?.status, ChangesetStatus::Pending); // the person changed their mind
    /// # Ok(()) }
    /// ```
    pub async fn reopen(&self, id: ChangesetId) -> Result<Changeset> {
        self.blocking(move |inner| {
            inner.store.write(|tx| {
                let current = changeset_in(tx, id, &[ChangesetStatus::Rejected], ReviewAction::Reopen)?;
                if current.decided_by != Some(DecidedBy::User) {
                    return Err(Error::ReplacedByRerun(id));
                }
                tx.changesets_mut().reopen(id)?;
                write::insert_pending_rows(tx, id, &current)
            })
        })
        .await?;
        self.changeset(id).await
    }

    /// Builds a stale (or pending) changeset again from its inputs against the memories as
    /// they are now; the old one is rejected. An agent's proposal, built again, still names
    /// the agent; it waits for review whatever the policy unless the agent's key still
    /// works with write access.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> { let dir = tempfile::tempdir()?;
    /// # let settings = haema_core::Settings { review: haema_core::ReviewPolicy::Review, ..Default::default() };
    /// # let memory = haema_core::Memory::open_with(dir.path(), settings, None, None).await?;
    /// # let id = memory.add("The user likes tea.").await?.changeset.ok_or("nothing added")?;
    /// let again = memory.rerun(id).await?; // built afresh; the old one is rejected
    /// assert_ne!(again.changeset, Some(id));
    /// # Ok(()) }
    /// ```
    pub async fn rerun(&self, id: ChangesetId) -> Result<AddOutcome> {
        let changeset = self.changeset(id).await?;
        expect_status(
            &changeset,
            &[ChangesetStatus::Pending, ChangesetStatus::Stale],
            ReviewAction::Rerun,
        )?;
        not_a_forget(&changeset, ReviewAction::Rerun)?;
        if matches!(changeset.outcome, Outcome::Edited | Outcome::Deleted) {
            return Err(Error::InvalidState(format!(
                "changeset {id} edits or deletes one memory, which changed since: it can only be rejected; make the change again on the memory as it is now"
            )));
        }
        self.decline(id, DecidedBy::Rerun, ReviewAction::Rerun).await?;
        let input = match changeset.raw_input {
            Some(text) => AddInput::Text(text),
            None => AddInput::Items(changeset.inputs),
        };
        // An agent's proposal stays the agent's (and waits for the person again unless the
        // agent may write).
        let builder = match changeset.agent_key.as_deref() {
            Some(agent) => self.rebuilding_for_agent(agent).await?,
            None => self.clone(),
        };
        builder.add_with(input, changeset.attributes).await
    }

    /// Undoes a committed changeset with a new changeset: the memories it made are
    /// superseded, the ones it replaced come back, and core sections it changed return to
    /// their old text where nobody changed them since.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// let added = memory.add("The user lives in Oslo.").await?;
    /// let undo = memory.revert(added.changeset.ok_or("nothing added")?).await?;
    /// assert_eq!(undo.reverts_id, added.changeset);
    /// assert!(memory.get_latest(1, 10).await?.is_empty());
    /// # Ok(()) }
    /// ```
    pub async fn revert(&self, id: ChangesetId) -> Result<Changeset> {
        let revert_id = self
            .blocking(move |inner| {
                let (revert_id, core) = inner.store.write(|tx| {
                    let target = tx
                        .changesets()
                        .get(id)?
                        .ok_or(Error::NotFound(Missing::Changeset(id)))?;
                    not_a_forget(&target, ReviewAction::Revert)?;
                    let plan = apply::revert_plan(tx, &target)?;
                    let mut warnings = Vec::new();
                    let core_now = core_write::sync_external(tx, &inner.store)?;
                    let core_after = match (&target.core_before, &target.core_after) {
                        (Some(before), Some(after)) => revert_core(&core_now, before, after, &mut warnings)?,
                        _ => None,
                    };
                    let ts = crate::types::now_ms();
                    let revert = Changeset {
                        related: plan
                            .hide
                            .iter()
                            .map(|(_, id, content)| RelatedItem {
                                memory_id: id.clone(),
                                content: content.clone(),
                                distance: None,
                                kept: false,
                            })
                            .collect(),
                        proposed: plan
                            .restore
                            .iter()
                            .map(|(_, id, content)| ProposedItem {
                                memory_id: Some(id.clone()),
                                content: content.clone(),
                                kept: false,
                                attributes: MemoryAttributes::default(),
                            })
                            .collect(),
                        core_before: core_after.as_ref().map(|_| core_now.clone()),
                        core_after: core_after.clone(),
                        warnings,
                        reverts_id: Some(id),
                        ..Changeset::decided(ChangesetKind::Revert, Outcome::Revert, DecidedBy::User, ts)
                    };
                    let revert_id = tx.changesets_mut().insert(&revert)?;
                    apply::apply_revert(tx, &plan, revert_id)?;
                    if let Some(after) = &core_after {
                        core_write::record_version(tx, after, CoreAuthor::User, Some(revert_id))?;
                    }
                    tx.changesets_mut().set_reverted_by(id, revert_id)?;
                    Ok((revert_id, core_after))
                })?;
                if let Some(content) = core {
                    core_write::finish_write(&inner.store, &content)?;
                }
                Ok(revert_id)
            })
            .await?;
        self.changeset(revert_id).await
    }
}

/// Refuses what cannot be done to a `forget`: it is carried out or declined, and what it
/// removed cannot come back.
fn not_a_forget(changeset: &Changeset, action: ReviewAction) -> Result<()> {
    if changeset.kind != ChangesetKind::Forget {
        return Ok(());
    }
    Err(Error::InvalidState(match action {
        ReviewAction::Revert => format!(
            "changeset {} forgot memories; what is forgotten cannot come back",
            changeset.id
        ),
        _ => format!(
            "changeset {} is a request to forget: it can only be approved or rejected, not {action}",
            changeset.id
        ),
    }))
}

/// The changeset `id` inside a write, when its status is one of `allowed`.
fn changeset_in(
    tx: &dyn Writer,
    id: ChangesetId,
    allowed: &[ChangesetStatus],
    action: ReviewAction,
) -> Result<Changeset> {
    let current = tx
        .changesets()
        .get(id)?
        .ok_or(Error::NotFound(Missing::Changeset(id)))?;
    expect_status(&current, allowed, action)?;
    Ok(current)
}

fn expect_status(changeset: &Changeset, allowed: &[ChangesetStatus], action: ReviewAction) -> Result<()> {
    if allowed.contains(&changeset.status) {
        return Ok(());
    }
    Err(Error::WrongStatus {
        changeset: changeset.id,
        status: changeset.status,
        action,
    })
}

fn drop_pending_rows(tx: &dyn Writer, changeset: &Changeset) -> Result<()> {
    for item in changeset.added() {
        if let Some((rowid, memory)) = item
            .memory_id
            .as_ref()
            .map(|m| tx.memories().by_id(m))
            .transpose()?
            .flatten()
            && memory.status == MemoryStatus::Pending
        {
            tx.memories_mut().delete_pending(rowid)?;
        }
    }
    Ok(())
}

/// Section-wise core revert: a section the changeset changed goes back to its old text if
/// it still holds the changeset's text; otherwise it is left and a warning says so.
fn revert_core(now: &str, before: &str, after: &str, warnings: &mut Vec<String>) -> Result<Option<String>> {
    use crate::types::Section;
    use crate::types::core_md::CoreSections;
    let (now_s, before_s, after_s) = (
        CoreSections::parse(now)?,
        CoreSections::parse(before)?,
        CoreSections::parse(after)?,
    );
    let mut result = now_s.clone();
    for section in Section::ALL {
        if before_s.get(section) == after_s.get(section) {
            continue;
        }
        if now_s.get(section) == after_s.get(section) {
            result.set(section, before_s.get(section))?;
        } else {
            warnings.push(format!(
                "core section {section} was changed again since, so it was not reverted"
            ));
        }
    }
    Ok((result != now_s).then(|| result.render()))
}

/// The attributes of new memories that replace the related memories not kept: `request`
/// merged with theirs, oldest first.
fn attributes_replacing(
    tx: &dyn Writer,
    related: &[RelatedItem],
    request: &MemoryAttributes,
) -> Result<MemoryAttributes> {
    let mut replaced = Vec::new();
    for item in related.iter().filter(|r| !r.kept) {
        if let Some((_, memory)) = tx.memories().by_id(&item.memory_id)? {
            replaced.push(memory);
        }
    }
    replaced.sort_by_key(|m| m.timestamp_ms);
    Ok(MemoryAttributes::merged(
        replaced.iter().map(|m| &m.attributes),
        request,
    ))
}
