//! One real call to the configured LLM or embedder, told in words: what the **Test** button
//! of the desktop's AI settings and `haema setup` show before anything is saved.

use serde::Serialize;
use serde_json::json;

use super::{ProviderKind, Settings};
use crate::error::Error;
use crate::provider::{ProviderError, ProviderErrorKind, StructuredRequest};

/// What a test call found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CheckOutcome {
    /// Whether it worked.
    pub ok: bool,
    /// What happened, in a sentence (`The AI answered: llama3.1 works.`).
    pub said: String,
    /// What to do about it when it did not work.
    pub fix: Option<String>,
}

impl CheckOutcome {
    fn worked(said: impl Into<String>) -> Self {
        Self {
            ok: true,
            said: said.into(),
            fix: None,
        }
    }

    fn failed(said: impl Into<String>, fix: impl Into<String>) -> Self {
        Self {
            ok: false,
            said: said.into(),
            fix: Some(fix.into()),
        }
    }
}

/// A test call is tried once and waits at most this long.
const CHECK_TIMEOUT_SECS: u64 = 30;

/// `settings` for one quick try: no retries, a short wait.
fn for_a_check(settings: &Settings) -> Settings {
    let mut s = settings.clone();
    s.llm.max_retries = 0;
    s.llm.timeout_secs = s.llm.timeout_secs.min(CHECK_TIMEOUT_SECS);
    s.embedder.max_retries = 0;
    s.embedder.timeout_secs = s.embedder.timeout_secs.min(CHECK_TIMEOUT_SECS);
    s
}

/// Asks the configured LLM for one tiny JSON answer.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")] async fn main() {
/// use haema_core::Settings;
/// let outcome = haema_core::config::check::check_llm(&Settings::default()).await;
/// assert!(outcome.ok); // no AI is a choice that always works
/// # }
/// ```
pub async fn check_llm(settings: &Settings) -> CheckOutcome {
    let settings = for_a_check(settings);
    let llm = &settings.llm;
    if llm.provider != ProviderKind::None && llm.provider.lacks_key(llm.base_url.as_deref(), llm.api_key.as_deref()) {
        return no_key();
    }
    let llm = match settings.build_llm() {
        Ok(Some(llm)) => llm,
        Ok(None) => return CheckOutcome::worked("No AI is set: what is added is kept as it is given."),
        Err(e) => return not_built(&e),
    };
    let schema = json!({
        "type": "object",
        "properties": {"ok": {"type": "boolean"}},
        "required": ["ok"],
        "additionalProperties": false
    });
    let request = StructuredRequest {
        name: "connection_test",
        system: "This is a connection test. Answer with the JSON object {\"ok\": true}.",
        user: "Are you there?",
        schema: &schema,
    };
    match llm.generate_structured(request).await {
        Ok(_) => CheckOutcome::worked(format!("The AI answered: {} works.", model_of(&llm.id()))),
        Err(e) => failed_call(&e, settings.llm.model.as_deref()),
    }
}

/// Asks the configured embedder for one vector.
pub async fn check_embedder(settings: &Settings) -> CheckOutcome {
    let settings = for_a_check(settings);
    if settings.embedder.kind() == ProviderKind::Local {
        return check_local_embedder(&settings);
    }
    let e = &settings.embedder;
    if e.kind() != ProviderKind::None && e.kind().lacks_key(e.base_url.as_deref(), e.api_key.as_deref()) {
        return no_key();
    }
    let embedder = match settings.build_embedder() {
        Ok(Some(e)) => e,
        Ok(None) => return CheckOutcome::worked("No search model is set: search finds memories by their words."),
        Err(e) => return not_built(&e),
    };
    match embedder.embed_query(&["connection test".to_owned()]).await {
        Ok(vectors) => match vectors.first().map(Vec::len) {
            Some(n) if n == embedder.dims() => CheckOutcome::worked(format!(
                "The search model answered: {} makes vectors of {n} numbers.",
                model_of(&embedder.id())
            )),
            Some(n) => CheckOutcome::failed(
                format!(
                    "The search model answered with {n} numbers where {} were expected.",
                    embedder.dims()
                ),
                "Set the model's dimension (embedder.dims) to what it makes, or leave it empty for a known model.",
            ),
            None => CheckOutcome::failed(
                "The search model answered without a vector.",
                "Choose a model that makes embeddings.",
            ),
        },
        Err(e) => failed_call(&e, settings.embedder.model.as_deref()),
    }
}

/// The local model needs no call: it is there, or it is downloaded on first use.
fn check_local_embedder(settings: &Settings) -> CheckOutcome {
    let model = settings.embedder.model_name();
    match settings.build_embedder() {
        Ok(_) => CheckOutcome::worked(format!("The search model {model} is on this computer and works.")),
        Err(Error::ModelNotDownloaded { .. }) => CheckOutcome::worked(format!(
            "The search model {model} is downloaded once, the first time this memory opens with a connection; until then search goes by words."
        )),
        Err(e) => not_built(&e),
    }
}

/// The model's name in a provider id (`openai:llama3.1:8b` → `llama3.1:8b`).
fn model_of(id: &str) -> &str {
    id.split_once(':').map_or(id, |(_, model)| model)
}

/// A provider that could not even be set up from these settings.
fn not_built(e: &Error) -> CheckOutcome {
    CheckOutcome::failed(
        format!("These settings cannot be used: {e}."),
        "Fix the setting it names and test again.",
    )
}

/// A service whose public API needs a key, with none given or saved.
fn no_key() -> CheckOutcome {
    CheckOutcome::failed(
        "This service needs an API key, and none is saved.",
        "Paste the key the service gave you.",
    )
}

/// A call that was made and failed, in words, with what to do.
fn failed_call(e: &ProviderError, model: Option<&str>) -> CheckOutcome {
    let lower = e.message.to_lowercase();
    let model = model.map_or_else(|| "this model".to_owned(), |m| format!("the model {m}"));
    match e.kind {
        ProviderErrorKind::Auth => CheckOutcome::failed(
            "The service refused the key.",
            "Check the key: copy it again from the service's website, with nothing before or after it.",
        ),
        ProviderErrorKind::BadRequest
            if lower.contains("http 404") || (lower.contains("model") && lower.contains("not")) =>
        {
            CheckOutcome::failed(
                format!("The service does not have {model}."),
                "Choose a model the service offers (with Ollama: install it with `ollama pull`, or pick one from the list).",
            )
        }
        ProviderErrorKind::BadRequest => CheckOutcome::failed(
            format!("The service rejected the request: {}.", e.message),
            "Check the model name and the address.",
        ),
        ProviderErrorKind::Network => CheckOutcome::failed(
            format!("Nothing answered: {}.", e.message),
            "Check the address, and that the service is running (and this computer is online for a service on the internet).",
        ),
        ProviderErrorKind::Timeout => CheckOutcome::failed(
            format!("The service did not answer within {CHECK_TIMEOUT_SECS} seconds."),
            "Try again; a model on this computer can be slow the first time it loads.",
        ),
        ProviderErrorKind::RateLimit => CheckOutcome::failed(
            "The service is refusing requests for now (too many, or the account's limit is reached).",
            "Wait a little, or check the account's limits and credit.",
        ),
        ProviderErrorKind::Server => CheckOutcome::failed(
            format!("The service failed: {}.", e.message),
            "Try again later; the service itself is having trouble.",
        ),
        ProviderErrorKind::BadAnswer => CheckOutcome::failed(
            format!("The service answered, but not in the form haema needs: {}.", e.message),
            "Choose a model that can answer in JSON (most recent chat models can).",
        ),
        ProviderErrorKind::Config => CheckOutcome::failed(
            format!("These settings cannot be used: {}.", e.message),
            "Fix the setting it names.",
        ),
    }
}
