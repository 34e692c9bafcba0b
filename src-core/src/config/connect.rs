//! Connecting an AI or a search model in plain choices, for people who never write a
//! settings file: "no AI", "an AI on this computer" (Ollama), OpenAI, Google Gemini or
//! "another service" (any OpenAI-compatible base URL). A [`Connection`] says which, turns
//! into the same settings `haema config` documents, and keeps its key in the OS keyring.
//! `haema setup` and the desktop's AI settings both go through it.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{ProviderKind, Settings};
use crate::error::{Error, Result};
use crate::keys::{KeyStore, account_for};
use crate::provider::ollama;

closed_set! {
    /// Where an AI (or a search model) runs.
    pub enum Service ("service") {
        /// No AI: what is added is kept as given (for search: by words only).
        None = "none",
        /// The model that comes with haema, run on this computer (search models only).
        Builtin = "builtin",
        /// An Ollama server on this computer.
        ThisComputer = "this_computer",
        /// OpenAI's API.
        Openai = "openai",
        /// Google's Gemini API.
        Gemini = "gemini",
        /// Any other OpenAI-compatible service, at its base URL.
        Other = "other",
    }
}

closed_set! {
    /// What a connection is for.
    pub enum Role ("role") {
        /// The LLM that splits, merges and updates the profile.
        Llm = "llm",
        /// The embedding model that search by meaning uses.
        Embedder = "embedder",
    }
}

/// One choice of service for one role, as a person makes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct Connection {
    /// What it is for.
    pub role: Role,
    /// Where it runs.
    pub service: Service,
    /// The model's name; `None` for the service's default.
    pub model: Option<String>,
    /// The address: the Ollama server for [`Service::ThisComputer`]
    /// (`http://127.0.0.1:11434` when `None`), the base URL for [`Service::Other`].
    pub address: Option<String>,
}

/// What the window and `haema setup` show of a role's connection now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct ConnectionState {
    /// The connection the settings describe.
    pub connection: Connection,
    /// The model in force, the default filled in.
    pub model_in_force: String,
    /// "a key is saved, ending in …": the last four characters of the key in force, never
    /// more; `None` when there is none.
    pub key_ending: Option<String>,
    /// Where the key in force comes from: `environment` (which wins) or `keyring`.
    pub key_from: Option<String>,
    /// Whether this service needs a key at all.
    pub needs_key: bool,
}

impl Connection {
    /// The settings this choice writes, in `haema config` names; `None` removes a line.
    ///
    /// ```
    /// use haema_core::config::connect::{Connection, Role, Service};
    /// let ollama = Connection { role: Role::Llm, service: Service::ThisComputer, model: Some("llama3.1:8b".into()), address: None };
    /// assert_eq!(ollama.setting_lines()?, [
    ///     ("llm.provider", Some("openai".to_string())),
    ///     ("llm.base_url", Some("http://127.0.0.1:11434/v1".to_string())),
    ///     ("llm.model", Some("llama3.1:8b".to_string())),
    /// ]);
    /// # Ok::<(), haema_core::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when the choice is missing what it needs (a model for
    /// this computer, an address for another service) or does not fit the role.
    pub fn setting_lines(&self) -> Result<Vec<(&'static str, Option<String>)>> {
        let (provider, base_url, model) = match self.service {
            Service::None => (ProviderKind::None, None, None),
            Service::Builtin if self.role == Role::Embedder => (ProviderKind::Local, None, None),
            Service::Builtin => {
                return Err(Error::InvalidArgument(
                    "haema has no built-in AI for writing; choose an AI on this computer or a service".into(),
                ));
            }
            Service::ThisComputer => {
                let server = self
                    .address
                    .as_deref()
                    .map(str::trim)
                    .filter(|a| !a.is_empty())
                    .unwrap_or(ollama::DEFAULT_URL);
                (
                    ProviderKind::Openai,
                    Some(ollama::api_base(server)),
                    Some(self.required_model()?),
                )
            }
            Service::Openai => (ProviderKind::Openai, None, self.model()),
            Service::Gemini => (ProviderKind::Gemini, None, self.model()),
            Service::Other => {
                let url = self
                    .address
                    .as_deref()
                    .map(str::trim)
                    .filter(|a| !a.is_empty())
                    .ok_or_else(|| {
                        Error::InvalidArgument(
                            "give the service's address (its base URL, such as https://llm.example.com/v1)".into(),
                        )
                    })?;
                if !(url.starts_with("http://") || url.starts_with("https://")) {
                    return Err(Error::InvalidArgument(format!(
                        "the address {url:?} must start with http:// or https://"
                    )));
                }
                (
                    ProviderKind::Openai,
                    Some(url.trim_end_matches('/').to_owned()),
                    Some(self.required_model()?),
                )
            }
        };
        let names: [&'static str; 3] = match self.role {
            Role::Llm => ["llm.provider", "llm.base_url", "llm.model"],
            Role::Embedder => ["embedder.provider", "embedder.base_url", "embedder.model"],
        };
        let mut lines = vec![
            (names[0], Some(provider.as_str().to_owned())),
            (names[1], base_url),
            (names[2], model),
        ];
        if self.role == Role::Embedder {
            // A known model's dimension is known; another's is found by the test call.
            lines.push(("embedder.dims", None));
        }
        Ok(lines)
    }

    /// `settings` with this choice in force and `key` (or the key saved for the service)
    /// as its key: what a test call is made with before anything is saved.
    ///
    /// # Errors
    /// As [`Connection::setting_lines`].
    pub fn applied_to(&self, settings: &Settings, key: Option<&str>, keys: &dyn KeyStore) -> Result<Settings> {
        let mut s = settings.clone();
        for (name, value) in self.setting_lines()? {
            match (name, value) {
                ("llm.provider", Some(v)) => s.llm.provider = ProviderKind::from_setting(&v)?,
                ("llm.base_url", v) => s.llm.base_url = v,
                ("llm.model", v) => s.llm.model = v,
                ("embedder.provider", Some(v)) => s.embedder.provider = Some(ProviderKind::from_setting(&v)?),
                ("embedder.base_url", v) => s.embedder.base_url = v,
                ("embedder.model", v) => s.embedder.model = v,
                ("embedder.dims", v) => s.embedder.dims = v.and_then(|d| d.parse().ok()),
                _ => {}
            }
        }
        let key = key.map(str::trim).filter(|k| !k.is_empty()).map(str::to_owned);
        match self.role {
            Role::Llm => s.llm.api_key = key,
            Role::Embedder => s.embedder.api_key = key,
        }
        let _ = s.fill_keys(keys);
        Ok(s)
    }

    /// Saves the choice: `key` (when given) into the keyring under the service's account,
    /// then the settings into the store's `haema.toml` in one write. Nothing is written
    /// when the key cannot be saved.
    ///
    /// ```
    /// use haema_core::Settings;
    /// use haema_core::config::connect::{Connection, Role, Service};
    /// use haema_core::keys::{KeyStore, MemoryKeys};
    /// let store = tempfile::tempdir()?;
    /// let keys = MemoryKeys::default();
    /// let openai = Connection { role: Role::Llm, service: Service::Openai, model: None, address: None };
    /// openai.save(store.path(), Some("sk-proj-1234567890abcd"), &keys)?;
    /// let text = std::fs::read_to_string(Settings::file_path(store.path()))?;
    /// assert_eq!(text, "[llm]\nprovider = \"openai\"\n"); // no key in the file
    /// assert_eq!(keys.get("https://api.openai.com/v1")?.as_deref(), Some("sk-proj-1234567890abcd"));
    /// let state = Connection::state(&Settings::load_with_keys(store.path(), None, |_| None, &keys)?, Role::Llm, |_| None);
    /// assert_eq!((state.connection.service, state.key_ending.as_deref()), (Service::Openai, Some("abcd")));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`Connection::setting_lines`]; [`Error::Keyring`] when the key cannot be saved;
    /// [`Error::Io`] when the file cannot be written.
    pub fn save(&self, store: &Path, key: Option<&str>, keys: &dyn KeyStore) -> Result<()> {
        let lines = self.setting_lines()?;
        let written: Vec<(&str, Option<&str>)> = lines.iter().map(|(n, v)| (*n, v.as_deref())).collect();
        if let Some(key) = key {
            self.save_key(key, keys)?;
        }
        Settings::write_settings(store, &written)
    }

    /// Saves `key` into the keyring under this choice's service, and nothing else; a blank
    /// key saves nothing.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a key with a space or line break in it (a bad copy),
    /// [`Error::Keyring`] when the keyring cannot take it.
    pub fn save_key(&self, key: &str, keys: &dyn KeyStore) -> Result<()> {
        let key = key.trim();
        if key.is_empty() {
            return Ok(());
        }
        if key.chars().any(char::is_whitespace) {
            return Err(Error::InvalidArgument(
                "the key has a space or a line break in it; copy it again, on its own".into(),
            ));
        }
        keys.set(&self.account()?, key)
    }

    /// Removes the key saved for this choice's service; `false` when there was none.
    ///
    /// # Errors
    /// [`Error::Keyring`] when the keyring cannot be reached.
    pub fn forget_key(&self, keys: &dyn KeyStore) -> Result<bool> {
        keys.delete(&self.account()?)
    }

    /// The keyring account of this choice's service.
    fn account(&self) -> Result<String> {
        let lines = self.setting_lines()?;
        let provider = lines[0]
            .1
            .as_deref()
            .map(ProviderKind::from_setting)
            .transpose()?
            .unwrap_or_default();
        Ok(account_for(provider, lines[1].1.as_deref()))
    }

    /// What `settings` say of `role`, in these choices; `env` tells whether a key comes
    /// from the environment.
    pub fn state(settings: &Settings, role: Role, env: impl Fn(&str) -> Option<String>) -> ConnectionState {
        let (provider, base_url, model, key, var) = match role {
            Role::Llm => (
                settings.llm.provider,
                settings.llm.base_url.clone(),
                settings.llm.model.clone(),
                settings.llm.api_key.as_deref(),
                "HAEMA_LLM_API_KEY",
            ),
            Role::Embedder => (
                settings.embedder.kind(),
                settings.embedder.base_url.clone(),
                settings.embedder.model.clone(),
                settings.embedder.api_key.as_deref(),
                "HAEMA_EMBED_API_KEY",
            ),
        };
        let (service, address) = match provider {
            ProviderKind::None => (Service::None, None),
            ProviderKind::Local => (Service::Builtin, None),
            ProviderKind::Gemini => (Service::Gemini, None),
            ProviderKind::Openai => match base_url.as_deref().map(|u| u.trim_end_matches('/')) {
                None => (Service::Openai, None),
                Some(url) if url.starts_with(ProviderKind::Openai.default_base_url()) => (Service::Openai, None),
                Some(url) if is_this_computer(url) => {
                    let server = url.trim_end_matches("/v1");
                    (
                        Service::ThisComputer,
                        (server != ollama::DEFAULT_URL).then(|| server.to_owned()),
                    )
                }
                Some(url) => (Service::Other, Some(url.to_owned())),
            },
        };
        let model_in_force = match (role, provider) {
            (_, ProviderKind::None) => String::new(),
            (Role::Llm, kind) => model
                .clone()
                .unwrap_or_else(|| super::default_llm_model(kind).to_owned()),
            (Role::Embedder, _) => settings.embedder.model_name(),
        };
        let key_ending = key.map(|k| k.chars().rev().take(4).collect::<Vec<_>>().into_iter().rev().collect());
        let key_from = key.map(|_| {
            if env(var).is_some_and(|v| !v.is_empty()) {
                "environment"
            } else {
                "keyring"
            }
            .to_owned()
        });
        ConnectionState {
            connection: Connection {
                role,
                service,
                model,
                address,
            },
            model_in_force,
            key_ending,
            key_from,
            needs_key: matches!(service, Service::Openai | Service::Gemini),
        }
    }

    fn model(&self) -> Option<String> {
        self.model
            .as_deref()
            .map(str::trim)
            .filter(|m| !m.is_empty())
            .map(str::to_owned)
    }

    fn required_model(&self) -> Result<String> {
        self.model().ok_or_else(|| {
            Error::InvalidArgument(match self.service {
                Service::ThisComputer => {
                    "choose one of the models installed on this computer (or install one: ollama pull llama3.1:8b)"
                        .into()
                }
                _ => "give the name of the model to use".into(),
            })
        })
    }
}

/// Whether `url` is an Ollama on this computer (its default port on a loopback address).
fn is_this_computer(url: &str) -> bool {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let host_port = rest.split('/').next().unwrap_or_default();
    let host = host_port.rsplit_once(':').map_or(host_port, |(h, _)| h);
    matches!(host, "127.0.0.1" | "localhost" | "[::1]") && url.trim_end_matches('/').ends_with("/v1")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::MemoryKeys;

    fn conn(role: Role, service: Service, model: Option<&str>, address: Option<&str>) -> Connection {
        Connection {
            role,
            service,
            model: model.map(str::to_owned),
            address: address.map(str::to_owned),
        }
    }

    #[test]
    fn each_choice_reads_back_as_itself() {
        let keys = MemoryKeys::default();
        let choices = [
            conn(Role::Llm, Service::None, None, None),
            conn(
                Role::Llm,
                Service::ThisComputer,
                Some("qwen2.5:7b"),
                Some("http://127.0.0.1:5555"),
            ),
            conn(Role::Llm, Service::Openai, Some("gpt-4.1-mini"), None),
            conn(Role::Llm, Service::Gemini, None, None),
            conn(
                Role::Llm,
                Service::Other,
                Some("mixtral"),
                Some("https://llm.example.com/v1"),
            ),
            conn(Role::Embedder, Service::Builtin, None, None),
            conn(Role::Embedder, Service::None, None, None),
            conn(
                Role::Embedder,
                Service::ThisComputer,
                Some("nomic-embed-text"),
                Some("http://localhost:11434"),
            ),
        ];
        for choice in choices {
            let store = tempfile::tempdir().unwrap();
            choice.save(store.path(), None, &keys).unwrap();
            let settings = Settings::load_with_keys(store.path(), None, |_| None, &keys).unwrap();
            assert_eq!(Connection::state(&settings, choice.role, |_| None).connection, choice);
        }
    }

    #[test]
    fn what_a_choice_lacks_is_said_and_nothing_is_written() {
        let keys = MemoryKeys::default();
        let store = tempfile::tempdir().unwrap();
        for bad in [
            conn(Role::Llm, Service::ThisComputer, None, None),
            conn(Role::Llm, Service::Other, Some("m"), None),
            conn(Role::Llm, Service::Other, Some("m"), Some("llm.example.com")),
            conn(Role::Llm, Service::Builtin, None, None),
        ] {
            assert!(matches!(
                bad.save(store.path(), Some("sk-1234567890"), &keys),
                Err(Error::InvalidArgument(_))
            ));
        }
        let spaced = conn(Role::Llm, Service::Openai, None, None);
        assert!(spaced.save(store.path(), Some("sk-12345 67890"), &keys).is_err());
        assert!(!Settings::file_path(store.path()).exists());
        assert_eq!(keys.get("https://api.openai.com/v1").unwrap(), None);
    }

    #[test]
    fn a_key_from_the_environment_is_told_and_wins() {
        let keys = MemoryKeys::default();
        keys.set("https://api.openai.com/v1", "sk-saved-in-keyring-1111")
            .unwrap();
        let store = tempfile::tempdir().unwrap();
        conn(Role::Llm, Service::Openai, None, None)
            .save(store.path(), None, &keys)
            .unwrap();
        let env = |n: &str| (n == "HAEMA_LLM_API_KEY").then(|| "sk-from-env-2222".to_owned());
        let settings = Settings::load_with_keys(store.path(), None, env, &keys).unwrap();
        let state = Connection::state(&settings, Role::Llm, env);
        assert_eq!(
            (state.key_ending.as_deref(), state.key_from.as_deref()),
            (Some("2222"), Some("environment"))
        );
        assert!(state.needs_key);
        let applied = conn(Role::Llm, Service::Openai, None, None)
            .applied_to(&Settings::default(), None, &keys)
            .unwrap();
        assert_eq!(applied.llm.api_key.as_deref(), Some("sk-saved-in-keyring-1111"));
        let typed = conn(Role::Llm, Service::Openai, None, None)
            .applied_to(&Settings::default(), Some(" sk-typed-3333 "), &keys)
            .unwrap();
        assert_eq!(typed.llm.api_key.as_deref(), Some("sk-typed-3333"));
    }
}
