//! Agent keys: a bearer key per agent that reaches the store over the network, and what it
//! may do. Only a key's SHA-256 is stored; the key itself is shown once, when it is made.

use serde::{Deserialize, Serialize};

use crate::types::invalid::{Invalid, Result};
use crate::types::time::{format_utc, now_ms, parse_time};
use crate::types::{ChangesetId, ChangesetKind, ChangesetStatus, ChangesetSummary};

/// What every key starts with: a pasted key is found by the secret screen by it.
pub const AGENT_KEY_PREFIX: &str = "haema_ak_";
/// How many random letters and digits follow the prefix (about 238 bits).
pub(crate) const AGENT_KEY_RANDOM_CHARS: usize = 40;
/// Where `haema mcp --http` listens when given no address: what a copy-paste set-up for an
/// agent points at.
pub const MCP_HTTP_ADDR: &str = "127.0.0.1:8731";
/// Longest name, in characters.
const MAX_NAME_CHARS: usize = 64;

closed_set! {
    /// What an agent holding a key may do.
    pub enum AgentAccess ("agent access") {
        /// Search, latest, recall and read core; nothing else.
        Read = "read",
        /// Everything a writer may ask, but every change to memories or core waits for a
        /// person's review, whatever the store's policy. Its own agent state is written
        /// directly.
        Propose = "propose",
        /// Writes follow the store's review policy.
        Write = "write",
    }
}

impl AgentAccess {
    /// Whether this access includes `needed` (write includes propose, which includes read).
    #[must_use]
    pub fn allows(self, needed: Self) -> bool {
        self >= needed
    }
}

/// One agent key as listed: never the key itself, which is shown only when made or rotated.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct AgentKey {
    /// The agent's name: recorded on every change it makes.
    pub name: String,
    /// What it may do.
    pub access: AgentAccess,
    /// The one user it sees, when bound to one (in a `per_user` store every key of an agent
    /// that works for a user should be).
    pub user_id: Option<String>,
    /// When it was made (Unix ms).
    pub created_at_ms: i64,
    /// When it stops working (Unix ms), if ever.
    pub expires_at_ms: Option<i64>,
    /// When it was last used (Unix ms), if ever (kept to the minute).
    pub last_used_ms: Option<i64>,
    /// When it was revoked (Unix ms); a revoked key stays listed.
    pub revoked_at_ms: Option<i64>,
}

impl AgentKey {
    /// Whether the key works at `now`: neither revoked nor expired.
    #[must_use]
    pub fn usable_at(&self, now_ms: i64) -> bool {
        self.revoked_at_ms.is_none() && self.expires_at_ms.is_none_or(|at| at > now_ms)
    }

    /// Its state in words at `now`: "active", "active, expires 2027-01-31 00:00:00 UTC",
    /// "revoked …", "expired …".
    #[must_use]
    pub fn state_at(&self, now_ms: i64) -> String {
        match (self.revoked_at_ms, self.expires_at_ms) {
            (Some(at), _) => format!("revoked {}", format_utc(at)),
            (None, Some(at)) if at <= now_ms => format!("expired {}", format_utc(at)),
            (None, Some(at)) => format!("active, expires {}", format_utc(at)),
            (None, None) => "active".to_owned(),
        }
    }

    /// Whether the key works now (see [`AgentKey::usable_at`]).
    #[must_use]
    pub fn usable(&self) -> bool {
        self.usable_at(now_ms())
    }

    /// Its state in words now (see [`AgentKey::state_at`]).
    #[must_use]
    pub fn state(&self) -> String {
        self.state_at(now_ms())
    }
}

/// A key just made or rotated: the key, shown once, and the key as listed. Its `Debug`
/// leaves the key out, so no log or panic message holds it.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct NewAgentKey {
    /// The bearer key. It is not stored and cannot be shown again.
    pub key: String,
    /// The key as listed.
    pub agent: AgentKey,
}

impl std::fmt::Debug for NewAgentKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NewAgentKey")
            .field("key", &format_args!("{AGENT_KEY_PREFIX}… (hidden)"))
            .field("agent", &self.agent)
            .finish()
    }
}

/// What undoing an agent key's changes did ([`Memory::undo_agent_key_changes`](crate::Memory::undo_agent_key_changes)).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct AgentUndo {
    /// Committed changesets of the agent's, each undone by a revert (newest first).
    pub reverted: Vec<ChangesetId>,
    /// Its proposals that waited for review (pending or stale), rejected.
    pub rejected: Vec<ChangesetId>,
    /// Its changesets left as they are, each with why: a forget (nothing forgotten comes
    /// back), or a memory it made that a later change replaced (revert that change first).
    pub kept: Vec<KeptChange>,
    /// The error that stopped the undo partway (a failed write, a full disk): what is listed
    /// above was undone and stays undone, and running the undo again goes on from there.
    pub stopped: Option<String>,
}

/// What an agent did through its key, counted by what undoing it would do
/// ([`Memory::agent_key_activity`](crate::Memory::agent_key_activity)): what a front end
/// says before it asks to undo, and after a key is revoked.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct AgentActivity {
    /// Committed changes an undo reverts.
    pub committed: usize,
    /// Committed forgets, which an undo leaves: nothing forgotten comes back.
    pub forgets: usize,
    /// Proposals waiting for review (pending or stale), which an undo rejects.
    pub waiting: usize,
    /// Changes rejected or reverted already.
    pub undone: usize,
}

impl AgentActivity {
    /// Counts `change` under what undoing it does.
    pub fn count(&mut self, change: &ChangesetSummary) {
        match UndoStep::of(change) {
            UndoStep::Revert => self.committed += 1,
            UndoStep::KeepForget => self.forgets += 1,
            UndoStep::Reject => self.waiting += 1,
            UndoStep::Nothing => self.undone += 1,
        }
    }

    /// Every change the agent made.
    #[must_use]
    pub fn total(&self) -> usize {
        self.committed + self.forgets + self.waiting + self.undone
    }

    /// The changes an undo would revert or reject.
    #[must_use]
    pub fn undoable(&self) -> usize {
        self.committed + self.waiting
    }
}

/// What undoing an agent's changes does with one of them: the one rule for
/// [`Memory::undo_agent_key_changes`](crate::Memory::undo_agent_key_changes) and for what a
/// front end says it will do before asking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UndoStep {
    /// A committed change: reverted.
    Revert,
    /// A proposal still waiting for review (pending or stale): rejected.
    Reject,
    /// A committed forget: left as it is, since nothing forgotten comes back.
    KeepForget,
    /// Rejected or reverted already: nothing to do.
    Nothing,
}

impl UndoStep {
    /// Why a forget is left: [`UndoStep::KeepForget`].
    pub const FORGET_KEPT: &'static str = "a forget cannot be undone: what it forgot is gone";

    /// The step for `change`.
    #[must_use]
    pub fn of(change: &ChangesetSummary) -> Self {
        match change.status {
            ChangesetStatus::Pending | ChangesetStatus::Stale => Self::Reject,
            ChangesetStatus::Committed if change.kind == ChangesetKind::Forget => Self::KeepForget,
            ChangesetStatus::Committed => Self::Revert,
            ChangesetStatus::Rejected | ChangesetStatus::Reverted => Self::Nothing,
        }
    }
}

/// A changeset an undo left as it is, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct KeptChange {
    /// The changeset.
    pub changeset: ChangesetId,
    /// Why it was not undone, in words for a person.
    pub reason: String,
}

/// What a presented key turned out to be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyCheck {
    /// A key that works.
    Valid(AgentKey),
    /// No key of this store.
    Unknown,
    /// The named key, revoked.
    Revoked(String),
    /// The named key, past its expiry.
    Expired(String),
}

/// The name as used (trimmed), or why it cannot be one: 1 to 64 letters, digits, `.`, `_`
/// or `-`.
pub(crate) fn checked_key_name(name: &str) -> Result<String> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > MAX_NAME_CHARS {
        return Err(Invalid::Argument(format!(
            "an agent key's name is 1 to {MAX_NAME_CHARS} characters: name the agent, e.g. claude-laptop"
        )));
    }
    if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || ".-_".contains(*c)))
    {
        return Err(Invalid::Argument(format!(
            "an agent key's name holds {bad:?}: use letters, digits, '.', '_' and '-', e.g. claude-laptop"
        )));
    }
    Ok(name.to_owned())
}

/// When a key given `expires` made at `now_ms` expires: a date or a time (`2027-01-31`,
/// `2027-01-31T12:00:00Z`) or a span from now (`30d`, `12h`, `90m`, `2w`).
pub(crate) fn expiry_from(expires: &str, now_ms: i64) -> Result<i64> {
    let text = expires.trim();
    let span = text
        .char_indices()
        .last()
        .and_then(|(at, unit)| Some((text[..at].parse::<i64>().ok()?, unit)))
        .and_then(|(n, unit)| {
            let ms = match unit {
                'm' => 60_000,
                'h' => 3_600_000,
                'd' => 86_400_000,
                'w' => 7 * 86_400_000,
                _ => return None,
            };
            (n > 0).then(|| n.checked_mul(ms)).flatten()
        });
    let at = span.and_then(|ms| now_ms.checked_add(ms)).or_else(|| parse_time(text));
    match at {
        Some(at) if at > now_ms => Ok(at),
        Some(_) => Err(Invalid::Argument(format!(
            "the expiry {text:?} is already past: give a later date or a span such as 30d"
        ))),
        None => Err(Invalid::Argument(format!(
            "the expiry {text:?} is no date or span: write e.g. 2027-01-31, 30d, 12h or 2w"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_key_s_debug_leaves_the_key_out() {
        let made = NewAgentKey {
            key: format!("{AGENT_KEY_PREFIX}SECRETsecret0123456789"),
            agent: AgentKey {
                name: "bot".into(),
                access: AgentAccess::Read,
                user_id: None,
                created_at_ms: 0,
                expires_at_ms: None,
                last_used_ms: None,
                revoked_at_ms: None,
            },
        };
        let shown = format!("{made:?} {:?}", Some(&made));
        assert!(!shown.contains("SECRET"), "{shown}");
        assert!(shown.contains("bot"), "{shown}");
    }

    #[test]
    fn access_includes_the_lesser_ones() {
        assert!(AgentAccess::Write.allows(AgentAccess::Propose));
        assert!(AgentAccess::Propose.allows(AgentAccess::Read));
        assert!(!AgentAccess::Read.allows(AgentAccess::Propose));
        assert!(!AgentAccess::Propose.allows(AgentAccess::Write));
    }

    #[test]
    fn names_are_plain_and_short() {
        assert_eq!(
            checked_key_name(" claude-laptop ").ok().as_deref(),
            Some("claude-laptop")
        );
        assert!(checked_key_name("").is_err());
        assert!(checked_key_name("a b").is_err());
        assert!(checked_key_name(&"x".repeat(65)).is_err());
    }

    #[test]
    fn an_expiry_is_a_span_or_a_date_in_the_future() {
        let now = 1_800_000_000_000;
        assert_eq!(expiry_from("30d", now).ok(), Some(now + 30 * 86_400_000));
        assert_eq!(expiry_from("2w", now).ok(), Some(now + 14 * 86_400_000));
        assert_eq!(expiry_from("2030-01-01", now).ok(), parse_time("2030-01-01"));
        assert!(expiry_from("2020-01-01", now).is_err());
        assert!(expiry_from("0d", now).is_err());
        assert!(expiry_from("soon", now).is_err());
        assert!(expiry_from("99999999999999999d", now).is_err());
    }

    #[test]
    fn a_key_works_until_it_is_revoked_or_expires() {
        let key = AgentKey {
            name: "bot".into(),
            access: AgentAccess::Read,
            user_id: None,
            created_at_ms: 1_000,
            expires_at_ms: Some(5_000),
            last_used_ms: None,
            revoked_at_ms: None,
        };
        assert!(key.usable_at(4_999));
        assert!(key.state_at(4_999).starts_with("active, expires 1970-01-01"));
        assert!(!key.usable_at(5_000));
        assert!(key.state_at(5_000).starts_with("expired"));
        let revoked = AgentKey {
            revoked_at_ms: Some(2_000),
            ..key
        };
        assert!(!revoked.usable_at(1_500));
        assert!(revoked.state_at(1_500).starts_with("revoked"));
    }
}
