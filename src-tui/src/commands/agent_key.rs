//! `haema agent-key`: make, list, revoke and rotate the keys agents present to `haema mcp
//! --http`.

use anyhow::Result;
use haema_core::{Error, Memory, NewAgentKey, UndoStep, format_utc};

use crate::cli::AgentKeyCommand;
use crate::output::{self, print};

/// What an agent did through its key, counted.
#[derive(Debug, Default)]
struct Activity {
    /// Committed changes a revert can undo.
    committed: usize,
    /// Committed forgets: nothing forgotten comes back.
    forgets: usize,
    waiting: usize,
    undone: usize,
}

impl Activity {
    /// Counts the changes made through key `name`, a page of summaries at a time.
    async fn of(memory: &Memory, name: &str) -> Result<Self> {
        let (mut counts, mut before) = (Self::default(), None);
        loop {
            let page = memory.agent_key_changesets(name, before, 500).await?;
            let Some(last) = page.last() else { break };
            before = Some(last.id);
            for change in &page {
                match UndoStep::of(change) {
                    UndoStep::Revert => counts.committed += 1,
                    UndoStep::KeepForget => counts.forgets += 1,
                    UndoStep::Reject => counts.waiting += 1,
                    UndoStep::Nothing => counts.undone += 1,
                }
            }
        }
        Ok(counts)
    }

    /// The counts in a sentence, with the commands that show and undo them.
    fn described(&self, name: &str) -> String {
        let total = self.committed + self.forgets + self.waiting + self.undone;
        if total == 0 {
            return "It made no changes.\n".to_owned();
        }
        let mut text = format!(
            "It made {total} change{}: {} committed, {} waiting for review, {} rejected or reverted{}.\n  See them:  haema history --agent-key {name}\n",
            if total == 1 { "" } else { "s" },
            self.committed + self.forgets,
            self.waiting,
            self.undone,
            if self.forgets > 0 {
                format!(" ({} of the committed ones forgot memories for good)", self.forgets)
            } else {
                String::new()
            }
        );
        if self.committed + self.waiting > 0 {
            text.push_str(&format!("  Undo them: haema agent-key undo {name}\n"));
        }
        text
    }
}

/// `haema agent-key undo NAME`: says what will be undone, asks (or takes --yes), undoes it
/// and says what it could not.
async fn undo(memory: &Memory, name: &str, yes: bool, json: bool) -> Result<()> {
    let activity = Activity::of(memory, name).await?;
    if activity.committed + activity.waiting == 0 {
        if json {
            return output::json(&haema_core::AgentUndo::default());
        }
        return print(&format!("Agent key {name} has nothing to undo.\n"));
    }
    if !yes {
        let still_works = memory.agent_keys().await?.iter().any(|k| k.name == name && k.usable());
        let warning = if still_works {
            format!("The key still works, so the agent may go on writing: `haema agent-key revoke {name}` first.\n")
        } else {
            String::new()
        };
        let forgets = if activity.forgets > 0 {
            format!(
                " Its {} forget(s) stay: nothing forgotten comes back.",
                activity.forgets
            )
        } else {
            String::new()
        };
        let shown = format!(
            "Agent key {name}: {} committed change(s) will be reverted, newest first, and {} proposal(s) waiting for review rejected.{forgets}\n{warning}",
            activity.committed, activity.waiting
        );
        super::confirm::confirm(&super::confirm::Question {
            shown: &shown,
            ask: "Undo them?",
            without_terminal: "Pass --yes to undo them.",
            declined: "nothing was undone",
        })?;
    }
    let undone = memory.undo_agent_key_changes(name).await?;
    if json {
        return output::json(&undone);
    }
    let mut text = format!(
        "Undone: {} change(s) reverted, {} proposal(s) rejected.\n",
        undone.reverted.len(),
        undone.rejected.len()
    );
    if !undone.kept.is_empty() {
        text.push_str("Left as they are:\n");
        for kept in &undone.kept {
            text.push_str(&format!("  changeset {}: {}\n", kept.changeset, kept.reason));
        }
    }
    print(&text)
}

pub async fn run(memory: &Memory, command: AgentKeyCommand, user: Option<String>) -> Result<()> {
    match command {
        AgentKeyCommand::Create {
            name,
            access,
            expires,
            json,
        } => {
            let made = memory
                .create_agent_key(&name, access, user.as_deref(), expires.as_deref())
                .await?;
            shown_once(&made, json, "made")
        }
        AgentKeyCommand::List { json } => {
            let keys = memory.agent_keys().await?;
            if json {
                return output::json(&keys);
            }
            if keys.is_empty() {
                return print("No agent keys. Make one with: haema agent-key create NAME --access propose\n");
            }
            let mut text = format!(
                "{:<24} {:<8} {:<12} {:<34} {}\n",
                "NAME", "ACCESS", "USER", "STATE", "LAST USED"
            );
            for key in &keys {
                text.push_str(&format!(
                    "{:<24} {:<8} {:<12} {:<34} {}\n",
                    key.name,
                    key.access,
                    key.user_id.as_deref().unwrap_or("any"),
                    key.state(),
                    key.last_used_ms.map_or_else(|| "never".to_owned(), format_utc),
                ));
            }
            print(&text)
        }
        AgentKeyCommand::Revoke { name } => {
            let key = memory.revoke_agent_key(&name).await?;
            let mut text = format!("Agent key {} is {}: it no longer works.\n", key.name, key.state());
            // What it did, when this handle may see it (a store that keeps users apart needs
            // --user for an unbound key's changes).
            match Activity::of(memory, &key.name).await {
                Ok(activity) => text.push_str(&activity.described(&key.name)),
                Err(e)
                    if e.downcast_ref::<Error>()
                        .is_some_and(|e| matches!(e, Error::UserRequired)) =>
                {
                    text.push_str(&format!(
                        "See what it did with `haema --user ID history --agent-key {}`.\n",
                        key.name
                    ));
                }
                Err(e) => return Err(e),
            }
            print(&text)
        }
        AgentKeyCommand::Undo { name, yes, json } => undo(memory, &name, yes, json).await,
        AgentKeyCommand::Rotate { name, json } => {
            let made = memory.rotate_agent_key(&name).await?;
            shown_once(&made, json, "rotated (the old key no longer works)")
        }
    }
}

/// Prints a new key: the only time it is shown.
fn shown_once(made: &NewAgentKey, json: bool, what: &str) -> Result<()> {
    if json {
        return output::json(made);
    }
    let agent = &made.agent;
    let user = agent
        .user_id
        .as_deref()
        .map_or_else(|| "any user".to_owned(), |u| format!("user {u} only"));
    print(&format!(
        "Agent key {} {what}: {} access, {user}, {}.\n\n    {}\n\nCopy it now: haema keeps only its hash and cannot show it again.\n",
        agent.name,
        agent.access,
        agent.state(),
        made.key
    ))
}
