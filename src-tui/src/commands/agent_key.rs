//! `haema agent-key`: make, list, revoke and rotate the keys agents present to `haema mcp
//! --http`.

use anyhow::Result;
use haema_core::{Memory, NewAgentKey, format_utc};

use crate::cli::AgentKeyCommand;
use crate::output::{self, print};

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
            print(&format!(
                "Agent key {} is {}: it no longer works. Its changes stay in `haema history`.\n",
                key.name,
                key.state()
            ))
        }
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
