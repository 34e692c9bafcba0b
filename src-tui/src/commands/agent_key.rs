//! `haema agent-key`: make, list, revoke and rotate the keys agents present to `haema mcp
//! --http`.

use anyhow::Result;
use haema_core::{AgentActivity, Error, Memory, NewAgentKey, format_utc};

use crate::cli::AgentKeyCommand;
use crate::output::{self, print};

/// What an agent did through its key, in a sentence, with the commands that show and undo
/// it.
fn described(activity: &AgentActivity, name: &str) -> String {
    let total = activity.total();
    if total == 0 {
        return "It made no changes.\n".to_owned();
    }
    let mut text = format!(
        "It made {total} change{}: {} committed, {} waiting for review, {} rejected or reverted{}.\n  See them:  haema history --agent-key {name}\n",
        if total == 1 { "" } else { "s" },
        activity.committed + activity.forgets,
        activity.waiting,
        activity.undone,
        if activity.forgets > 0 {
            format!(" ({} of the committed ones forgot memories for good)", activity.forgets)
        } else {
            String::new()
        }
    );
    if activity.undoable() > 0 {
        text.push_str(&format!("  Undo them: haema agent-key undo {name}\n"));
    }
    text
}

/// `haema agent-key undo NAME`: says what will be undone, asks (or takes --yes), undoes it
/// and says what it could not.
async fn undo(memory: &Memory, name: &str, yes: bool, json: bool) -> Result<()> {
    let activity = memory.agent_key_activity(name).await?;
    if activity.undoable() == 0 {
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
        output::json(&undone)?;
        return stopped(undone.stopped.as_deref());
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
    print(&text)?;
    stopped(undone.stopped.as_deref())
}

/// An undo stopped partway is an error (exit 1), after what it did was shown.
fn stopped(error: Option<&str>) -> Result<()> {
    match error {
        Some(error) => Err(anyhow::anyhow!(
            "the undo stopped partway: {error}. What is listed was undone and stays undone; run `haema agent-key undo` again to go on"
        )),
        None => Ok(()),
    }
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
            match memory.agent_key_activity(&key.name).await {
                Ok(activity) => text.push_str(&described(&activity, &key.name)),
                Err(Error::UserRequired) => {
                    text.push_str(&format!(
                        "See what it did with `haema --user ID history --agent-key {}`.\n",
                        key.name
                    ));
                }
                // Revoked either way: say why its changes are not counted here.
                Err(e) => text.push_str(&format!("What it did is not shown here: {e}.\n")),
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
