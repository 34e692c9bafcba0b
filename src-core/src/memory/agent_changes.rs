//! What an agent did through its key, and undoing it: every changeset made through an agent
//! key records the key's name, so a person who revokes a key can list the agent's changes
//! and take them back in one step.

use super::Memory;
use crate::error::{Error, Missing, Result};
use crate::types::{AgentActivity, AgentUndo, ChangesetId, ChangesetSummary, KeptChange, UndoStep, checked_key_name};

/// Summaries read per page while counting or undoing.
const PAGE: usize = 200;

impl Memory {
    /// At most `limit` summaries of the changesets made through agent key `name`, older than
    /// `before` (from the newest when `None`), newest first; only this handle's user's when
    /// it works for one. In a store that keeps users apart, a handle that works for no user
    /// sees the changes of a key bound to a user as that user's. A revoked key's changes are
    /// listed too.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// use haema_core::{AgentAccess, KeyCheck};
    /// let made = memory.create_agent_key("notes-bot", AgentAccess::Write, None, None).await?;
    /// let KeyCheck::Valid(key) = memory.check_agent_key(&made.key).await? else { panic!() };
    /// memory.for_agent(&key)?.add("The user likes figs.").await?;
    /// memory.add("The user likes plums.").await?; // the person's own
    /// let by_bot = memory.agent_key_changesets("notes-bot", None, 50).await?;
    /// assert_eq!(by_bot.len(), 1);
    /// assert_eq!(by_bot[0].agent_key.as_deref(), Some("notes-bot"));
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::NotFound`] when the store has no key named `name`; [`Error::UserRequired`]
    /// in a store that keeps users apart, for a key bound to no user, from a handle that
    /// works for none.
    pub async fn agent_key_changesets(
        &self,
        name: &str,
        before: Option<ChangesetId>,
        limit: usize,
    ) -> Result<Vec<ChangesetSummary>> {
        let (name, handle) = self.for_key_changes(name).await?;
        handle
            .blocking(move |inner| {
                inner
                    .store
                    .read(|conn| conn.changesets().summaries(None, Some(&name), before, limit))
            })
            .await
    }

    /// Undoes what the agent holding key `name` did: each committed change is reverted,
    /// newest first (so a change it built on its own earlier one comes undone in order), and
    /// each proposal still waiting for review is rejected. A forget cannot be undone, and a
    /// memory another writer replaced since stays until that change is reverted: both are
    /// left as they are and listed with why. Revoke the key first, or the agent may keep
    /// writing. Only this handle's user's changes when it works for one.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// use haema_core::{AgentAccess, KeyCheck};
    /// let made = memory.create_agent_key("rogue", AgentAccess::Write, None, None).await?;
    /// let KeyCheck::Valid(key) = memory.check_agent_key(&made.key).await? else { panic!() };
    /// memory.for_agent(&key)?.add("The user hates the colour blue.").await?;
    /// memory.revoke_agent_key("rogue").await?;
    /// let undone = memory.undo_agent_key_changes("rogue").await?;
    /// assert_eq!((undone.reverted.len(), undone.kept.len()), (1, 0));
    /// assert!(memory.search("blue", 5).await?.is_empty());
    /// # Ok(()) }
    /// ```
    ///
    /// An error partway (a failed write, a full disk) stops the undo: the answer lists what
    /// was undone before it, which stays undone, and says what stopped it in
    /// [`AgentUndo::stopped`]; running it again goes on from there.
    ///
    /// # Errors
    /// [`Error::NotFound`] when the store has no key named `name`;
    /// [`Error::UserRequired`] as for [`Memory::agent_key_changesets`]; a database error
    /// before anything was undone.
    pub async fn undo_agent_key_changes(&self, name: &str) -> Result<AgentUndo> {
        let (_, handle) = self.for_key_changes(name).await?;
        let mut done = AgentUndo::default();
        let mut before = None;
        let stopped = loop {
            let page = match handle.agent_key_changesets(name, before, PAGE).await {
                Ok(page) => page,
                Err(e) => break Some(e),
            };
            let Some(last) = page.last() else { break None };
            before = Some(last.id);
            let mut failed = None;
            for change in page {
                if let Err(e) = handle.undo_one(&change, &mut done).await {
                    failed = Some(e);
                    break;
                }
            }
            if failed.is_some() {
                break failed;
            }
        };
        match stopped {
            Some(e) if done == AgentUndo::default() => Err(e),
            Some(e) => Ok(AgentUndo {
                stopped: Some(e.to_string()),
                ..done
            }),
            None => Ok(done),
        }
    }

    /// What the agent holding key `name` did, counted by what
    /// [`Memory::undo_agent_key_changes`] would do with each change; only this handle's
    /// user's changes when it works for one (see [`Memory::agent_key_changesets`]).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// use haema_core::{AgentAccess, KeyCheck};
    /// let made = memory.create_agent_key("helper", AgentAccess::Write, None, None).await?;
    /// let KeyCheck::Valid(key) = memory.check_agent_key(&made.key).await? else { panic!() };
    /// memory.for_agent(&key)?.add("The user's bike is green.").await?;
    /// let did = memory.agent_key_activity("helper").await?;
    /// assert_eq!((did.total(), did.committed, did.undoable()), (1, 1, 1));
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As for [`Memory::agent_key_changesets`].
    pub async fn agent_key_activity(&self, name: &str) -> Result<AgentActivity> {
        let mut activity = AgentActivity::default();
        let mut before = None;
        loop {
            let page = self.agent_key_changesets(name, before, PAGE).await?;
            let Some(last) = page.last() else { break };
            before = Some(last.id);
            page.iter().for_each(|change| activity.count(change));
        }
        Ok(activity)
    }

    /// Undoes one of the agent's changesets, noting what happened in `done`.
    async fn undo_one(&self, change: &ChangesetSummary, done: &mut AgentUndo) -> Result<()> {
        let keep = |reason: String| KeptChange {
            changeset: change.id,
            reason,
        };
        match UndoStep::of(change) {
            UndoStep::Reject => match self.reject(change.id).await {
                Ok(_) => done.rejected.push(change.id),
                // Decided meanwhile by someone else: left as they decided.
                Err(Error::WrongStatus { status, .. }) => {
                    done.kept.push(keep(format!("it was {status} meanwhile")));
                }
                Err(e) => return Err(e),
            },
            UndoStep::KeepForget => done.kept.push(keep(UndoStep::FORGET_KEPT.into())),
            UndoStep::Revert => match self.revert(change.id).await {
                Ok(_) => done.reverted.push(change.id),
                Err(e @ (Error::ReplacedSince { .. } | Error::WrongStatus { .. } | Error::InvalidState(_))) => {
                    done.kept.push(keep(e.to_string()));
                }
                Err(e) => return Err(e),
            },
            UndoStep::Nothing => {}
        }
        Ok(())
    }

    /// `name` as a key name, when the store has such a key (revoked ones too), and the
    /// handle its changes are read and undone through: this one, or, when this one works
    /// for no user of a store that keeps users apart, the key's user's.
    async fn for_key_changes(&self, name: &str) -> Result<(String, Self)> {
        let name = checked_key_name(name)?;
        let keys = self.agent_keys().await?;
        let key = keys
            .iter()
            .find(|k| k.name == name)
            .ok_or_else(|| Error::NotFound(Missing::AgentKey(name.clone())))?;
        let handle = match (key.user_id.as_deref(), self.user()) {
            (Some(user), _) if self.requires_user() => self.for_user(user)?,
            // Its changes are its user's: this handle would see none and say so wrongly.
            (Some(user), Some(mine)) if user != mine => {
                return Err(Error::InvalidArgument(format!(
                    "agent key {name} works for user `{user}`, not `{mine}`: its changes are `{user}`'s, so ask as `{user}`"
                )));
            }
            _ => self.clone(),
        };
        Ok((name, handle))
    }
}
