//! Agent state through the API: a small key/value store per agent, kept with its history.

use super::Memory;
use crate::Result;
use crate::store;
use crate::types::{AgentState, AgentStateChange, checked_agent, checked_key, checked_value};

impl Memory {
    /// One key of `agent_id`'s state (ids and keys are trimmed; an agent without an id of
    /// its own uses [`crate::DEFAULT_AGENT`]); `None` when it is not set.
    ///
    /// # Errors
    /// [`crate::Error::InvalidArgument`] for an empty agent id or an empty or over-long key.
    pub async fn get_agent_state(&self, agent_id: &str, key: &str) -> Result<Option<AgentState>> {
        let (agent, key) = (checked_agent(agent_id)?, checked_key(key)?);
        self.blocking(move |inner| inner.store.read(|r| r.agent_state(&agent, &key)))
            .await
    }

    /// Sets one key of `agent_id`'s state to any JSON value (at most 64 KB) and records the
    /// change in its history. Returns the key as it is now.
    ///
    /// # Errors
    /// [`crate::Error::InvalidArgument`] for an empty agent id, an empty or over-long key or a
    /// value too large.
    pub async fn set_agent_state(&self, agent_id: &str, key: &str, value: serde_json::Value) -> Result<AgentState> {
        let (agent, key) = (checked_agent(agent_id)?, checked_key(key)?);
        let text = checked_value(&value)?;
        self.blocking(move |inner| {
            inner
                .store
                .write(|w| w.put_agent_state(&agent, &key, &text, store::now_ms()))?;
            let now = inner.store.read(|r| r.agent_state(&agent, &key))?;
            now.ok_or_else(|| crate::Error::Internal(format!("agent state {key} was not kept")))
        })
        .await
    }

    /// Every key of `agent_id`'s state, by key.
    ///
    /// # Errors
    /// [`crate::Error::InvalidArgument`] for an empty agent id.
    pub async fn list_agent_state(&self, agent_id: &str) -> Result<Vec<AgentState>> {
        let agent = checked_agent(agent_id)?;
        self.blocking(move |inner| inner.store.read(|r| r.agent_states(&agent)))
            .await
    }

    /// Deletes one key of `agent_id`'s state (the deletion is kept in its history); false
    /// when it was not set.
    ///
    /// # Errors
    /// [`crate::Error::InvalidArgument`] for an empty agent id or an empty or over-long key.
    pub async fn delete_agent_state(&self, agent_id: &str, key: &str) -> Result<bool> {
        let (agent, key) = (checked_agent(agent_id)?, checked_key(key)?);
        self.blocking(move |inner| {
            inner
                .store
                .write(|w| w.delete_agent_state(&agent, &key, store::now_ms()))
        })
        .await
    }

    /// Every value one key of `agent_id`'s state had, oldest first (`None`: deleted).
    ///
    /// # Errors
    /// [`crate::Error::InvalidArgument`] for an empty agent id or an empty or over-long key.
    pub async fn agent_state_history(&self, agent_id: &str, key: &str) -> Result<Vec<AgentStateChange>> {
        let (agent, key) = (checked_agent(agent_id)?, checked_key(key)?);
        self.blocking(move |inner| inner.store.read(|r| r.agent_state_history(&agent, &key)))
            .await
    }
}
