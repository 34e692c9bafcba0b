//! `haema purge-user`: everything of one user goes for good (their memories in every
//! status and the changes made for them), after showing how much and asking; `--yes` for
//! scripts.

use anyhow::Result;
use haema_core::{Memory, MemoryStatus};
use serde_json::json;

use crate::cli::PurgeUserArgs;
use crate::output::{self, print};

pub async fn run(memory: &Memory, args: PurgeUserArgs) -> Result<()> {
    if !args.yes {
        let user = memory.for_user(&args.user_id)?;
        let active = user.info().await?.active;
        let changes = user.changeset_summaries(None, usize::MAX).await?.len();
        confirm(&args.user_id, active, changes)?;
    }
    let receipt = memory.purge_user(&args.user_id).await?;
    if args.json {
        return output::json(&json!({
            "user_id": args.user_id.trim(),
            "memories": receipt.memories,
            "changesets": receipt.changesets,
        }));
    }
    print(&format!(
        "Removed user {} for good: {} memories (in every status) and {} changes; no copy stays in the store's files.\n",
        output::printable(args.user_id.trim()),
        receipt.memories,
        receipt.changesets
    ))
}

/// Shows how much would go and asks; only a "y" or "yes" goes on.
fn confirm(user: &str, active: usize, changes: usize) -> Result<()> {
    let text = format!(
        "User {} has {active} {} memories and {changes} changes; all of them, and the memories they replaced, will be removed.\n",
        output::printable(user.trim()),
        MemoryStatus::Active,
    );
    super::confirm::confirm(&super::confirm::Question {
        shown: &text,
        ask: "Remove them for good? This cannot be undone.",
        without_terminal: "purging cannot be undone; pass --yes to purge without being asked",
        declined: "nothing was removed",
    })
}
