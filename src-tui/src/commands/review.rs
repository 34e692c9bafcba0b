//! review list / show / approve / reject / rerun, history, revert.

use anyhow::Result;
use haema_core::review::diff::{self, Change};
use haema_core::{AddStatus, Changeset, ChangesetId, ChangesetSummary, Memory, PendingForget};
use serde_json::{Value, json};

use super::read_source;
use crate::cli::{HistoryArgs, ReviewCommand};
use crate::output::{self, one_line, print, utc};

fn status_name(changeset: &Changeset) -> String {
    serde_json::to_value(changeset.status)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// A changeset for scripts, with its inputs and items: `review list --json`, `history ID
/// --json`, `revert --json`.
fn detail(c: &Changeset) -> Value {
    json!({
        "id": c.id,
        "kind": c.kind,
        "status": c.status,
        "outcome": c.outcome,
        "created_at_ms": c.created_at_ms,
        "decided_at_ms": c.decided_at_ms,
        "decided_by": c.decided_by,
        "inputs": c.inputs,
        "related": c.related.iter().map(|r| json!({"id": r.memory_id, "content": r.content, "distance": r.distance, "kept": r.kept})).collect::<Vec<_>>(),
        "proposed": c.proposed.iter().map(|p| json!({"id": p.memory_id, "content": p.content, "kept": p.kept})).collect::<Vec<_>>(),
        "core_changed": c.core_after.is_some(),
        "warnings": c.warnings,
        "reverts": c.reverts_id,
        "reverted_by": c.reverted_by_id,
        "agent_key": c.agent_key,
    })
}

/// A changeset's JSON with, for a pending forget request, what approving it would remove
/// now under `pending_forget`.
fn with_forget(mut value: Value, forget: Option<&PendingForget>) -> Value {
    if let (Some(forget), Some(object)) = (forget, value.as_object_mut()) {
        object.insert("pending_forget".into(), json!(forget));
    }
    value
}

/// A changeset as text a person can review.
fn render(c: &Changeset) -> String {
    let mut out = format!(
        "changeset {} · {} · {} · {}\n{}\n",
        c.id,
        c.kind,
        status_name(c),
        utc(c.created_at_ms),
        c.outcome.describe()
    );
    if let Some(agent) = &c.agent_key {
        out.push_str(&format!("made by agent key {agent}\n"));
    }
    if let Some(by) = &c.decided_by {
        out.push_str(&format!("decided by {by}\n"));
    }
    if let Some(raw) = &c.raw_input {
        out.push_str(&format!("\ninput: {}\n", one_line(raw)));
    }
    out.push_str("\nrelated memories (− removed, = kept):\n");
    if c.related.is_empty() {
        out.push_str("  (none)\n");
    }
    for r in &c.related {
        let distance = r.distance.map(|d| format!("  [distance {d:.3}]")).unwrap_or_default();
        out.push_str(&format!(
            "  {} {}{distance}\n",
            if r.kept { "=" } else { "−" },
            one_line(&r.content)
        ));
    }
    out.push_str("\nproposed memories (+ new, = kept):\n");
    if c.proposed.is_empty() {
        out.push_str("  (none)\n");
    }
    for p in &c.proposed {
        out.push_str(&format!(
            "  {} {}\n",
            if p.kept { "=" } else { "+" },
            one_line(&p.content)
        ));
    }
    if let (Some(before), Some(after)) = (&c.core_before, &c.core_after) {
        out.push_str("\ncore.md change:\n");
        for piece in diff::lines(before, after) {
            let mark = match piece.change {
                Change::Same => ' ',
                Change::Removed => '-',
                Change::Added => '+',
            };
            out.push_str(&format!("  {mark} {}\n", piece.text));
        }
    }
    for w in &c.warnings {
        out.push_str(&format!("\nnote: {w}\n"));
    }
    out
}

pub async fn run(memory: &Memory, command: ReviewCommand) -> Result<()> {
    match command {
        ReviewCommand::List(flag) => {
            let pending = memory.pending().await?;
            let mut forgets = Vec::with_capacity(pending.len());
            for c in &pending {
                forgets.push(memory.pending_forget(c.id).await?);
            }
            if flag.json {
                let entries: Vec<Value> = pending
                    .iter()
                    .zip(&forgets)
                    .map(|(c, forget)| with_forget(detail(c), forget.as_ref()))
                    .collect();
                return output::json(&entries);
            }
            if pending.is_empty() {
                return print("No changesets wait for review.\n");
            }
            let text: String = pending
                .iter()
                .zip(&forgets)
                .map(|(c, forget)| {
                    // Which agent proposed it, as on history lines.
                    let via = c.agent_key.as_deref().map(|a| format!("  via {a}")).unwrap_or_default();
                    match forget {
                        Some(forget) => {
                            format!("{:>5}  {}{via}  {}\n", c.id, utc(c.created_at_ms), forget.summary())
                        }
                        None => format!(
                            "{:>5}  {}  −{} +{}{}{via}  {}\n",
                            c.id,
                            utc(c.created_at_ms),
                            c.removed().count(),
                            c.added().count(),
                            if c.core_after.is_some() { " core" } else { "" },
                            one_line(&c.inputs.join(" · "))
                        ),
                    }
                })
                .collect();
            print(&format!("{text}\nShow one with `haema review show ID`.\n"))
        }
        ReviewCommand::Show { id, json: as_json } => {
            let changeset = memory.changeset(id).await?;
            let forget = memory.pending_forget(id).await?;
            if as_json {
                output::json(&with_forget(serde_json::to_value(&changeset)?, forget.as_ref()))
            } else {
                let mut text = render(&changeset);
                if let Some(forget) = &forget {
                    text.push_str(&format!("\nIf approved now:\n{}", super::forget::pending_text(forget)));
                }
                print(&text)
            }
        }
        ReviewCommand::Approve { id, edited, yes } => {
            if edited.is_none() && !yes {
                confirm_approval(&memory.changeset(id).await?, memory.pending_forget(id).await?.as_ref())?;
            }
            let changeset = match edited {
                Some(path) => {
                    let lines: Vec<String> = read_source(&path)?.lines().map(str::to_owned).collect();
                    memory.approve_edited(id, lines).await?
                }
                None => memory.approve(id).await?,
            };
            if changeset.kind == haema_core::ChangesetKind::Forget {
                return print(&format!(
                    "Approved changeset {}. {}",
                    changeset.id,
                    super::forget::receipt_text(&changeset)
                ));
            }
            print(&format!(
                "Approved changeset {}: {} memories added, {} replaced{}.\n",
                changeset.id,
                changeset.added().count(),
                changeset.removed().count(),
                if changeset.core_after.is_some() {
                    ", core updated"
                } else {
                    ""
                }
            ))
        }
        ReviewCommand::Reject { id } => {
            memory.reject(id).await?;
            print(&format!("Rejected changeset {id}; nothing was changed.\n"))
        }
        ReviewCommand::Rerun { id } => {
            let outcome = memory.rerun(id).await?;
            let new = outcome
                .changeset
                .map_or_else(|| "nothing".to_owned(), |c| format!("changeset {c}"));
            let state = match outcome.status {
                AddStatus::Committed => "committed",
                AddStatus::Pending => "waiting for review",
                AddStatus::Noop => "no change",
                AddStatus::Stale => "stale again",
            };
            print(&format!("Re-ran changeset {id} as {new} ({state}).\n"))
        }
    }
}

/// Changeset summaries `haema history` reads per statement.
const HISTORY_PAGE: usize = 500;

/// A history list entry for scripts: the keys of [`detail`] that a summary can fill as
/// they are, and counts in place of the lists it does not load (`haema history ID --json`
/// prints those).
fn summary_json(s: &ChangesetSummary) -> Value {
    json!({
        "id": s.id,
        "kind": s.kind,
        "status": s.status,
        "outcome": s.outcome,
        "created_at_ms": s.created_at_ms,
        "decided_at_ms": s.decided_at_ms,
        "decided_by": s.decided_by,
        "first_inputs": s.first_inputs,
        "input_count": s.input_count,
        "removed": s.removed,
        "added": s.added,
        "core_changed": s.changes_core,
        "warning_count": s.warnings,
        "reverts": s.reverts_id,
        "reverted_by": s.reverted_by_id,
        "agent_key": s.agent_key,
    })
}

/// Asks before approving what removes without adding, or forgets: only with a terminal to
/// ask on, else `--yes` is needed.
fn confirm_approval(changeset: &Changeset, forget: Option<&PendingForget>) -> Result<()> {
    let mut shown = String::new();
    let question = if let Some(forget) = forget {
        shown = super::forget::pending_text(forget);
        format!(
            "Changeset {} would {} for good; this cannot be undone.",
            changeset.id,
            forget.summary()
        )
    } else if changeset.added().count() == 0 && changeset.removed().count() > 0 {
        format!(
            "Changeset {} adds nothing and sets aside {} memories.",
            changeset.id,
            changeset.removed().count()
        )
    } else {
        return Ok(());
    };
    super::confirm::confirm(&super::confirm::Question {
        shown: &shown,
        ask: &format!("{question} Approve it?"),
        without_terminal: &format!("{question} Pass --yes to approve it."),
        declined: "nothing was approved",
    })
}

/// One history line: id, time, kind, status, who decided, counts, the agent key that made
/// it, the first inputs.
pub(super) fn history_line(s: &ChangesetSummary) -> String {
    let by = s.decided_by.map_or("-", haema_core::DecidedBy::as_str);
    format!(
        "{:>5}  {}  {:<6} {:<9} by {:<5} −{} +{}{}{}  {}\n",
        s.id,
        utc(s.created_at_ms),
        s.outcome.what(s.kind),
        s.status.as_str(),
        by,
        s.removed,
        s.added,
        if s.changes_core { " core" } else { "" },
        s.agent_key.as_deref().map(|a| format!("  via {a}")).unwrap_or_default(),
        one_line(&output::inputs_line(&s.first_inputs, s.input_count))
    )
}

/// Reads the summaries of at most `limit` changesets (only those made through agent key
/// `made_by`, when given) older than `before` (from the newest when `None`), newest first, `page` at a time, and hands each page to `each`: no
/// changeset is loaded whole. Returns how many there were and the oldest one's id.
async fn summary_pages(
    memory: &Memory,
    made_by: Option<&str>,
    before: Option<ChangesetId>,
    limit: usize,
    page: usize,
    mut each: impl FnMut(&[ChangesetSummary]) -> Result<()>,
) -> Result<(usize, Option<ChangesetId>)> {
    let (mut oldest, mut shown) = (None, 0);
    while shown < limit {
        let (before, count) = (oldest.or(before), page.min(limit - shown));
        let summaries = match made_by {
            Some(agent) => memory.agent_key_changesets(agent, before, count).await?,
            None => memory.changeset_summaries(before, count).await?,
        };
        let Some(last) = summaries.last() else { break };
        oldest = Some(last.id);
        shown += summaries.len();
        each(&summaries)?;
    }
    Ok((shown, oldest))
}

/// `haema history`: every changeset (or `--limit` of them, older than `--before`), newest
/// first, one line each, read a page of summaries at a time; `haema history ID` shows one
/// changeset in full.
pub async fn history(memory: &Memory, args: HistoryArgs) -> Result<()> {
    if let Some(id) = args.id {
        let changeset = memory.changeset(id).await?;
        return if args.json {
            output::json(&detail(&changeset))
        } else {
            print(&render(&changeset))
        };
    }
    let limit = args.limit.unwrap_or(usize::MAX);
    if args.json {
        let mut entries = Vec::new();
        summary_pages(
            memory,
            args.agent_key.as_deref(),
            args.before,
            limit,
            HISTORY_PAGE,
            |page| {
                entries.extend(page.iter().map(summary_json));
                Ok(())
            },
        )
        .await?;
        return output::json(&entries);
    }
    let (shown, oldest) = summary_pages(
        memory,
        args.agent_key.as_deref(),
        args.before,
        limit,
        HISTORY_PAGE,
        |page| print(&page.iter().map(history_line).collect::<String>()),
    )
    .await?;
    match (shown, args.before, oldest) {
        (0, None, _) => print(&match &args.agent_key {
            Some(agent) => format!("Agent key {agent} has made no changes.\n"),
            None => "No changesets yet.\n".to_owned(),
        }),
        (0, Some(id), _) => print(&format!("No changesets older than {id}.\n")),
        (_, _, Some(oldest)) if shown == limit && more_than(memory, args.agent_key.as_deref(), oldest).await? => {
            let agent = args
                .agent_key
                .as_deref()
                .map(|a| format!(" --agent-key {a}"))
                .unwrap_or_default();
            print(&format!(
                "\nOlder ones: `haema history{agent} --before {oldest}`; one in full: `haema history ID`.\n"
            ))
        }
        _ => Ok(()),
    }
}

/// Whether there are changesets (made through `made_by`, when given) older than `oldest`.
async fn more_than(memory: &Memory, made_by: Option<&str>, oldest: ChangesetId) -> Result<bool> {
    let older = match made_by {
        Some(agent) => memory.agent_key_changesets(agent, Some(oldest), 1).await?,
        None => memory.changeset_summaries(Some(oldest), 1).await?,
    };
    Ok(!older.is_empty())
}

pub async fn revert(memory: &Memory, id: ChangesetId, as_json: bool) -> Result<()> {
    let revert = memory.revert(id).await?;
    if as_json {
        return output::json(&detail(&revert));
    }
    let mut text = format!(
        "Reverted changeset {id} with changeset {}: {} memories restored, {} removed.\n",
        revert.id,
        revert.proposed.len(),
        revert.related.len()
    );
    for w in &revert.warnings {
        text.push_str(&format!("note: {w}\n"));
    }
    print(&text)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use haema_core::config::ProviderKind;
    use haema_core::{Memory, Settings};

    use super::summary_pages;

    #[tokio::test]
    async fn history_pages_through_summaries_up_to_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let mut settings = Settings::default();
        settings.embedder.provider = Some(ProviderKind::None);
        let memory = Memory::open(dir.path(), settings).await.unwrap();
        for i in 0..7 {
            memory.add(vec![format!("fact {i}")]).await.unwrap();
        }
        let read = async |before: Option<i64>, limit: usize| {
            let mut pages = Vec::new();
            let (count, oldest) = summary_pages(&memory, None, before.map(Into::into), limit, 3, |page| {
                pages.push(page.iter().map(|s| s.id.get()).collect::<Vec<_>>());
                Ok(())
            })
            .await
            .unwrap();
            (pages, count, oldest.map(|id| id.get()))
        };
        assert_eq!(
            read(None, usize::MAX).await,
            (vec![vec![7, 6, 5], vec![4, 3, 2], vec![1]], 7, Some(1))
        );
        assert_eq!(read(None, 5).await, (vec![vec![7, 6, 5], vec![4, 3]], 5, Some(3)));
        assert_eq!(read(Some(3), 6).await, (vec![vec![2, 1]], 2, Some(1)));
        assert_eq!(read(Some(1), 6).await, (vec![], 0, None));
    }
}
