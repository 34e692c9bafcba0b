//! Where each effective setting comes from: the environment, the file, or the default.

use std::path::Path;

use serde::Serialize;

use super::{ProviderKind, Settings};
use crate::{Error, Result};

/// Where a setting's value came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// An environment variable.
    Env,
    /// `<store>/haema.toml`.
    File,
    /// Built in.
    Default,
}

/// One effective setting.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SettingLine {
    /// Dotted name as in haema.toml (`llm.model`), or `store`.
    pub key: String,
    /// Effective value; secrets masked.
    pub value: String,
    /// Where it came from.
    pub source: Source,
    /// The environment variable that sets it.
    pub env: String,
}

/// `sk-…wxyz` for a key, so that people can tell keys apart without seeing them.
pub fn mask(secret: &str) -> String {
    let chars: Vec<char> = secret.chars().collect();
    if chars.len() <= 8 {
        return "set (hidden)".to_owned();
    }
    let head: String = chars[..3].iter().collect();
    let tail: String = chars[chars.len() - 4..].iter().collect();
    format!("{head}…{tail}")
}

fn provider_name(kind: ProviderKind) -> &'static str {
    match kind {
        ProviderKind::None => "none",
        ProviderKind::Openai => "openai",
        ProviderKind::Local => "local",
        ProviderKind::Gemini => "gemini",
    }
}

impl Settings {
    /// The effective settings of a store with their sources, for `haema config`.
    pub fn explain(store: &Path, env: impl Fn(&str) -> Option<String>) -> Result<Vec<SettingLine>> {
        let settings = Self::load_with_env(store, &env)?;
        let path = Self::file_path(store);
        let file: toml::Table = match std::fs::read_to_string(&path) {
            Ok(text) => text
                .parse()
                .map_err(|e| Error::Config(format!("{}: {e}", path.display())))?,
            Err(_) => toml::Table::new(),
        };
        let in_file = |key: &str| {
            let mut parts = key.split('.');
            let first = parts.next().unwrap_or_default();
            match parts.next() {
                Some(second) => file.get(first).and_then(|t| t.get(second)).is_some(),
                None => file.get(first).is_some(),
            }
        };
        let set = |name: &str| env(name).is_some_and(|v| !v.is_empty());
        let (llm, emb) = (&settings.llm, &settings.embedder);
        let default_url = |kind: ProviderKind| super::default_base_url(kind).to_owned();
        let rows: Vec<(&str, String, &str)> = vec![
            (
                "review",
                serde_json::to_value(settings.review)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default(),
                "HAEMA_REVIEW",
            ),
            ("merge.top_k", settings.merge.top_k.to_string(), "HAEMA_MERGE_TOP_K"),
            (
                "merge.distance_cutoff",
                settings.merge.distance_cutoff.to_string(),
                "HAEMA_MERGE_DISTANCE_CUTOFF",
            ),
            ("llm.provider", provider_name(llm.provider).to_owned(), "HAEMA_LLM"),
            (
                "llm.base_url",
                llm.base_url.clone().unwrap_or_else(|| default_url(llm.provider)),
                "HAEMA_LLM_BASE_URL",
            ),
            (
                "llm.model",
                llm.model
                    .clone()
                    .unwrap_or_else(|| super::default_llm_model(llm.provider).to_owned()),
                "HAEMA_LLM_MODEL",
            ),
            (
                "llm.api_key",
                llm.api_key.as_deref().map_or_else(|| "not set".to_owned(), mask),
                "HAEMA_LLM_API_KEY",
            ),
            ("llm.timeout_secs", llm.timeout_secs.to_string(), ""),
            ("llm.max_retries", llm.max_retries.to_string(), ""),
            (
                "embedder.provider",
                provider_name(emb.kind()).to_owned(),
                "HAEMA_EMBEDDER",
            ),
            (
                "embedder.base_url",
                emb.base_url.clone().unwrap_or_else(|| default_url(emb.kind())),
                "HAEMA_EMBED_BASE_URL",
            ),
            ("embedder.model", emb.model_name(), "HAEMA_EMBED_MODEL"),
            (
                "embedder.dims",
                emb.dims.map_or_else(|| "the model's own".to_owned(), |d| d.to_string()),
                "HAEMA_EMBED_DIMS",
            ),
            ("embedder.batch_size", emb.batch_size.to_string(), ""),
            (
                "embedder.api_key",
                emb.api_key.as_deref().map_or_else(|| "not set".to_owned(), mask),
                "HAEMA_EMBED_API_KEY",
            ),
            ("embedder.timeout_secs", emb.timeout_secs.to_string(), ""),
            ("embedder.max_retries", emb.max_retries.to_string(), ""),
        ];
        Ok(rows
            .into_iter()
            .map(|(key, value, var)| {
                let source = if !var.is_empty() && set(var) {
                    Source::Env
                } else if in_file(key) {
                    Source::File
                } else {
                    Source::Default
                };
                SettingLine {
                    key: key.to_owned(),
                    value,
                    source,
                    env: var.to_owned(),
                }
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_and_masking() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("haema.toml"),
            "[merge]\ntop_k = 5\n[llm]\nprovider = \"openai\"\n",
        )
        .unwrap();
        let env = |name: &str| match name {
            "HAEMA_LLM_MODEL" => Some("llama3.1:8b".to_owned()),
            "HAEMA_LLM_API_KEY" => Some("sk-proj-abcdefghijklmnop1234".to_owned()),
            _ => None,
        };
        let lines = Settings::explain(dir.path(), env).unwrap();
        let find = |k: &str| lines.iter().find(|l| l.key == k).unwrap().clone();
        assert_eq!(
            (find("merge.top_k").value.as_str(), find("merge.top_k").source),
            ("5", Source::File)
        );
        assert_eq!(
            (find("llm.provider").value.as_str(), find("llm.provider").source),
            ("openai", Source::File)
        );
        assert_eq!(
            (find("llm.model").value.as_str(), find("llm.model").source),
            ("llama3.1:8b", Source::Env)
        );
        assert_eq!(find("review").source, Source::Default);
        let key = find("llm.api_key");
        assert_eq!((key.value.as_str(), key.source), ("sk-…1234", Source::Env));
        assert!(lines.iter().all(|l| !l.value.contains("abcdefghijklmnop")));
        assert_eq!(mask("short"), "set (hidden)");
    }
}
