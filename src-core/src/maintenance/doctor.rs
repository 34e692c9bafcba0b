//! `haema doctor`: checks the store, the embedder and the LLM, each with one real call.

use crate::store::MetaKey;
use std::path::Path;
use std::time::Instant;

use serde::Serialize;
use serde_json::json;

use crate::config::Settings;
use crate::error::Error;
use crate::provider::{StructuredRequest, check_embeddings};
use crate::store::Store;
use crate::store::files;
use crate::types::MemoryStatus;
use crate::types::core_md::CoreSections;

/// The outcome of one check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Check {
    /// What was checked: `store`, `core.md`, `embedder` or `llm`.
    pub name: String,
    /// Whether it works.
    pub ok: bool,
    /// What was found, or what is wrong.
    pub detail: String,
    /// What a failed check met, when a front end has a way out of it to offer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<CheckProblem>,
}

/// A failure a front end knows a way out of (the command line words it as a command, for
/// example): the situation and its data, never the advice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CheckProblem {
    /// The store's vectors are by another embedder than the configured one (or none is
    /// configured): configure that one again, or re-embed the store.
    EmbedderMismatch,
    /// The configured local model is not downloaded.
    ModelNotDownloaded {
        /// Its Hugging Face name.
        model: String,
    },
}

/// Why a check failed: its words, and the situation when a front end can help.
struct Failure {
    detail: String,
    problem: Option<CheckProblem>,
}

impl From<String> for Failure {
    fn from(detail: String) -> Self {
        Self { detail, problem: None }
    }
}

impl From<Error> for Failure {
    fn from(error: Error) -> Self {
        let problem = match &error {
            Error::EmbedderMismatch { .. } => Some(CheckProblem::EmbedderMismatch),
            Error::ModelNotDownloaded { model, .. } => Some(CheckProblem::ModelNotDownloaded { model: model.clone() }),
            _ => None,
        };
        Self {
            detail: error.to_string(),
            problem,
        }
    }
}

fn check(name: &str, result: Result<String, Failure>) -> Check {
    let (ok, detail, problem) = match result {
        Ok(detail) => (true, detail, None),
        Err(failure) => (false, failure.detail, failure.problem),
    };
    Check {
        name: name.to_owned(),
        ok,
        detail,
        problem,
    }
}

/// Runs every check; none of them stops the others.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # let dir = tempfile::tempdir()?;
/// use haema_core::config::ProviderKind;
/// use haema_core::{Memory, Settings, doctor};
/// let mut settings = Settings::default();
/// settings.embedder.provider = Some(ProviderKind::None); // nothing to call: offline
/// # Memory::open_with(dir.path(), settings.clone(), None, None).await?;
/// for check in doctor(dir.path(), &settings).await {
///     println!("{} {}: {}", if check.ok { "ok  " } else { "FAIL" }, check.name, check.detail);
/// }
/// # Ok(()) }
/// ```
pub async fn doctor(dir: &Path, settings: &Settings) -> Vec<Check> {
    let mut checks = Vec::new();
    let dir_owned = dir.to_path_buf();
    let recorded = tokio::task::spawn_blocking(move || -> Result<(String, String, usize, usize, bool), String> {
        let store = Store::open(&dir_owned).map_err(|e| e.to_string())?;
        store
            .read(|conn| {
                let embedder = conn.meta(MetaKey::Embedder)?.unwrap_or_else(|| "none".into());
                let dims: usize = conn.meta(MetaKey::Dims)?.and_then(|d| d.parse().ok()).unwrap_or(0);
                let count = conn.memories().count(MemoryStatus::Active, &Default::default())?
                    + conn.memories().count(MemoryStatus::Superseded, &Default::default())?;
                let waits = conn.meta(MetaKey::EmbedderWanted)?.is_some();
                Ok((embedder, store.dir().display().to_string(), count, dims, waits))
            })
            .map_err(|e| e.to_string())
    })
    .await
    .unwrap_or_else(|e| Err(e.to_string()));
    // A lexical store made before the local model was the default stays lexical.
    let keeps_lexical =
        matches!(&recorded, Ok((e, _, count, _, false)) if e == "none" && *count > 0) && settings.embedder.is_default();
    let lexical_settings;
    let settings = if keeps_lexical {
        let mut s = settings.clone();
        s.embedder.provider = Some(crate::config::ProviderKind::None);
        lexical_settings = s;
        &lexical_settings
    } else {
        settings
    };
    let (stored_embedder, stored_dims) = match &recorded {
        Ok((embedder, path, count, dims, waits)) => {
            let embedder = if *waits {
                "none yet (it waits for the local model)"
            } else {
                embedder
            };
            checks.push(check(
                "store",
                Ok(format!("{path}: {count} memories, vectors by {embedder} ({dims} dims)")),
            ));
            // An empty store, or one waiting for its model, takes the configured embedder.
            (Some(embedder.to_owned()).filter(|_| *count > 0 && !*waits), *dims)
        }
        Err(e) => {
            checks.push(check("store", Err(e.clone().into())));
            (None, 0)
        }
    };
    let core_path = dir.join("core.md");
    checks.push(check(
        "core.md",
        if core_path.exists() {
            files::read(&core_path)
                .map_err(|e| e.to_string())
                .and_then(|text| {
                    CoreSections::parse(&text)
                        .map(|_| "four sections, well formed".to_owned())
                        .map_err(|e| e.to_string())
                })
                .map_err(Failure::from)
        } else {
            Ok("not there yet: the next haema command writes it (from its history, or the template)".to_owned())
        },
    ));
    checks.push(check(
        "embedder",
        embedder_check(settings, stored_embedder.as_deref(), stored_dims).await,
    ));
    checks.push(check("llm", llm_check(settings).await.map_err(Failure::from)));
    checks
}

async fn embedder_check(settings: &Settings, stored: Option<&str>, stored_dims: usize) -> Result<String, Failure> {
    let mismatch = |detail: String| Failure {
        detail,
        problem: Some(CheckProblem::EmbedderMismatch),
    };
    let Some(embedder) = settings.build_embedder()? else {
        return match stored {
            Some(id) if id != "none" => Err(mismatch(format!(
                "none is configured but the store's vectors are by {id}"
            ))),
            _ => Ok("none: search is lexical (full text) only".to_owned()),
        };
    };
    let started = Instant::now();
    let texts = vec!["haema doctor checks the embedder".to_owned()];
    let vectors = embedder.embed_query(&texts).await.map_err(Error::from)?;
    check_embeddings(&embedder.id(), vectors, 1, embedder.dims()).map_err(Error::from)?;
    let answered = format!(
        "{} answered with {} numbers in {} ms",
        embedder.id(),
        embedder.dims(),
        started.elapsed().as_millis()
    );
    match stored {
        Some(id) if id != embedder.id() || stored_dims != embedder.dims() => Err(mismatch(format!(
            "{answered}, but the store's vectors are by {id} ({stored_dims} dims)"
        ))),
        _ => Ok(answered),
    }
}

async fn llm_check(settings: &Settings) -> Result<String, String> {
    let Some(llm) = settings.build_llm().map_err(|e| e.to_string())? else {
        return Ok("none: memories are stored as given, related memories are kept".to_owned());
    };
    let schema = json!({"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"], "additionalProperties": false});
    let request = StructuredRequest {
        name: "doctor",
        system: "You are a health check.",
        user: "Answer with the JSON object {\"ok\": true}.",
        schema: &schema,
    };
    let started = Instant::now();
    let answer = llm.generate_structured(request).await.map_err(|e| e.to_string())?;
    if answer.get("ok").and_then(serde_json::Value::as_bool) != Some(true) {
        return Err(format!(
            "{} answered, but not with the requested JSON: {answer}",
            llm.id()
        ));
    }
    Ok(format!(
        "{} answered with valid JSON in {} ms",
        llm.id(),
        started.elapsed().as_millis()
    ))
}
