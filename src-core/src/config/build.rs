//! Building the configured LLM and embedder.

use std::sync::Arc;
use std::time::Duration;

use super::{ProviderKind, Settings};
use crate::error::{Error, Result};
use crate::provider::gemini::{GeminiEmbedder, GeminiLlm};
use crate::provider::openai::{OpenAiEmbedder, OpenAiLlm, OpenAiSettings};
use crate::provider::{Embedder, Llm, RetryPolicy};

/// Dimensions of well-known embedding models.
fn known_dims(model: &str) -> Option<usize> {
    let name = model.rsplit('/').next().unwrap_or(model);
    let name = name.split(':').next().unwrap_or(name);
    match name {
        "text-embedding-3-small" | "text-embedding-ada-002" => Some(1536),
        "text-embedding-3-large" => Some(3072),
        "nomic-embed-text" => Some(768),
        "mxbai-embed-large" => Some(1024),
        "all-minilm" | "all-MiniLM-L6-v2" | "bge-small-en-v1.5" => Some(384),
        "gemini-embedding-001" => Some(3072),
        "text-embedding-004" => Some(768),
        _ => None,
    }
}

impl Settings {
    /// HTTP settings of a provider; a key is required at the provider's own public API.
    fn http(
        kind: ProviderKind,
        base_url: Option<&String>,
        model: String,
        api_key: Option<String>,
        timeout_secs: u64,
        max_retries: u32,
        key_var: &str,
    ) -> Result<OpenAiSettings> {
        if kind.lacks_key(base_url.map(String::as_str), api_key.as_deref()) {
            let base_url = base_url.map_or(kind.default_base_url(), String::as_str);
            return Err(Error::Config(format!(
                "{base_url} needs an API key: save one in the system keyring (the desktop's AI settings, or haema setup) or set {key_var}"
            )));
        }
        let base_url = base_url.cloned().unwrap_or_else(|| kind.default_base_url().to_owned());
        if !(base_url.starts_with("http://") || base_url.starts_with("https://")) {
            return Err(Error::Config(format!(
                "base URL `{base_url}` must start with http:// or https://"
            )));
        }
        Ok(OpenAiSettings {
            base_url,
            model,
            api_key,
            timeout: Duration::from_secs(timeout_secs.max(1)),
            retry: RetryPolicy {
                max_retries,
                ..RetryPolicy::default()
            },
        })
    }

    /// Builds the configured LLM, or `None`.
    ///
    /// ```
    /// use haema_core::Settings;
    /// # let store = tempfile::tempdir()?;
    /// let env = |name: &str| match name {
    ///     "HAEMA_LLM" => Some("openai".to_string()),
    ///     "HAEMA_LLM_BASE_URL" => Some("http://127.0.0.1:11434/v1".to_string()), // a local server
    ///     _ => None,
    /// };
    /// let settings = Settings::load_with_env(store.path(), env)?;
    /// let llm = settings.build_llm()?.ok_or("no LLM configured")?; // no request is made yet
    /// assert_eq!(llm.id(), "openai:gpt-4o-mini");
    /// assert!(Settings::default().build_llm()?.is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn build_llm(&self) -> Result<Option<Arc<dyn Llm>>> {
        let llm = &self.llm;
        if matches!(llm.provider, ProviderKind::None | ProviderKind::Local) {
            return Ok(None);
        }
        let model = llm
            .model
            .clone()
            .unwrap_or_else(|| default_llm_model(llm.provider).to_owned());
        let s = Self::http(
            llm.provider,
            llm.base_url.as_ref(),
            model,
            llm.api_key.clone(),
            llm.timeout_secs,
            llm.max_retries,
            "HAEMA_LLM_API_KEY",
        )?;
        Ok(Some(match llm.provider {
            ProviderKind::Gemini => Arc::new(GeminiLlm::new(s)?),
            _ => Arc::new(OpenAiLlm::new(s)?),
        }))
    }

    /// Builds the configured embedder, or `None` (lexical search only).
    ///
    /// ```
    /// use haema_core::Settings;
    /// use haema_core::config::ProviderKind;
    /// let mut settings = Settings::default();
    /// settings.embedder.provider = Some(ProviderKind::None);
    /// assert!(settings.build_embedder()?.is_none()); // lexical only
    /// settings.embedder.provider = Some(ProviderKind::Openai); // the public API needs a key
    /// assert!(settings.build_embedder().is_err());
    /// settings.embedder.api_key = Some("sk-test".into());
    /// assert_eq!(settings.build_embedder()?.map(|e| e.dims()), Some(1536)); // text-embedding-3-small
    /// # Ok::<(), haema_core::Error>(())
    /// ```
    pub fn build_embedder(&self) -> Result<Option<Arc<dyn Embedder>>> {
        let e = &self.embedder;
        let kind = e.kind();
        match kind {
            ProviderKind::None => return Ok(None),
            ProviderKind::Local => return self.build_local_embedder(),
            ProviderKind::Openai | ProviderKind::Gemini => {}
        }
        let model = e.model_name();
        let dims = e.dims.or_else(|| known_dims(&model)).ok_or_else(|| {
            Error::Config(format!(
                "the dimension of embedding model `{model}` is not known; set HAEMA_EMBED_DIMS"
            ))
        })?;
        let send_dimensions = e.dims.is_some() && model.starts_with("text-embedding-3");
        let s = Self::http(
            kind,
            e.base_url.as_ref(),
            model,
            e.api_key.clone(),
            e.timeout_secs,
            e.max_retries,
            "HAEMA_EMBED_API_KEY",
        )?;
        Ok(Some(match kind {
            ProviderKind::Gemini => Arc::new(GeminiEmbedder::new(s, dims)?),
            _ => Arc::new(OpenAiEmbedder::new(s, dims, send_dimensions)?),
        }))
    }
}

/// The LLM used when none is named.
pub(crate) fn default_llm_model(kind: ProviderKind) -> &'static str {
    match kind {
        ProviderKind::Gemini => "gemini-2.5-flash",
        _ => "gpt-4o-mini",
    }
}

/// The embedding model used when none is named.
pub(crate) fn default_embed_model(kind: ProviderKind) -> &'static str {
    match kind {
        ProviderKind::Gemini => "gemini-embedding-001",
        ProviderKind::Local => "sentence-transformers/all-MiniLM-L6-v2",
        _ => "text-embedding-3-small",
    }
}

impl Settings {
    #[cfg(feature = "local-embed")]
    fn build_local_embedder(&self) -> Result<Option<Arc<dyn Embedder>>> {
        use crate::provider::local::LocalEmbedder;
        let model = self
            .embedder
            .model
            .as_deref()
            .unwrap_or(default_embed_model(ProviderKind::Local));
        let embedder = LocalEmbedder::load(model, self.embedder.batch_size)?;
        if let Some(dims) = self.embedder.dims.filter(|d| *d != embedder.dims()) {
            return Err(Error::Config(format!(
                "HAEMA_EMBED_DIMS is {dims} but the local model `{model}` makes {}-number vectors; unset HAEMA_EMBED_DIMS",
                embedder.dims()
            )));
        }
        Ok(Some(Arc::new(embedder)))
    }

    #[cfg(not(feature = "local-embed"))]
    fn build_local_embedder(&self) -> Result<Option<Arc<dyn Embedder>>> {
        Err(Error::Config("this haema was built without the local embedder (feature `local-embed`); use HAEMA_EMBEDDER=openai or rebuild with it".into()))
    }
}
