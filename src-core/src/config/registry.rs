//! Every setting haema has, declared once: its name and file key, its environment variable,
//! the default people are shown, its allowed values and a line of help.
//!
//! The loader applies environment variables through this table, `haema config` lists it, a
//! front end can serialise it, and tests hold the table of docs/configuration.md and the [`Settings`] fields
//! to it.

use serde::Serialize;

use super::ProviderKind;
use crate::keys::mask;

pub use super::dotted::dotted_leaves;
pub(crate) use super::dotted::{as_written, env_of, lookup, origin};
pub use super::setting_spec::{ReadBy, SettingFile, SettingSpec};

fn parse<T: std::str::FromStr>(value: &str) -> Result<T, String>
where
    T::Err: std::fmt::Display,
{
    value.trim().parse().map_err(|e: T::Err| e.to_string())
}

/// A provider setting: a blank value is `none` ([`ProviderKind::from_setting`]).
fn provider(value: &str) -> Result<ProviderKind, String> {
    ProviderKind::from_setting(value).map_err(|e| e.to_string())
}

fn shown<T: Serialize>(value: &T) -> String {
    match serde_json::to_value(value) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(other) => other.to_string(),
        Err(_) => String::new(),
    }
}

fn secret(key: Option<&String>) -> String {
    key.map_or_else(|| "not set".to_owned(), |k| mask(k))
}

const BASE: SettingSpec = SettingSpec {
    name: "",
    file: Some(SettingFile::Store),
    env: None,
    default: "",
    allowed: &[],
    help: "",
    read_by: ReadBy::Settings,
    set: None,
    show: None,
};

/// The providers an LLM can be: every one but `local`, which only embeds.
const LLM_PROVIDERS: &[&str] = &[
    ProviderKind::None.as_str(),
    ProviderKind::Openai.as_str(),
    ProviderKind::Gemini.as_str(),
];
const DEFAULT_KEYS: &str = "the bindings on the help screen (?)";

/// Every setting, in the order `haema config` and docs/configuration.md list them.
pub static SETTINGS: &[SettingSpec] = &[
    SettingSpec {
        name: "store",
        file: Some(SettingFile::User),
        env: Some("HAEMA_STORE"),
        default: "$XDG_DATA_HOME/haema/default",
        help: "the store the front ends open: a folder, a name beside the default one, or a postgres:// URL (the command line's --store wins, then HAEMA_STORE, then config.toml)",
        read_by: ReadBy::FrontEnd,
        ..BASE
    },
    SettingSpec {
        name: "review",
        env: Some("HAEMA_REVIEW"),
        default: "guarded",
        allowed: super::ReviewPolicy::SPELLINGS,
        help: "what happens to a changeset: auto commits it, review waits for a person, guarded waits only when it removes a memory, changes core or holds text that reads like a prompt injection",
        set: Some(|s, v| {
            s.review = parse(v)?;
            Ok(())
        }),
        show: Some(|s| shown(&s.review)),
        ..BASE
    },
    SettingSpec {
        name: "secrets.policy",
        env: Some("HAEMA_SECRETS_POLICY"),
        default: "redact",
        allowed: crate::secrets::SecretPolicy::SPELLINGS,
        help: "what happens to a change whose text holds a secret (an API key, a token, a password): redact stores it with a marker such as [secret: aws access key] in place of each secret; hold does the same and leaves the change for review. The secret itself is never stored",
        set: Some(|s, v| {
            s.secrets.policy = parse(v)?;
            Ok(())
        }),
        show: Some(|s| shown(&s.secrets.policy)),
        ..BASE
    },
    SettingSpec {
        name: "scope",
        default: "shared",
        allowed: super::StoreScope::SPELLINGS,
        help: "per_user keeps each user's memories apart: every read and write must name a user (--user / HAEMA_USER) and sees only that user's memories; once used, a store stays per_user",
        show: Some(|s| shown(&s.scope)),
        ..BASE
    },
    SettingSpec {
        name: "user",
        file: None,
        env: Some("HAEMA_USER"),
        default: "none",
        help: "whose memories to read and write, in a store with scope = \"per_user\" (the command line's --user wins)",
        read_by: ReadBy::FrontEnd,
        ..BASE
    },
    SettingSpec {
        name: "keyring",
        file: None,
        env: Some("HAEMA_KEYRING"),
        default: "on",
        allowed: &["on", "off"],
        help: "off keeps haema from asking the OS keyring for API keys, which then come from HAEMA_LLM_API_KEY and HAEMA_EMBED_API_KEY only",
        read_by: ReadBy::FrontEnd,
        ..BASE
    },
    SettingSpec {
        name: "hook_log",
        file: None,
        env: Some("HAEMA_HOOK_LOG"),
        default: "$XDG_STATE_HOME/haema/hooks.log",
        help: "the file where `haema hook` says why it answered an agent's hook nothing (docs/claude-code.md)",
        read_by: ReadBy::FrontEnd,
        ..BASE
    },
    SettingSpec {
        name: "ollama_url",
        file: None,
        env: Some("HAEMA_OLLAMA_URL"),
        default: "http://127.0.0.1:11434",
        help: "where haema setup and the desktop's AI settings look for an AI on this computer (Ollama) and its installed models",
        read_by: ReadBy::FrontEnd,
        ..BASE
    },
    SettingSpec {
        name: "merge.top_k",
        env: Some("HAEMA_MERGE_TOP_K"),
        default: "3",
        help: "related memories looked up per new content (> 0)",
        set: Some(|s, v| {
            s.merge.top_k = parse(v)?;
            Ok(())
        }),
        show: Some(|s| s.merge.top_k.to_string()),
        ..BASE
    },
    SettingSpec {
        name: "merge.distance_cutoff",
        env: Some("HAEMA_MERGE_DISTANCE_CUTOFF"),
        default: "0.25",
        help: "largest cosine distance (inclusive) at which a memory counts as related (>= 0)",
        set: Some(|s, v| {
            s.merge.distance_cutoff = parse(v)?;
            Ok(())
        }),
        show: Some(|s| s.merge.distance_cutoff.to_string()),
        ..BASE
    },
    SettingSpec {
        name: "recall.max_chars",
        env: Some("HAEMA_RECALL_MAX_CHARS"),
        default: "1000",
        help: "longest memory in a recall block, in characters (> 0); a longer one is cut and marked as cut",
        set: Some(|s, v| {
            s.recall.max_chars = parse(v)?;
            Ok(())
        }),
        show: Some(|s| s.recall.max_chars.to_string()),
        ..BASE
    },
    SettingSpec {
        name: "recall.timeout_ms",
        env: Some("HAEMA_RECALL_TIMEOUT_MS"),
        default: "500",
        help: "how long a recall waits for its search, in ms, before it answers with core and the newest memories alone (0: no limit)",
        set: Some(|s, v| {
            s.recall.timeout_ms = parse(v)?;
            Ok(())
        }),
        show: Some(|s| s.recall.timeout_ms.to_string()),
        ..BASE
    },
    SettingSpec {
        name: "hooks.budget_tokens",
        env: Some("HAEMA_HOOKS_BUDGET_TOKENS"),
        default: "300",
        help: "the most a hook's recall adds to an agent's prompt, in estimated tokens (50 to 32000)",
        set: Some(|s, v| {
            s.hooks.budget_tokens = parse(v)?;
            Ok(())
        }),
        show: Some(|s| s.hooks.budget_tokens.to_string()),
        ..BASE
    },
    SettingSpec {
        name: "hooks.timeout_ms",
        env: Some("HAEMA_HOOKS_TIMEOUT_MS"),
        default: "1500",
        help: "how long a hook may take, in ms, store opening included; past it the hook answers nothing and the prompt goes on",
        set: Some(|s, v| {
            s.hooks.timeout_ms = parse(v)?;
            Ok(())
        }),
        show: Some(|s| s.hooks.timeout_ms.to_string()),
        ..BASE
    },
    SettingSpec {
        name: "search.access_weight",
        env: Some("HAEMA_SEARCH_ACCESS_WEIGHT"),
        default: "0.0",
        help: "how much being returned often before lifts a memory in search and recall, from 0 (off) to 1; it breaks ties between close matches and never lifts a poor match over a good one",
        set: Some(|s, v| {
            s.search.access_weight = parse(v)?;
            Ok(())
        }),
        show: Some(|s| s.search.access_weight.to_string()),
        ..BASE
    },
    SettingSpec {
        name: "llm.provider",
        env: Some("HAEMA_LLM"),
        default: "none",
        allowed: LLM_PROVIDERS,
        help: "the LLM that merges memories: none stores them as given; openai is any OpenAI-compatible server",
        set: Some(|s, v| {
            s.llm.provider = provider(v)?;
            Ok(())
        }),
        show: Some(|s| shown(&s.llm.provider)),
        ..BASE
    },
    SettingSpec {
        name: "llm.base_url",
        env: Some("HAEMA_LLM_BASE_URL"),
        default: "https://api.openai.com/v1; gemini https://generativelanguage.googleapis.com/v1beta",
        help: "the LLM server's URL",
        set: Some(|s, v| {
            s.llm.base_url = Some(v.to_owned());
            Ok(())
        }),
        show: Some(|s| {
            s.llm
                .base_url
                .clone()
                .unwrap_or_else(|| s.llm.provider.default_base_url().to_owned())
        }),
        ..BASE
    },
    SettingSpec {
        name: "llm.model",
        env: Some("HAEMA_LLM_MODEL"),
        default: "gpt-4o-mini; gemini gemini-2.5-flash",
        help: "the LLM's model",
        set: Some(|s, v| {
            s.llm.model = Some(v.to_owned());
            Ok(())
        }),
        show: Some(|s| {
            s.llm
                .model
                .clone()
                .unwrap_or_else(|| super::default_llm_model(s.llm.provider).to_owned())
        }),
        ..BASE
    },
    SettingSpec {
        name: "llm.api_key",
        file: None,
        env: Some("HAEMA_LLM_API_KEY"),
        default: "none",
        help: "the LLM's key, from the environment or else the OS keyring (saved by haema setup or the desktop), never a file; required at the official OpenAI and Gemini URLs",
        set: Some(|s, v| {
            s.llm.api_key = Some(v.to_owned());
            Ok(())
        }),
        show: Some(|s| secret(s.llm.api_key.as_ref())),
        ..BASE
    },
    SettingSpec {
        name: "llm.timeout_secs",
        default: "120",
        help: "seconds one HTTP attempt to the LLM may take",
        show: Some(|s| s.llm.timeout_secs.to_string()),
        ..BASE
    },
    SettingSpec {
        name: "llm.max_retries",
        default: "3",
        help: "retries of the LLM's 429, 5xx and timeouts, with backoff",
        show: Some(|s| s.llm.max_retries.to_string()),
        ..BASE
    },
    SettingSpec {
        name: "llm.add_deadline_secs",
        default: "300",
        help: "seconds all the LLM calls of one add may take together (every stage and retry); past it the add stores what it was given",
        show: Some(|s| s.llm.add_deadline_secs.to_string()),
        ..BASE
    },
    SettingSpec {
        name: "llm.split_short_texts",
        default: "false",
        allowed: &["true", "false"],
        help: "true: a text added as one short fact is split by the LLM too, as HAEMA does (one call more per add); false takes it as it is",
        show: Some(|s| s.llm.split_short_texts.to_string()),
        ..BASE
    },
    SettingSpec {
        name: "embedder.provider",
        env: Some("HAEMA_EMBEDDER"),
        default: "not set: local for a new store; an existing store keeps the embedder it was made with",
        allowed: ProviderKind::SPELLINGS,
        help: "the embedder: none leaves search full-text only; local runs a sentence-transformers model here",
        set: Some(|s, v| {
            s.embedder.provider = Some(provider(v)?);
            Ok(())
        }),
        show: Some(|s| shown(&s.embedder.kind())),
        ..BASE
    },
    SettingSpec {
        name: "embedder.base_url",
        env: Some("HAEMA_EMBED_BASE_URL"),
        default: "https://api.openai.com/v1; gemini https://generativelanguage.googleapis.com/v1beta",
        help: "the embedding server's URL",
        set: Some(|s, v| {
            s.embedder.base_url = Some(v.to_owned());
            Ok(())
        }),
        show: Some(|s| {
            s.embedder
                .base_url
                .clone()
                .unwrap_or_else(|| s.embedder.kind().default_base_url().to_owned())
        }),
        ..BASE
    },
    SettingSpec {
        name: "embedder.model",
        env: Some("HAEMA_EMBED_MODEL"),
        default: "text-embedding-3-small; gemini gemini-embedding-001; local sentence-transformers/all-MiniLM-L6-v2",
        help: "the embedding model; for local a folder or a Hugging Face name",
        set: Some(|s, v| {
            s.embedder.model = Some(v.to_owned());
            Ok(())
        }),
        show: Some(|s| s.embedder.model_name()),
        ..BASE
    },
    SettingSpec {
        name: "embedder.dims",
        env: Some("HAEMA_EMBED_DIMS"),
        default: "the model's own",
        help: "vector length (> 0), sent as dimensions to text-embedding-3-* and as outputDimensionality to Gemini; known and local models have their own",
        set: Some(|s, v| {
            s.embedder.dims = Some(parse(v)?);
            Ok(())
        }),
        show: Some(|s| {
            s.embedder
                .dims
                .map_or_else(|| "the model's own".to_owned(), |d| d.to_string())
        }),
        ..BASE
    },
    SettingSpec {
        name: "embedder.api_key",
        file: None,
        env: Some("HAEMA_EMBED_API_KEY"),
        default: "none",
        help: "the embedder's key, from the environment or else the OS keyring (saved by haema setup or the desktop), never a file; required at the official OpenAI and Gemini URLs",
        set: Some(|s, v| {
            s.embedder.api_key = Some(v.to_owned());
            Ok(())
        }),
        show: Some(|s| secret(s.embedder.api_key.as_ref())),
        ..BASE
    },
    SettingSpec {
        name: "embedder.on_add",
        env: Some("HAEMA_EMBED_ON_ADD"),
        default: "now",
        allowed: super::EmbedOnAdd::SPELLINGS,
        help: "when an add makes its memories' search vectors: now, or later in the background (the add returns at once, even with the embedder down; related memories are then found by words, and a new memory by words until its vector is made)",
        set: Some(|s, v| {
            s.embedder.on_add = parse(v)?;
            Ok(())
        }),
        show: Some(|s| shown(&s.embedder.on_add)),
        ..BASE
    },
    SettingSpec {
        name: "embedder.batch_size",
        default: "32",
        help: "texts per batch of the local embedder (> 0)",
        show: Some(|s| s.embedder.batch_size.to_string()),
        ..BASE
    },
    SettingSpec {
        name: "embedder.timeout_secs",
        default: "60",
        help: "seconds one HTTP attempt to the embedder may take",
        show: Some(|s| s.embedder.timeout_secs.to_string()),
        ..BASE
    },
    SettingSpec {
        name: "embedder.max_retries",
        default: "3",
        help: "retries of the embedder's 429, 5xx and timeouts, with backoff",
        show: Some(|s| s.embedder.max_retries.to_string()),
        ..BASE
    },
    SettingSpec {
        name: "tui.mouse",
        file: Some(SettingFile::User),
        default: "true",
        allowed: &["true", "false"],
        help: "the terminal UI captures the mouse (the wheel scrolls, a click opens a tab); false keeps the terminal's own text selection",
        show: Some(|s| s.tui.mouse.to_string()),
        ..BASE
    },
    SettingSpec {
        name: "tui.keys",
        file: Some(SettingFile::User),
        default: DEFAULT_KEYS,
        help: "key bindings of the terminal UI: an action from the help screen = a key or a list of keys",
        show: Some(|s| {
            if s.tui.keys.is_empty() {
                return DEFAULT_KEYS.to_owned();
            }
            let bound: Vec<String> = s
                .tui
                .keys
                .iter()
                .map(|(action, keys)| format!("{action}={}", keys.keys().join(",")))
                .collect();
            bound.join(" ")
        }),
        ..BASE
    },
    SettingSpec {
        name: "hub.cache",
        file: None,
        env: Some("HF_HUB_CACHE"),
        default: "$HF_HOME/hub",
        help: "where local models are looked for and downloaded to (the older HUGGINGFACE_HUB_CACHE too)",
        read_by: ReadBy::Hub,
        ..BASE
    },
    SettingSpec {
        name: "hub.home",
        file: None,
        env: Some("HF_HOME"),
        default: "$XDG_CACHE_HOME/huggingface (~/.cache/huggingface)",
        help: "Hugging Face's folder, whose hub/ holds the model cache when HF_HUB_CACHE is not set",
        read_by: ReadBy::Hub,
        ..BASE
    },
    SettingSpec {
        name: "hub.endpoint",
        file: None,
        env: Some("HF_ENDPOINT"),
        default: "https://huggingface.co",
        help: "the Hugging Face Hub (or a mirror) local models are downloaded from",
        read_by: ReadBy::Hub,
        ..BASE
    },
    SettingSpec {
        name: "hub.offline",
        file: None,
        env: Some("HF_HUB_OFFLINE"),
        default: "not set",
        help: "1 (or true, yes, on): never download; a missing model leaves search lexical (TRANSFORMERS_OFFLINE too)",
        read_by: ReadBy::Hub,
        ..BASE
    },
];
