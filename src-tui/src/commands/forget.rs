//! `haema forget`: by id, by search query (shows what matches and asks) or every memory
//! mentioning a phrase; `--yes` for scripts. The receipt stays in history.

use anyhow::Result;
use haema_core::{Changeset, ForgetPlan, ForgetRequest, Memory, PendingForget};
use serde_json::json;

use crate::UsageError;
use crate::cli::ForgetArgs;
use crate::output::{self, one_line, print};

pub async fn run(memory: &Memory, args: ForgetArgs) -> Result<()> {
    let mut request = ForgetRequest {
        memory_ids: args.ids,
        mentioning: args.mentioning,
    };
    if let Some(query) = &args.search {
        let found = memory
            .search_records(
                query,
                i64::try_from(args.n).unwrap_or(i64::MAX),
                haema_core::SearchMode::Hybrid,
            )
            .await?;
        request.memory_ids.extend(found.hits.into_iter().map(|h| h.memory.id));
    }
    if request.is_empty() {
        if args.search.is_some() {
            return print("Nothing matches that search; nothing was forgotten.\n");
        }
        return Err(UsageError("say what to forget: memory ids, --search QUERY or --mentioning PHRASE".into()).into());
    }
    let plan = memory.forget_plan(request.clone()).await?;
    if plan.is_empty() {
        if args.json {
            return output::json(&json!({"changeset": null, "status": "noop", "memories": [], "receipt": null}));
        }
        return print("Nothing to forget: no memory or recorded text matches.\n");
    }
    if !args.yes {
        confirm(&plan)?;
    }
    let receipt = memory.forget(request).await?;
    if args.json {
        return output::json(&receipt_json(&receipt));
    }
    print(&receipt_text(&receipt))
}

/// Shows what would go and asks; only a "y" or "yes" goes on.
fn confirm(plan: &ForgetPlan) -> Result<()> {
    super::confirm::confirm(&super::confirm::Question {
        shown: &plan_text(plan),
        ask: "Forget for good? This cannot be undone.",
        without_terminal: "forgetting cannot be undone; pass --yes to forget without being asked",
        declined: "nothing was forgotten",
    })
}

/// What an agent's pending forget request would remove if approved now: the phrase it
/// asked for, then [`plan_text`].
pub(crate) fn pending_text(pending: &PendingForget) -> String {
    let mut text = match &pending.mentioning {
        Some(phrase) => format!(
            "Approving it forgets every memory that mentions “{}” and blanks the phrase wherever it is written (changes, core.md, agent state).\n",
            one_line(phrase)
        ),
        None => format!(
            "Approving it forgets the {} memories it names, with the older memories they were built from.\n",
            pending.memory_ids.len()
        ),
    };
    text.push_str(&plan_text(&pending.plan));
    text
}

/// What a forget would remove, as shown before it is confirmed.
pub(crate) fn plan_text(plan: &ForgetPlan) -> String {
    let mut text = String::new();
    if plan.memories.is_empty() {
        text.push_str("No memory is forgotten.\n");
    }
    if !plan.memories.is_empty() {
        text.push_str(&format!("These {} memories will be forgotten:\n", plan.memories.len()));
        for m in &plan.memories {
            text.push_str(&format!("  {}  {}  {}\n", m.id, m.status, one_line(&m.content)));
        }
    }
    if plan.agent_state > 0 {
        text.push_str(&format!(
            "It is also in {} agent state entries (values now or in their history), which are blanked.\n",
            plan.agent_state
        ));
    }
    if !plan.agent_state_removed.is_empty() {
        text.push_str("These agent state keys are removed whole, with their history, because the agent or the key is named by it:\n");
        for entry in &plan.agent_state_removed {
            text.push_str(&format!(
                "  agent {}  key {}\n",
                one_line(&entry.agent_id),
                one_line(&entry.key)
            ));
        }
    }
    text.push_str(&format!(
        "Their text is also blanked in {} earlier changes and {} core.md versions, and no copy stays in the store's files.\n",
        plan.changesets, plan.core_versions
    ));
    text.push_str(COPIES_OUTSIDE);
    text
}

pub(crate) fn receipt_text(c: &Changeset) -> String {
    let receipt = c.forget.as_ref().and_then(|f| f.receipt.clone()).unwrap_or_default();
    let ids: Vec<String> = c.related.iter().map(|r| r.memory_id.to_string()).collect();
    let mut text = format!(
        "Forgot {} memories{}; blanked their text in {} earlier changes and {} core.md versions{}.\n",
        receipt.memories,
        if ids.is_empty() {
            String::new()
        } else {
            format!(" ({})", ids.join(", "))
        },
        receipt.changesets,
        receipt.core_versions,
        if receipt.phrase {
            ", and the phrase wherever it was written"
        } else {
            ""
        },
    );
    if receipt.agent_state > 0 {
        text.push_str(&format!(
            "It was also blanked in {} agent state values (see `haema state`).\n",
            receipt.agent_state
        ));
    }
    text.push_str(&format!("The receipt is changeset {} in `haema history`.\n", c.id));
    for unfinished in &receipt.unfinished {
        text.push_str(&format!("Not finished yet: {unfinished}.\n"));
    }
    text.push_str(COPIES_OUTSIDE);
    text
}

/// What a forget cannot reach, said before and after it.
const COPIES_OUTSIDE: &str = "Copies made outside the store before (files from `haema export` or `core export`, backups) still hold the text: delete them yourself.\n";

fn receipt_json(c: &Changeset) -> serde_json::Value {
    json!({
        "changeset": c.id,
        "status": c.status,
        "memories": c.related.iter().map(|r| &r.memory_id).collect::<Vec<_>>(),
        "receipt": c.forget.as_ref().and_then(|f| f.receipt.clone()),
    })
}
