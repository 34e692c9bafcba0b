//! Reviewing an agent's forget request: what approving it would remove, worked out when it
//! is asked for (the store may have changed since the agent asked), from the same request
//! the approval carries out.

use super::Memory;
use crate::error::Result;
use crate::types::{Changeset, ChangesetId, ChangesetKind, ChangesetStatus, ForgetRequest, PendingForget};

impl Memory {
    /// What approving pending forget request `id` would remove now: the phrase asked for,
    /// the memories, the agent state keys removed whole and the values blanked, and the
    /// changes and core.md versions whose text is blanked. `None` when `id` is no pending
    /// forget request. Every surface shows this before a person approves one.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> { let dir = tempfile::tempdir()?;
    /// # let settings = haema_core::Settings { review: haema_core::ReviewPolicy::Review, ..Default::default() };
    /// # let memory = haema_core::Memory::open_with(dir.path(), settings, None, None).await?;
    /// use haema_core::ForgetRequest;
    /// memory.set_agent_state("planner", "task", "ship v2".into()).await?;
    /// let asked = memory.request_forget(ForgetRequest { mentioning: Some("planner".into()), ..Default::default() }).await?;
    /// let pending = memory.pending_forget(asked.id).await?.ok_or("not a pending forget")?;
    /// assert_eq!(pending.mentioning.as_deref(), Some("planner"));
    /// assert_eq!(pending.plan.agent_state_removed[0].key, "task"); // approving removes it
    /// assert!(pending.summary().starts_with("forget “planner”: 0 memories, 1 agent-state key removed"));
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::NotFound`](crate::Error::NotFound) for an unknown changeset.
    pub async fn pending_forget(&self, id: ChangesetId) -> Result<Option<PendingForget>> {
        let changeset = self.changeset(id).await?;
        if changeset.kind != ChangesetKind::Forget || changeset.status != ChangesetStatus::Pending {
            return Ok(None);
        }
        let request = forget_request_of(&changeset);
        let plan = self.plan_forget(request.clone(), Some(id)).await?;
        Ok(Some(PendingForget {
            changeset: id,
            mentioning: request.mentioning,
            memory_ids: request.memory_ids,
            plan,
        }))
    }
}

/// The request a pending forget changeset carries out when approved: the memories it names
/// and the phrase asked for.
pub(super) fn forget_request_of(changeset: &Changeset) -> ForgetRequest {
    ForgetRequest {
        memory_ids: changeset.related.iter().map(|r| r.memory_id.clone()).collect(),
        mentioning: changeset.forget.as_ref().and_then(|f| f.mentioning.clone()),
    }
}
