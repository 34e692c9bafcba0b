//! API keys kept in the OS keyring (Secret Service on Linux, the Keychain on macOS, the
//! Credential Manager on Windows), never in a settings file.
//!
//! A key belongs to a service, named by its base URL: one key saved for
//! `https://api.openai.com/v1` serves both the LLM and the embedder there. Every front end
//! reads the same entry (service `haema`, account the base URL), so a key saved in the
//! desktop app works for `haema mcp`. An environment variable (`HAEMA_LLM_API_KEY`,
//! `HAEMA_EMBED_API_KEY`) still wins over the keyring, and `HAEMA_KEYRING=off` keeps haema
//! from asking the keyring at all.
//!
//! ```
//! use haema_core::keys::{KeyStore, MemoryKeys, account_for};
//! use haema_core::config::ProviderKind;
//! let keys = MemoryKeys::default(); // the system keyring is `SystemKeyring`
//! let account = account_for(ProviderKind::Openai, None);
//! assert_eq!(account, "https://api.openai.com/v1");
//! keys.set(&account, "sk-test-1234567890")?;
//! assert_eq!(keys.get(&account)?.as_deref(), Some("sk-test-1234567890"));
//! assert!(keys.delete(&account)?);
//! # Ok::<(), haema_core::Error>(())
//! ```

use std::collections::HashMap;
use std::sync::Mutex;

use crate::error::{Error, Result};
use crate::types::provider_kind::ProviderKind;

/// The keyring service haema's entries are filed under.
pub const SERVICE: &str = "haema";

/// The variable that turns the keyring off (`off`, `0`, `false` or `no`).
pub const KEYRING_VAR: &str = "HAEMA_KEYRING";

/// Somewhere API keys are kept, one per account.
pub trait KeyStore: Send + Sync {
    /// The key saved for `account`, if any.
    ///
    /// # Errors
    /// [`Error::Keyring`] when the store cannot be reached.
    fn get(&self, account: &str) -> Result<Option<String>>;
    /// Saves `key` for `account`, replacing any earlier one.
    ///
    /// # Errors
    /// [`Error::Keyring`] when the store cannot be reached or refuses.
    fn set(&self, account: &str, key: &str) -> Result<()>;
    /// Removes the key of `account`; `false` when there was none.
    ///
    /// # Errors
    /// [`Error::Keyring`] when the store cannot be reached or refuses.
    fn delete(&self, account: &str) -> Result<bool>;
}

/// The account a provider's key is saved under: its base URL, as configured or its
/// public API's, without a trailing `/`.
///
/// ```
/// use haema_core::config::ProviderKind;
/// use haema_core::keys::account_for;
/// assert_eq!(account_for(ProviderKind::Openai, Some("https://llm.example.com/v1/ ")), "https://llm.example.com/v1");
/// assert!(account_for(ProviderKind::Gemini, None).starts_with("https://generativelanguage.googleapis.com"));
/// ```
pub fn account_for(kind: ProviderKind, base_url: Option<&str>) -> String {
    let url = base_url
        .map(str::trim)
        .filter(|u| !u.is_empty())
        .unwrap_or(kind.default_base_url());
    url.trim_end_matches('/').to_owned()
}

/// Keys kept in this process only: for tests, and for callers that hold keys themselves.
#[derive(Debug, Default)]
pub struct MemoryKeys(Mutex<HashMap<String, String>>);

impl KeyStore for MemoryKeys {
    fn get(&self, account: &str) -> Result<Option<String>> {
        Ok(self.lock().get(account).cloned())
    }

    fn set(&self, account: &str, key: &str) -> Result<()> {
        self.lock().insert(account.to_owned(), key.to_owned());
        Ok(())
    }

    fn delete(&self, account: &str) -> Result<bool> {
        Ok(self.lock().remove(account).is_some())
    }
}

impl MemoryKeys {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, String>> {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// No keys at all: what settings are read with when the keyring is off.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoKeys;

impl KeyStore for NoKeys {
    fn get(&self, _: &str) -> Result<Option<String>> {
        Ok(None)
    }

    fn set(&self, _: &str, _: &str) -> Result<()> {
        Err(Error::Keyring(format!(
            "the keyring is turned off ({KEYRING_VAR}); set the key in HAEMA_LLM_API_KEY or HAEMA_EMBED_API_KEY instead"
        )))
    }

    fn delete(&self, _: &str) -> Result<bool> {
        Ok(false)
    }
}

/// The operating system's keyring.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemKeyring;

/// The system keyring, or [`NoKeys`] when `HAEMA_KEYRING` turns it off (as read by `env`).
pub fn from_env(env: impl Fn(&str) -> Option<String>) -> Box<dyn KeyStore> {
    let off =
        env(KEYRING_VAR).is_some_and(|v| matches!(v.trim().to_lowercase().as_str(), "off" | "0" | "false" | "no"));
    if off { Box::new(NoKeys) } else { Box::new(SystemKeyring) }
}

/// What to tell a person whose keyring cannot be used.
fn unavailable(detail: impl std::fmt::Display) -> Error {
    Error::Keyring(format!(
        "the system keyring cannot be used here ({detail}); set the key in HAEMA_LLM_API_KEY or HAEMA_EMBED_API_KEY instead"
    ))
}

#[cfg(feature = "keyring")]
impl SystemKeyring {
    fn entry(account: &str) -> Result<keyring::Entry> {
        keyring::Entry::new(SERVICE, account).map_err(unavailable)
    }
}

#[cfg(feature = "keyring")]
impl KeyStore for SystemKeyring {
    fn get(&self, account: &str) -> Result<Option<String>> {
        match Self::entry(account)?.get_password() {
            Ok(key) => Ok(Some(key)),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(unavailable(e)),
        }
    }

    fn set(&self, account: &str, key: &str) -> Result<()> {
        Self::entry(account)?.set_password(key).map_err(unavailable)
    }

    fn delete(&self, account: &str) -> Result<bool> {
        match Self::entry(account)?.delete_credential() {
            Ok(()) => Ok(true),
            Err(keyring::Error::NoEntry) => Ok(false),
            Err(e) => Err(unavailable(e)),
        }
    }
}

#[cfg(not(feature = "keyring"))]
impl KeyStore for SystemKeyring {
    fn get(&self, _: &str) -> Result<Option<String>> {
        Ok(None)
    }

    fn set(&self, _: &str, _: &str) -> Result<()> {
        Err(unavailable("this haema was built without the `keyring` feature"))
    }

    fn delete(&self, _: &str) -> Result<bool> {
        Ok(false)
    }
}

/// `sk-…wxyz` for a key, so that people can tell keys apart without seeing them.
///
/// ```
/// assert_eq!(haema_core::keys::mask("sk-proj-abcdefwxyz"), "sk-…wxyz");
/// assert_eq!(haema_core::keys::mask("short"), "set (hidden)");
/// ```
pub fn mask(secret: &str) -> String {
    let chars: Vec<char> = secret.chars().collect();
    if chars.len() <= 8 {
        return "set (hidden)".to_owned();
    }
    let head: String = chars[..3].iter().collect();
    let tail: String = chars[chars.len() - 4..].iter().collect();
    format!("{head}…{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_keyring_is_off_only_when_asked() {
        let off = |v: &'static str| move |name: &str| (name == KEYRING_VAR).then(|| v.to_owned());
        for v in ["off", "OFF", " 0", "false", "no"] {
            assert!(from_env(off(v)).set("a", "b").is_err(), "{v}");
        }
        assert!(from_env(off("off")).get("a").is_ok_and(|k| k.is_none()));
    }

    #[test]
    fn accounts_are_base_urls_without_a_trailing_slash() {
        assert_eq!(
            account_for(ProviderKind::Openai, Some("http://127.0.0.1:11434/v1/")),
            "http://127.0.0.1:11434/v1"
        );
        assert_eq!(
            account_for(ProviderKind::Openai, Some("  ")),
            "https://api.openai.com/v1"
        );
    }
}
