//! Runs effects against `haema-core` on the async runtime, off the UI thread, and turns
//! the results into messages for the app.

use std::path::Path;

use haema_core::{Error, ForgetRequest, LatestOptions, Memory};

use super::app::{Effect, Msg, StoreEntry, Undo, describe_add, describe_forget};

fn failed(what: &str, error: &Error) -> Msg {
    let error = match crate::remedy::tui(error) {
        Some(next) => format!("{error}; {next}"),
        None => error.to_string(),
    };
    Msg::Failed {
        what: what.to_owned(),
        error,
    }
}

/// Performs one effect. Effects that need the terminal or replace the store
/// (`EditExternal`, `SwitchStore`) are the runtime's, not this function's.
pub async fn perform(memory: &Memory, effect: Effect) -> Vec<Msg> {
    let result = run(memory, effect).await;
    match result {
        Ok(msgs) => msgs,
        // What the view showed changed under it: say so and show the store as it is now.
        Err((what, error @ (Error::Stale(_) | Error::NotFound(_)))) => vec![failed(what, &error), Msg::StoreChanged],
        Err((what, e)) => vec![failed(what, &e)],
    }
}

type Outcome = Result<Vec<Msg>, (&'static str, Error)>;

fn tag(what: &'static str) -> impl FnOnce(Error) -> (&'static str, Error) {
    move |e| (what, e)
}

async fn run(memory: &Memory, effect: Effect) -> Outcome {
    Ok(match effect {
        Effect::LoadInfo => vec![Msg::Info(Box::new(
            memory.info().await.map_err(tag("reading the store"))?,
        ))],
        Effect::LoadLatest { after, limit } => {
            let append = after.is_some();
            let page = match after {
                Some(after) => LatestOptions::after(&after),
                None => LatestOptions::default(),
            };
            let records = memory
                .latest_records(i64::try_from(limit).unwrap_or(i64::MAX), &page)
                .await
                .map_err(tag("loading latest"))?;
            vec![Msg::Latest { append, records, limit }]
        }
        Effect::LoadLineage(id) => vec![Msg::Lineage(Box::new(
            memory.lineage(&id).await.map_err(tag("loading the lineage"))?,
        ))],
        Effect::Search {
            generation,
            query,
            mode,
        } => {
            let results = memory
                .search_records(&query, super::app::HITS, mode)
                .await
                .map_err(tag("search"))?;
            let core = memory.core_sections().await.map_err(tag("reading core.md"))?;
            let lines = haema_core::review::profile_lines(&core, &query, super::app::PROFILE_LINES);
            vec![
                Msg::SearchDone { generation, results },
                Msg::ProfileLines { generation, lines },
            ]
        }
        Effect::Recall {
            generation,
            query,
            budget,
        } => {
            let recall = memory.recall(&query, budget).await.map_err(tag("recall"))?;
            vec![Msg::RecallDone { generation, recall }]
        }
        Effect::LoadCore => {
            let sections = memory.core_sections().await.map_err(tag("reading core.md"))?;
            let locked = memory.locked_sections().await.map_err(tag("reading core.md"))?;
            vec![Msg::Core { sections, locked }]
        }
        Effect::SaveSection { section, text } => {
            let before = current_core_version(memory).await?;
            let version = memory
                .set_core_section(section, &text)
                .await
                .map_err(tag("saving the section"))?;
            undoable(
                format!("saved {section} (core version {version})"),
                before.map(|v| Undo::new(format!("the edit of {section}"), Effect::RestoreCoreVersion(v))),
            )
        }
        Effect::SetLock { section, locked } => {
            memory.set_section_lock(section, locked).await.map_err(tag("locking"))?;
            let (word, what) = if locked {
                ("locked: the LLM will not change it", "the lock")
            } else {
                ("unlocked", "the unlock")
            };
            let undo = Undo::new(
                format!("{what} of {section}"),
                Effect::SetLock {
                    section,
                    locked: !locked,
                },
            );
            undoable(format!("{section} {word}"), Some(undo))
        }
        Effect::LoadCoreVersions => vec![Msg::CoreVersions(
            memory.core_versions().await.map_err(tag("reading core versions"))?,
        )],
        Effect::RestoreCoreVersion(id) => {
            let before = current_core_version(memory).await?;
            let new = memory.restore_core_version(id).await.map_err(tag("restoring"))?;
            undoable(
                format!("core.md is version {id} again (as version {new})"),
                before.map(|v| Undo::new("the restore of core.md", Effect::RestoreCoreVersion(v))),
            )
        }
        Effect::LoadReview => {
            let items = memory.awaiting_review().await.map_err(tag("loading the review"))?;
            let mut forgets = Vec::new();
            for c in items.iter().filter(|c| c.kind == haema_core::ChangesetKind::Forget) {
                forgets.extend(
                    memory
                        .pending_forget(c.id)
                        .await
                        .map_err(tag("working out what a forget request removes"))?,
                );
            }
            vec![Msg::Review(items, forgets)]
        }
        Effect::Approve(id) => {
            let approved = memory.approve(id).await.map_err(tag("approve"))?;
            if approved.kind == haema_core::ChangesetKind::Forget {
                vec![Msg::Done(describe_forget(&approved))]
            } else {
                undoable(
                    format!("approved changeset #{id}"),
                    revert_undo(&approved, "the approval"),
                )
            }
        }
        Effect::ApproveEdited { id, memories } => {
            let approved = memory.approve_edited(id, memories).await.map_err(tag("approve"))?;
            undoable(
                format!("approved changeset #{id} as you edited it"),
                revert_undo(&approved, "the approval"),
            )
        }
        Effect::Reject(id) => {
            memory.reject(id).await.map_err(tag("reject"))?;
            undoable(
                format!("rejected changeset #{id}; nothing of it was applied"),
                Some(Undo::new(format!("the rejection of #{id}"), Effect::Reopen(id))),
            )
        }
        Effect::Reopen(id) => {
            memory.reopen(id).await.map_err(tag("reopen"))?;
            undoable(
                format!("changeset #{id} waits in Review again"),
                Some(Undo::new(format!("the reopening of #{id}"), Effect::Reject(id))),
            )
        }
        Effect::ApproveAll(ids) => {
            let (mut approved, mut stale) = (Vec::new(), Vec::new());
            for id in ids {
                match memory.approve(id).await {
                    Ok(c) if c.status == haema_core::ChangesetStatus::Committed => approved.push(id),
                    Ok(_) => {}
                    Err(Error::Stale(id)) => stale.push(format!("#{id}")),
                    Err(e) => return Err(("approve all", e)),
                }
            }
            let mut message = format!("approved {}", approved.len());
            if !stale.is_empty() {
                message.push_str(&format!("; stale, re-run them: {}", stale.join(", ")));
            }
            // Undone newest first.
            approved.reverse();
            let undo = (!approved.is_empty()).then(|| {
                Undo::new(
                    format!("approving {} changesets", approved.len()),
                    Effect::RevertAll(approved),
                )
            });
            undoable(message, undo)
        }
        Effect::Rerun(id) => {
            let outcome = memory.rerun(id).await.map_err(tag("re-run"))?;
            undoable(
                format!("re-ran #{id}: {}", describe_add(&outcome)),
                outcome_undo(&outcome, "the re-run"),
            )
        }
        Effect::LoadHistory { before, limit } => {
            let page = memory
                .changeset_summaries(before, limit)
                .await
                .map_err(tag("loading the history"))?;
            vec![Msg::History {
                append: before.is_some(),
                page,
                limit,
            }]
        }
        Effect::LoadChangeset(id) => vec![Msg::Changeset(Box::new(
            memory.changeset(id).await.map_err(tag("loading the changeset"))?,
        ))],
        Effect::Revert(id) => {
            let revert = memory.revert(id).await.map_err(tag("revert"))?;
            // A revert that could not take back all of the change says what stayed.
            let mut message = format!("reverted changeset #{id} with changeset #{}", revert.id);
            if !revert.warnings.is_empty() {
                message = format!("{message}, but not all of it: {}", revert.warnings.join("; "));
            }
            undoable(message, revert_undo(&revert, &format!("the revert of #{id}")))
        }
        Effect::RevertAll(ids) => {
            let mut reverts = Vec::new();
            let mut warnings = Vec::new();
            for id in &ids {
                let revert = memory.revert(*id).await.map_err(tag("undo"))?;
                warnings.extend(revert.warnings.iter().cloned());
                reverts.push(revert.id);
            }
            let mut message = format!("reverted {} changesets", ids.len());
            if !warnings.is_empty() {
                message = format!("{message}, but not all of them: {}", warnings.join("; "));
            }
            reverts.reverse();
            undoable(
                message,
                Some(Undo::new(
                    format!("the revert of {} changesets", ids.len()),
                    Effect::RevertAll(reverts),
                )),
            )
        }
        Effect::PlanForget(id) => {
            let request = ForgetRequest {
                memory_ids: vec![id.clone()],
                mentioning: None,
            };
            let plan = memory.forget_plan(request).await.map_err(tag("forget"))?;
            vec![Msg::ForgetPlan {
                id,
                plan: Box::new(plan),
            }]
        }
        Effect::Forget(id) => {
            let request = ForgetRequest {
                memory_ids: vec![id],
                mentioning: None,
            };
            let receipt = memory.forget(request).await.map_err(tag("forget"))?;
            vec![Msg::Done(describe_forget(&receipt))]
        }
        Effect::DeleteMemory(id) => {
            let outcome = memory.delete_memory(&id).await.map_err(tag("delete"))?;
            undoable(
                describe_edit(&outcome, "deleted the memory"),
                outcome_undo(&outcome, "the delete"),
            )
        }
        Effect::UpdateMemory { id, text } => {
            let outcome = memory.update_memory(&id, &text).await.map_err(tag("edit"))?;
            undoable(
                describe_edit(&outcome, "changed the memory"),
                outcome_undo(&outcome, "the edit"),
            )
        }
        Effect::UpdateAttributes { id, attributes } => {
            let outcome = memory
                .update_attributes(&id, attributes)
                .await
                .map_err(tag("change attributes"))?;
            undoable(
                describe_edit(&outcome, "changed the memory's attributes"),
                outcome_undo(&outcome, "the change of attributes"),
            )
        }
        Effect::SetPinned { id, pinned } => {
            memory.set_pinned(&id, pinned).await.map_err(tag("pin"))?;
            let (said, what) = if pinned {
                ("pinned: no change replaces it without your review", "the pin")
            } else {
                ("unpinned", "the unpin")
            };
            let undo = Undo::new(what, Effect::SetPinned { id, pinned: !pinned });
            undoable(said.to_owned(), Some(undo))
        }
        Effect::ListAgentKeys => vec![Msg::AgentKeys(
            memory.agent_keys().await.map_err(tag("reading the agent keys"))?,
        )],
        Effect::CreateAgentKey { name, access, expires } => {
            let made = memory
                .create_agent_key(&name, access, None, expires.as_deref())
                .await
                .map_err(tag("making the key"))?;
            vec![Msg::KeyMade(Box::new(made))]
        }
        Effect::RotateAgentKey(name) => vec![Msg::KeyMade(Box::new(
            memory.rotate_agent_key(&name).await.map_err(tag("rotating the key"))?,
        ))],
        Effect::RevokeAgentKey(name) => {
            let key = memory.revoke_agent_key(&name).await.map_err(tag("revoking the key"))?;
            vec![Msg::Done(format!(
                "{}'s key is {}: it no longer works (u undoes its changes)",
                key.name,
                key.state()
            ))]
        }
        Effect::UndoAgentKey(name) => {
            let undone = memory
                .undo_agent_key_changes(&name)
                .await
                .map_err(tag("undoing the agent's changes"))?;
            let mut said = format!(
                "{name}: {} changes reverted, {} proposals rejected",
                undone.reverted.len(),
                undone.rejected.len()
            );
            if let Some(first) = undone.kept.first() {
                said.push_str(&format!(
                    "; {} left as they are (#{}: {})",
                    undone.kept.len(),
                    first.changeset,
                    first.reason
                ));
            }
            match &undone.stopped {
                Some(error) => vec![Msg::Failed {
                    what: "undoing the agent's changes".to_owned(),
                    error: format!("{error}, after {said}; u goes on from there"),
                }],
                None => vec![Msg::Done(said)],
            }
        }
        Effect::ListStores => vec![Msg::Stores(list_stores(memory.dir()).await)],
        Effect::Add(text) => vec![Msg::Added(memory.add(text).await.map_err(tag("add"))?)],
        Effect::SwitchStore(_) | Effect::EditExternal { .. } | Effect::Quit => Vec::new(),
    })
}

/// The open store and every store folder (one with a `memory.db`) beside it.
pub async fn list_stores(open: &Path) -> Vec<StoreEntry> {
    let dirs = haema_core::store_folders_beside(open);
    let mut out = Vec::with_capacity(dirs.len());
    for dir in dirs {
        let info = Memory::peek(&dir).await.map_err(|e| e.to_string());
        out.push(StoreEntry { dir, info });
    }
    out
}

/// The message of a write, with how z takes it back when it can be.
fn undoable(message: String, undo: Option<Undo>) -> Vec<Msg> {
    vec![match undo {
        Some(undo) => Msg::Undoable { message, undo },
        None => Msg::Done(message),
    }]
}

/// The undo of a change that is now committed: its revert (`what`: "the approval").
fn revert_undo(changeset: &haema_core::Changeset, what: &str) -> Option<Undo> {
    (changeset.status == haema_core::ChangesetStatus::Committed)
        .then(|| Undo::new(format!("{what} of #{}", changeset.id), Effect::Revert(changeset.id)))
}

/// The undo of a person's edit: its revert once committed; its rejection while it waits
/// for review (a pinned memory's change does).
fn outcome_undo(outcome: &haema_core::AddOutcome, what: &str) -> Option<Undo> {
    let id = outcome.changeset?;
    match outcome.status {
        haema_core::AddStatus::Committed => Some(Undo::new(format!("{what} (#{id})"), Effect::Revert(id))),
        haema_core::AddStatus::Pending => Some(Undo::new(
            format!("{what} waiting in Review (#{id})"),
            Effect::Reject(id),
        )),
        _ => None,
    }
}

/// The newest core.md version (what an edit of core.md is undone back to).
async fn current_core_version(memory: &Memory) -> Result<Option<haema_core::CoreVersionId>, (&'static str, Error)> {
    Ok(memory
        .core_versions()
        .await
        .map_err(tag("reading core versions"))?
        .iter()
        .map(|v| v.id)
        .max())
}

/// The status line after a direct edit: what was done and how to undo it.
fn describe_edit(outcome: &haema_core::AddOutcome, done: &str) -> String {
    match (outcome.status, outcome.changeset) {
        (haema_core::AddStatus::Noop, _) => "nothing changed: the memory already says that".to_owned(),
        (haema_core::AddStatus::Stale, Some(id)) => {
            format!("changeset #{id} is stale: {}", haema_core::STALE_EDIT_MEANING)
        }
        (_, Some(id)) => format!("{done} (changeset #{id})"),
        (_, None) => done.to_owned(),
    }
}
