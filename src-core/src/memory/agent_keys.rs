//! Agent keys through the API: made, listed, rotated and revoked by a person, and checked
//! when an agent presents one. Only a key's SHA-256 is stored.

use rand::Rng;
use rand::distr::Alphanumeric;
use sha2::{Digest, Sha256};

use super::Memory;
use crate::error::{Error, Missing, Result};
use crate::store::{Scope, Store};
use crate::types::{
    AGENT_KEY_PREFIX, AGENT_KEY_RANDOM_CHARS, AgentAccess, AgentKey, KeyCheck, NewAgentKey, checked_key_name,
    expiry_from, now_ms,
};

/// How stale a key's "last used" may get before a use writes it again: a busy agent does
/// not write on every call.
const TOUCH_EVERY_MS: i64 = 60_000;

/// A new bearer key: the prefix and random letters and digits from the OS-seeded generator.
fn new_secret() -> String {
    let random: String = rand::rng()
        .sample_iter(Alphanumeric)
        .take(AGENT_KEY_RANDOM_CHARS)
        .map(char::from)
        .collect();
    format!("{AGENT_KEY_PREFIX}{random}")
}

/// The store as agent keys see it: whole, whatever the handle's scope. Keys are the store's,
/// not a user's: one is checked before anyone knows whose memories a call is about, and the
/// group touches no memory.
fn whole(inner: &super::Inner) -> Store {
    inner.store.with_scope(Scope::Whole)
}

/// The SHA-256 of a key, in hex: what the store keeps.
fn sha256_hex(key: &str) -> String {
    Sha256::digest(key.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl Memory {
    /// Makes a key for the agent `name` with `access`, bound to `user_id` when given (a
    /// handle working for a user binds it to that user), expiring at `expires` (a date such
    /// as `2027-01-31` or a span from now such as `30d`, `12h`, `2w`). The key is in the
    /// answer only: the store keeps its SHA-256, so it cannot be shown again.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
    /// use haema_core::{AgentAccess, KeyCheck};
    /// let made = memory.create_agent_key("claude-laptop", AgentAccess::Propose, None, Some("30d")).await?;
    /// assert!(made.key.starts_with("haema_ak_"));
    /// match memory.check_agent_key(&made.key).await? {
    ///     KeyCheck::Valid(agent) => assert_eq!(agent.access, AgentAccess::Propose),
    ///     other => panic!("{other:?}"),
    /// }
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a name that is not 1 to 64 letters, digits, `.`, `_` or
    /// `-`, a name already used (revoked keys stay listed, and an import may bring changes
    /// made under a name), an empty user or one holding a
    /// secret, another user than the one this handle works for, or an expiry that is no
    /// date or span or is past.
    pub async fn create_agent_key(
        &self,
        name: &str,
        access: AgentAccess,
        user_id: Option<&str>,
        expires: Option<&str>,
    ) -> Result<NewAgentKey> {
        let name = checked_key_name(name)?;
        let user_id = self.key_user(user_id)?;
        let now = now_ms();
        let expires_at_ms = expires.map(|e| expiry_from(e, now)).transpose()?;
        let key = new_secret();
        let agent = AgentKey {
            name,
            access,
            user_id,
            created_at_ms: now,
            expires_at_ms,
            last_used_ms: None,
            revoked_at_ms: None,
        };
        let (row, sha256) = (agent.clone(), sha256_hex(&key));
        self.blocking(move |inner| {
            whole(inner).write(|w| {
                if let Some(taken) = w.agent_keys().by_name(&row.name)? {
                    return Err(Error::InvalidArgument(format!(
                        "an agent key named {} exists already ({}; revoked keys stay listed so their changes can be traced): choose another name",
                        taken.name,
                        taken.state_at(now)
                    )));
                }
                // Changes recorded under the name with no key (brought in by an import) stay
                // apart from a new agent's: the name is how they are found and undone.
                if let Some(earlier) = w.changesets().summaries(None, Some(&row.name), None, 1)?.first() {
                    return Err(Error::InvalidArgument(format!(
                        "this store already holds changes made through an agent key named {} (changeset {}, brought in by an import): choose another name, so that they stay apart from the new agent's",
                        row.name, earlier.id
                    )));
                }
                w.agent_keys_mut().insert(&row, &sha256)
            })
        })
        .await?;
        Ok(NewAgentKey { key, agent })
    }

    /// Every agent key, revoked and expired ones too, by name. Never a key itself.
    ///
    /// # Errors
    /// A database error.
    pub async fn agent_keys(&self) -> Result<Vec<AgentKey>> {
        self.blocking(|inner| whole(inner).read(|r| r.agent_keys().all())).await
    }

    /// Gives the agent `name` a new key; the old one stops working at once. Its access,
    /// user and expiry stay.
    ///
    /// # Errors
    /// [`Error::NotFound`] when there is no such key; [`Error::InvalidState`] when it is
    /// revoked or expired (make a new one instead).
    pub async fn rotate_agent_key(&self, name: &str) -> Result<NewAgentKey> {
        let name = checked_key_name(name)?;
        let key = new_secret();
        let sha256 = sha256_hex(&key);
        let agent = self
            .blocking(move |inner| {
                whole(inner).write(|w| {
                    let agent = w
                        .agent_keys()
                        .by_name(&name)?
                        .ok_or_else(|| Error::NotFound(Missing::AgentKey(name.clone())))?;
                    let now = now_ms();
                    if !agent.usable_at(now) {
                        return Err(Error::InvalidState(format!(
                            "agent key {name} is {}, so it is not rotated: make a new key with another name",
                            agent.state_at(now)
                        )));
                    }
                    w.agent_keys_mut().set_sha256(&name, &sha256)?;
                    Ok(agent)
                })
            })
            .await?;
        Ok(NewAgentKey { key, agent })
    }

    /// Revokes the agent `name`'s key: it stops working at once and stays listed, so the
    /// changes it made can still be found. Revoking a revoked key changes nothing.
    ///
    /// # Errors
    /// [`Error::NotFound`] when there is no such key.
    pub async fn revoke_agent_key(&self, name: &str) -> Result<AgentKey> {
        let name = checked_key_name(name)?;
        self.blocking(move |inner| {
            whole(inner).write(|w| {
                w.agent_keys_mut().revoke(&name, now_ms())?;
                w.agent_keys()
                    .by_name(&name)?
                    .ok_or_else(|| Error::NotFound(Missing::AgentKey(name.clone())))
            })
        })
        .await
    }

    /// What a presented key is: a key that works (its use is recorded, to the minute), or
    /// unknown, revoked or expired.
    ///
    /// # Errors
    /// A database error.
    pub async fn check_agent_key(&self, key: &str) -> Result<KeyCheck> {
        let key = key.trim();
        if !key.starts_with(AGENT_KEY_PREFIX) {
            return Ok(KeyCheck::Unknown);
        }
        let sha256 = sha256_hex(key);
        self.blocking(move |inner| {
            let Some(mut agent) = whole(inner).read(|r| r.agent_keys().by_sha256(&sha256))? else {
                return Ok(KeyCheck::Unknown);
            };
            let now = now_ms();
            if agent.revoked_at_ms.is_some() {
                return Ok(KeyCheck::Revoked(agent.name));
            }
            if !agent.usable_at(now) {
                return Ok(KeyCheck::Expired(agent.name));
            }
            if agent.last_used_ms.is_none_or(|at| now - at >= TOUCH_EVERY_MS) {
                whole(inner).write(|w| w.agent_keys_mut().touch(&agent.name, now))?;
                agent.last_used_ms = Some(now);
            }
            Ok(KeyCheck::Valid(agent))
        })
        .await
    }

    /// This store as the agent holding `agent` may use it: every changeset made through it
    /// records the key's name ([`Changeset::agent_key`](crate::Changeset::agent_key)); only
    /// its user's memories when the key is bound to one; and, for [`AgentAccess::Propose`], every change to memories or
    /// core waiting for a person's review whatever the store's policy (agent state is the
    /// agent's own and written directly). What a [`AgentAccess::Read`] key may not call is
    /// the caller's to refuse: this handle still writes.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when the key's user cannot be this handle's (it works for
    /// another user).
    pub fn for_agent(&self, agent: &AgentKey) -> Result<Self> {
        let memory = match agent.user_id.as_deref() {
            Some(user) => self.for_user(user)?,
            None => self.clone(),
        };
        let mut settings = memory.inner.settings.clone();
        if agent.access == AgentAccess::Propose {
            settings.review = crate::types::policy::ReviewPolicy::Review;
        }
        let store = memory.inner.store.with_agent_key(&agent.name);
        Ok(memory.sibling(std::sync::Arc::new(store), settings))
    }

    /// This handle writing as the agent `name` whose proposal a person asked to build again
    /// ([`Memory::rerun`]): the rebuilt change records the agent, and waits for the person's
    /// review whatever the policy unless the agent's key still works with write access (a
    /// propose key's change always waits; so does one whose key was revoked or is gone).
    /// The handle keeps its own user (the changeset read through it is that user's already).
    pub(crate) async fn rebuilding_for_agent(&self, name: &str) -> Result<Self> {
        let writes = self
            .agent_keys()
            .await?
            .iter()
            .any(|k| k.name == name && k.usable() && k.access == AgentAccess::Write);
        let mut settings = self.inner.settings.clone();
        if !writes {
            settings.review = crate::types::policy::ReviewPolicy::Review;
        }
        let store = self.inner.store.with_agent_key(name);
        Ok(self.sibling(std::sync::Arc::new(store), settings))
    }

    /// The user a new key is bound to: the one given, or the one this handle works for.
    fn key_user(&self, user_id: Option<&str>) -> Result<Option<String>> {
        let given = user_id.map(str::trim);
        if given == Some("") {
            return Err(Error::InvalidArgument(
                "the key's user is empty: name the user, or leave the key unbound".into(),
            ));
        }
        if let Some(user) = given {
            crate::secrets::refuse_in_name("the key's user", user)?;
        }
        match (self.user(), given) {
            (Some(mine), Some(other)) if mine != other => Err(Error::InvalidArgument(format!(
                "this works for user {mine}, so a key it makes is bound to {mine}, not {other}"
            ))),
            (Some(mine), _) => Ok(Some(mine.to_owned())),
            (None, given) => Ok(given.map(str::to_owned)),
        }
    }
}
