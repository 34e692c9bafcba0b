//! `haema state`: an agent's small key/value store.

use anyhow::Result;
use haema_core::Memory;
use serde_json::Value;

use super::read_source;
use crate::cli::StateCommand;
use crate::output::{self, one_line, print, utc};

pub async fn run(memory: &Memory, command: StateCommand) -> Result<()> {
    match command {
        StateCommand::Get { key, agent } => {
            let found = memory.get_agent_state(&agent.agent_id, &key).await?;
            match (found, agent.json) {
                (found, true) => output::json(&found),
                (Some(state), false) => print(&format!("{}\n", shown(&state.value))),
                (None, false) => anyhow::bail!("the state key “{key}” of agent “{}” is not set", agent.agent_id),
            }
        }
        StateCommand::Set { key, value, agent } => {
            let text = if value == "-" {
                read_source("-".as_ref())?.trim_end_matches('\n').to_owned()
            } else {
                value
            };
            let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
            let state = memory.set_agent_state(&agent.agent_id, &key, value).await?;
            if agent.json {
                return output::json(&state);
            }
            print(&format!("{} = {}\n", state.key, one_line(&shown(&state.value))))
        }
        StateCommand::List { agent } => {
            let states = memory.list_agent_state(&agent.agent_id).await?;
            if agent.json {
                return output::json(&states);
            }
            if states.is_empty() {
                return print(&format!("Agent “{}” has no state.\n", agent.agent_id));
            }
            let text: String = states
                .iter()
                .map(|s| format!("{}  {} = {}\n", utc(s.updated_at_ms), s.key, one_line(&shown(&s.value))))
                .collect();
            print(&text)
        }
        StateCommand::Delete { key, agent } => {
            let deleted = memory.delete_agent_state(&agent.agent_id, &key).await?;
            if agent.json {
                return output::json(&serde_json::json!({ "deleted": deleted }));
            }
            if deleted {
                print(&format!("Deleted “{key}”.\n"))
            } else {
                anyhow::bail!("the state key “{key}” of agent “{}” is not set", agent.agent_id)
            }
        }
        StateCommand::History { key, agent } => {
            let changes = memory.agent_state_history(&agent.agent_id, &key).await?;
            if agent.json {
                return output::json(&changes);
            }
            if changes.is_empty() {
                return print(&format!(
                    "The state key “{key}” of agent “{}” was never set.\n",
                    agent.agent_id
                ));
            }
            let text: String = changes
                .iter()
                .map(|c| match &c.value {
                    Some(v) => format!("{}  = {}\n", utc(c.at_ms), one_line(&shown(v))),
                    None => format!("{}  deleted\n", utc(c.at_ms)),
                })
                .collect();
            print(&text)
        }
    }
}

/// A value as people read it: text as it is, anything else as JSON.
fn shown(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}
