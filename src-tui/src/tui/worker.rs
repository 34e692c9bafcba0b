//! Runs effects against `haema-core` on the async runtime, off the UI thread, and turns
//! the results into messages for the app.

use std::path::Path;

use haema_core::{Error, ForgetRequest, Memory};

use super::app::{Effect, Msg, StoreEntry, describe_add, describe_forget};

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
        Effect::LoadInfo => vec![Msg::Info(memory.info().await.map_err(tag("reading the store"))?)],
        Effect::LoadLatest { after, limit } => {
            let append = after.is_some();
            let records = match after {
                Some(after) => memory.latest_after(&after, limit).await,
                None => {
                    memory
                        .get_latest_records(1, i64::try_from(limit).unwrap_or(i64::MAX))
                        .await
                }
            }
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
            vec![Msg::SearchDone { generation, results }]
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
            let version = memory
                .set_core_section(section, &text)
                .await
                .map_err(tag("saving the section"))?;
            vec![Msg::Done(format!("saved {section} (core version {version})"))]
        }
        Effect::SetLock { section, locked } => {
            memory.set_section_lock(section, locked).await.map_err(tag("locking"))?;
            let word = if locked {
                "locked: the LLM will not change it"
            } else {
                "unlocked"
            };
            vec![Msg::Done(format!("{section} {word}"))]
        }
        Effect::LoadCoreVersions => vec![Msg::CoreVersions(
            memory.core_versions().await.map_err(tag("reading core versions"))?,
        )],
        Effect::RestoreCoreVersion(id) => {
            let new = memory.restore_core_version(id).await.map_err(tag("restoring"))?;
            vec![Msg::Done(format!("restored version {id} as version {new}"))]
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
            memory.approve(id).await.map_err(tag("approve"))?;
            vec![Msg::Done(format!("approved changeset #{id}"))]
        }
        Effect::ApproveEdited { id, memories } => {
            memory.approve_edited(id, memories).await.map_err(tag("approve"))?;
            vec![Msg::Done(format!("approved changeset #{id} as you edited it"))]
        }
        Effect::Reject(id) => {
            memory.reject(id).await.map_err(tag("reject"))?;
            vec![Msg::Done(format!(
                "rejected changeset #{id}; nothing of it was applied"
            ))]
        }
        Effect::ApproveAll(ids) => {
            let (mut approved, mut stale) = (0, Vec::new());
            for id in ids {
                match memory.approve(id).await {
                    Ok(_) => approved += 1,
                    Err(Error::Stale(id)) => stale.push(format!("#{id}")),
                    Err(e) => return Err(("approve all", e)),
                }
            }
            let mut message = format!("approved {approved}");
            if !stale.is_empty() {
                message.push_str(&format!("; stale, re-run them: {}", stale.join(", ")));
            }
            vec![Msg::Done(message)]
        }
        Effect::Rerun(id) => {
            let outcome = memory.rerun(id).await.map_err(tag("re-run"))?;
            vec![Msg::Done(format!("re-ran #{id}: {}", describe_add(&outcome)))]
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
            vec![Msg::Done(format!(
                "reverted changeset #{id} with changeset #{}",
                revert.id
            ))]
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
            vec![Msg::Done(describe_edit(&outcome, "deleted the memory"))]
        }
        Effect::UpdateMemory { id, text } => {
            let outcome = memory.update_memory(&id, &text).await.map_err(tag("edit"))?;
            vec![Msg::Done(describe_edit(&outcome, "changed the memory"))]
        }
        Effect::UpdateAttributes { id, attributes } => {
            let outcome = memory
                .update_attributes(&id, attributes)
                .await
                .map_err(tag("change attributes"))?;
            vec![Msg::Done(describe_edit(&outcome, "changed the memory's attributes"))]
        }
        Effect::SetPinned { id, pinned } => {
            memory.set_pinned(&id, pinned).await.map_err(tag("pin"))?;
            let said = if pinned {
                "pinned: no change replaces it without your review"
            } else {
                "unpinned"
            };
            vec![Msg::Done(said.to_owned())]
        }
        Effect::ListStores => vec![Msg::Stores(list_stores(memory.dir()).await)],
        Effect::Add(text) => vec![Msg::Added(memory.add(text).await.map_err(tag("add"))?)],
        Effect::SwitchStore(_) | Effect::EditExternal { .. } => Vec::new(),
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

/// The status line after a direct edit: what was done and how to undo it.
fn describe_edit(outcome: &haema_core::AddOutcome, done: &str) -> String {
    match (outcome.status, outcome.changeset) {
        (haema_core::AddStatus::Noop, _) => "nothing changed: the memory already says that".to_owned(),
        (haema_core::AddStatus::Stale, Some(id)) => {
            format!("changeset #{id} is stale: the memory changed meanwhile")
        }
        (_, Some(id)) => format!("{done} (changeset #{id}; u in History undoes it)"),
        (_, None) => done.to_owned(),
    }
}
