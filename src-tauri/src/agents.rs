//! Agents on other computers: the keys they present to `haema mcp --http` (made, listed,
//! given a new key, revoked), what each did through its key, and undoing it. In a store
//! that keeps people apart, a key made here is bound to the person the window works for.

use haema_core::{AgentAccess, AgentActivity, AgentKey, AgentUndo, NewAgentKey};
use serde::Serialize;
use tauri::State;

use crate::error::CommandResult;
use crate::state::AppState;

/// One agent key as the window lists it.
#[derive(Debug, Serialize, specta::Type)]
pub struct AgentKeyRow {
    /// The key as listed (never the key itself).
    pub key: AgentKey,
    /// Its state in the core's words: "active", "active, expires …", "revoked …",
    /// "expired …".
    pub state: String,
    /// Whether it works now.
    pub usable: bool,
}

impl AgentKeyRow {
    fn new(key: AgentKey) -> Self {
        Self {
            state: key.state(),
            usable: key.usable(),
            key,
        }
    }
}

/// Every agent key, revoked and expired ones too, by name.
#[tauri::command]
#[specta::specta]
pub async fn agent_keys(state: State<'_, AppState>) -> CommandResult<Vec<AgentKeyRow>> {
    let keys = state.memory().await?.agent_keys().await?;
    Ok(keys.into_iter().map(AgentKeyRow::new).collect())
}

/// Makes a key for the agent `name` with `access`, expiring at `expires` (a date such as
/// `2027-01-31` or a span such as `30d`) or never. The answer holds the key: the only time
/// it is shown.
#[tauri::command]
#[specta::specta]
pub async fn create_agent_key(
    state: State<'_, AppState>,
    name: String,
    access: AgentAccess,
    expires: Option<String>,
) -> CommandResult<NewAgentKey> {
    let expires = expires.filter(|e| !e.trim().is_empty());
    Ok(state
        .memory()
        .await?
        .create_agent_key(&name, access, None, expires.as_deref())
        .await?)
}

/// Gives the agent `name` a new key (shown once); the old one stops working at once.
#[tauri::command]
#[specta::specta]
pub async fn rotate_agent_key(state: State<'_, AppState>, name: String) -> CommandResult<NewAgentKey> {
    Ok(state.memory().await?.rotate_agent_key(&name).await?)
}

/// Revokes the agent `name`'s key: it stops working at once, on every server of the store.
#[tauri::command]
#[specta::specta]
pub async fn revoke_agent_key(state: State<'_, AppState>, name: String) -> CommandResult<AgentKeyRow> {
    Ok(AgentKeyRow::new(state.memory().await?.revoke_agent_key(&name).await?))
}

/// What the agent `name` did through its key, counted by what undoing it would do.
#[tauri::command]
#[specta::specta]
pub async fn agent_key_activity(state: State<'_, AppState>, name: String) -> CommandResult<AgentActivity> {
    Ok(state.memory().await?.agent_key_activity(&name).await?)
}

/// Undoes what the agent `name` did: its committed changes reverted, newest first, its
/// proposals rejected; a forget, and a change replaced since, left with why.
#[tauri::command]
#[specta::specta]
pub async fn undo_agent_key_changes(state: State<'_, AppState>, name: String) -> CommandResult<AgentUndo> {
    Ok(state.memory().await?.undo_agent_key_changes(&name).await?)
}
