//! Agent state through the API: a small key/value store per agent, kept with its history.

use super::Memory;
use crate::error::Result;
use crate::types::{AgentState, AgentStateChange, checked_agent, checked_key, checked_value};

impl Memory {
    /// One key of `agent_id`'s state (ids and keys are trimmed; an agent without an id of
    /// its own uses [`crate::DEFAULT_AGENT`]); `None` when it is not set.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// use serde_json::json;
    /// memory.set_agent_state("planner", "current_task", json!({"step": 2, "of": 5})).await?;
    /// let state = memory.get_agent_state("planner", "current_task").await?;
    /// assert_eq!(state.map(|s| s.value), Some(json!({"step": 2, "of": 5})));
    /// assert!(memory.get_agent_state("planner", "unset").await?.is_none());
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`crate::Error::InvalidArgument`] for an empty agent id or an empty or over-long key.
    pub async fn get_agent_state(&self, agent_id: &str, key: &str) -> Result<Option<AgentState>> {
        let (agent, key) = (checked_agent(agent_id)?, checked_key(key)?);
        self.blocking(move |inner| inner.store.read(|r| r.agents().get(&agent, &key)))
            .await
    }

    /// Sets one key of `agent_id`'s state to any JSON value (at most 64 KB) and records the
    /// change in its history. A secret in a string of the value (an API key, a token, a
    /// password) is replaced by a marker such as `[secret: github token]`. Returns the key as
    /// it is now. See the example on [`Memory::get_agent_state`].
    ///
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// use serde_json::json;
    /// memory.set_agent_state("planner", "current_task", json!({"step": 2, "goal": "book flights"})).await?;
    /// let state = memory.get_agent_state("planner", "current_task").await?.ok_or("not set")?;
    /// assert_eq!(state.value["step"], 2);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`crate::Error::InvalidArgument`] for an empty agent id, an empty or over-long key, an
    /// id or key that holds a credential, or a value too large.
    pub async fn set_agent_state(&self, agent_id: &str, key: &str, mut value: serde_json::Value) -> Result<AgentState> {
        let (agent, key) = (checked_agent(agent_id)?, checked_key(key)?);
        crate::secrets::refuse_in_name("the agent id", &agent)?;
        crate::secrets::refuse_in_name("the state key", &key)?;
        // Secrets in the value are replaced by markers ([`crate::secrets`]).
        crate::secrets::redact_state(&key, &mut value);
        let text = checked_value(&value)?;
        self.blocking(move |inner| {
            inner
                .store
                .write(|w| w.agents_mut().put(&agent, &key, &text, crate::types::now_ms()))?;
            let now = inner.store.read(|r| r.agents().get(&agent, &key))?;
            now.ok_or_else(|| crate::error::Error::Internal(format!("agent state {key} was not kept")))
        })
        .await
    }

    /// Every key of `agent_id`'s state, by key.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// memory.set_agent_state("planner", "task", "book a table".into()).await?;
    /// memory.set_agent_state("planner", "city", "Lyon".into()).await?;
    /// let keys: Vec<String> = memory.list_agent_state("planner").await?.into_iter().map(|s| s.key).collect();
    /// assert_eq!(keys, ["city", "task"]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`crate::Error::InvalidArgument`] for an empty agent id.
    pub async fn list_agent_state(&self, agent_id: &str) -> Result<Vec<AgentState>> {
        let agent = checked_agent(agent_id)?;
        self.blocking(move |inner| inner.store.read(|r| r.agents().all_of(&agent)))
            .await
    }

    /// Deletes one key of `agent_id`'s state (the deletion is kept in its history); false
    /// when it was not set.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// memory.set_agent_state("planner", "task", "book a table".into()).await?;
    /// assert!(memory.delete_agent_state("planner", "task").await?);
    /// assert!(!memory.delete_agent_state("planner", "task").await?); // already gone
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`crate::Error::InvalidArgument`] for an empty agent id or an empty or over-long key.
    pub async fn delete_agent_state(&self, agent_id: &str, key: &str) -> Result<bool> {
        let (agent, key) = (checked_agent(agent_id)?, checked_key(key)?);
        self.blocking(move |inner| {
            inner
                .store
                .write(|w| w.agents_mut().delete(&agent, &key, crate::types::now_ms()))
        })
        .await
    }

    /// Every value one key of `agent_id`'s state had, oldest first (`None`: deleted).
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// memory.set_agent_state("planner", "step", 1.into()).await?;
    /// memory.set_agent_state("planner", "step", 2.into()).await?;
    /// memory.delete_agent_state("planner", "step").await?;
    /// let history = memory.agent_state_history("planner", "step").await?;
    /// let values: Vec<_> = history.iter().map(|c| c.value.clone()).collect();
    /// assert_eq!(values, [Some(1.into()), Some(2.into()), None]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`crate::Error::InvalidArgument`] for an empty agent id or an empty or over-long key.
    pub async fn agent_state_history(&self, agent_id: &str, key: &str) -> Result<Vec<AgentStateChange>> {
        let (agent, key) = (checked_agent(agent_id)?, checked_key(key)?);
        self.blocking(move |inner| inner.store.read(|r| r.agents().history(&agent, &key)))
            .await
    }
}
