//! "Connect an AI", in the window: the LLM and the search model as plain choices (no AI,
//! an AI on this computer, OpenAI, Google Gemini, another service), a **Test** that makes
//! one real call, and saving: the settings into the store's `haema.toml`, the key into the
//! OS keyring. The window never gets a key back, only "a key is saved, ending in …".

use std::path::Path;
use std::sync::Arc;

use haema_core::config::check::{CheckOutcome, check_embedder, check_llm};
use haema_core::config::connect::{Connection, ConnectionState, Role};
use haema_core::config::{ProviderKind, SettingSpec};
use haema_core::keys::KeyStore;
use haema_core::provider::local::fetch::load_or_fetch;
use haema_core::provider::ollama::{self, LocalModel};
use haema_core::provider::{Embedder, ProviderErrorKind};
use haema_core::{ReviewPolicy, Settings};
use serde::Serialize;
use tauri::{AppHandle, State};

use crate::blocking::off_async;
use crate::error::{CommandError, CommandResult};
use crate::progress::{Reporter, Task};
use crate::state::AppState;

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

fn keys() -> Box<dyn KeyStore> {
    haema_core::keys::from_env(env)
}

/// Whether keys can be kept on this computer.
#[derive(Debug, Serialize, specta::Type)]
pub struct KeyringState {
    /// The system keyring answers.
    pub usable: bool,
    /// Why it does not, and what to do instead; `None` when it does.
    pub said: Option<String>,
}

/// What the AI settings show.
#[derive(Debug, Serialize, specta::Type)]
pub struct AiSetup {
    /// The LLM that looks after the memories.
    pub llm: ConnectionState,
    /// The model search uses.
    pub embedder: ConnectionState,
    /// When the window asks before memories change.
    pub review: ReviewPolicy,
    /// How alike a memory must be to be considered for a merge (cosine distance).
    pub merge_distance_cutoff: f64,
    /// The keyring.
    pub keyring: KeyringState,
    /// Variables of this computer's environment that win over what is saved here, with
    /// their setting (`HAEMA_LLM_MODEL` → `llm.model`).
    pub overridden: Vec<String>,
}

/// The open store's AI settings, as the files, the environment and the keyring say.
#[tauri::command]
#[specta::specta]
pub async fn ai_setup(state: State<'_, AppState>) -> CommandResult<AiSetup> {
    let dir = state.memory().await?.dir().to_path_buf();
    off_async(move || ai_setup_of(&dir, &*keys())).await
}

/// [`ai_setup`] for the store in `dir` with the keyring given.
///
/// # Errors
/// The settings files cannot be read.
pub fn ai_setup_of(dir: &Path, keys: &dyn KeyStore) -> CommandResult<AiSetup> {
    let settings = Settings::load_with_keys(dir, Settings::user_file_path().as_deref(), env, keys)?;
    let keyring = match keys.get("haema-keyring-check") {
        Ok(_) => KeyringState {
            usable: true,
            said: None,
        },
        Err(e) => KeyringState {
            usable: false,
            said: Some(e.to_string()),
        },
    };
    let overridden = haema_core::config::SETTINGS
        .iter()
        .filter(|s| s.name.starts_with("llm.") || s.name.starts_with("embedder.") || s.name == "review")
        .filter_map(|s| {
            s.env
                .filter(|v| env(v).is_some_and(|x| !x.is_empty()))
                .map(|v| format!("{v} ({})", s.name))
        })
        .collect();
    Ok(AiSetup {
        llm: Connection::state(&settings, Role::Llm, env),
        embedder: Connection::state(&settings, Role::Embedder, env),
        review: settings.review,
        merge_distance_cutoff: settings.merge.distance_cutoff,
        keyring,
        overridden,
    })
}

/// What was found of an AI on this computer.
#[derive(Debug, Serialize, specta::Type)]
pub struct LocalAi {
    /// Where it was looked for (`HAEMA_OLLAMA_URL`, else Ollama's own address).
    pub server: String,
    /// Whether Ollama answered there.
    pub running: bool,
    /// Its installed models, text models first.
    pub models: Vec<LocalModel>,
}

/// Looks for Ollama on this computer and lists its installed models.
#[tauri::command]
#[specta::specta]
pub async fn local_ai() -> CommandResult<LocalAi> {
    let server = ollama::server_from_env(env);
    Ok(match ollama::installed_models(&server).await {
        Ok(models) => LocalAi {
            server,
            running: true,
            models,
        },
        Err(_) => LocalAi {
            server,
            running: false,
            models: Vec::new(),
        },
    })
}

/// Makes one real call with `connection` (and `key`, or the key saved for its service),
/// before anything is saved.
#[tauri::command]
#[specta::specta]
pub async fn test_connection(
    state: State<'_, AppState>,
    connection: Connection,
    key: Option<String>,
) -> CommandResult<CheckOutcome> {
    let dir = state.memory().await?.dir().to_path_buf();
    let role = connection.role;
    let trial = off_async(move || {
        let keys = keys();
        let settings = Settings::load_with_keys(&dir, Settings::user_file_path().as_deref(), env, &*keys)?;
        Ok(connection.applied_to(&settings, key.as_deref(), &*keys)?)
    })
    .await?;
    Ok(match role {
        Role::Llm => check_llm(&trial).await,
        Role::Embedder => check_embedder(&trial).await,
    })
}

/// Saves `connection`: the key (when one is given) into the system keyring, the settings
/// into the store's `haema.toml`, then opens the store again so that they are in force. A
/// new search model first makes the vectors of every memory, with progress; if that fails,
/// the settings are not changed.
#[tauri::command]
#[specta::specta]
pub async fn save_connection(
    app: AppHandle,
    state: State<'_, AppState>,
    connection: Connection,
    key: Option<String>,
) -> CommandResult<AiSetup> {
    let memory = state.memory().await?;
    let dir = memory.dir().to_path_buf();
    // The key first: a keyring that refuses it leaves everything as it was, before any
    // vectors are made again.
    let next = off_async({
        let (dir, connection, key) = (dir.clone(), connection.clone(), key.clone());
        move || {
            let keys = keys();
            if let Some(key) = key.as_deref() {
                connection.save_key(key, &*keys)?;
            }
            if connection.role != Role::Embedder {
                return Ok(None);
            }
            let settings = Settings::load_with_keys(&dir, Settings::user_file_path().as_deref(), env, &*keys)?;
            Ok(Some(connection.applied_to(&settings, key.as_deref(), &*keys)?))
        }
    })
    .await?;
    if let Some(next) = next
        && memory.settings().embedder.needs_new_vectors(&next.embedder)
    {
        drop(memory);
        remake_vectors(&app, &dir, &next).await?;
    }
    off_async({
        let dir = dir.clone();
        move || Ok(connection.save(&dir, None, &*keys())?)
    })
    .await?;
    reopen(&app, &state, &dir).await?;
    off_async(move || ai_setup_of(&dir, &*keys())).await
}

/// Removes the key saved for `connection`'s service from the keyring.
#[tauri::command]
#[specta::specta]
pub async fn forget_saved_key(state: State<'_, AppState>, connection: Connection) -> CommandResult<AiSetup> {
    let dir = state.memory().await?.dir().to_path_buf();
    off_async(move || {
        let keys = keys();
        connection.forget_key(&*keys)?;
        ai_setup_of(&dir, &*keys)
    })
    .await
}

/// Writes one setting (`review`, `merge.distance_cutoff`, …) into the store's `haema.toml`
/// (`None` removes it) and opens the store again with it.
#[tauri::command]
#[specta::specta]
pub async fn set_setting(
    app: AppHandle,
    state: State<'_, AppState>,
    name: String,
    value: Option<String>,
) -> CommandResult<AiSetup> {
    let spec =
        SettingSpec::named(&name).ok_or_else(|| CommandError::invalid(format!("There is no setting named {name}.")))?;
    if spec.name.ends_with("provider") || spec.name.ends_with("base_url") {
        return Err(CommandError::invalid(
            "Connect a service with “Connect an AI”, which tests it first.",
        ));
    }
    let memory = state.memory().await?;
    let dir = memory.dir().to_path_buf();
    drop(memory);
    Settings::write_setting(&dir, &name, value.as_deref())?;
    reopen(&app, &state, &dir).await?;
    off_async(move || ai_setup_of(&dir, &*keys())).await
}

/// Makes every memory's vectors with `next`'s embedder (the built-in model downloaded
/// first when it is missing), with progress.
async fn remake_vectors(app: &AppHandle, dir: &Path, next: &Settings) -> CommandResult<()> {
    let progress = Reporter::new(app.clone(), Task::Reembed);
    let embedder: Option<Arc<dyn Embedder>> = if next.embedder.kind() == ProviderKind::Local {
        progress.say("Getting the built-in search model…");
        let reporter = progress.clone();
        let model = next.embedder.model_name();
        let loaded = load_or_fetch(&model, next.embedder.batch_size, true, move |p| {
            reporter.step(
                usize::try_from(p.bytes_done / 1_000_000).unwrap_or(0),
                usize::try_from(p.bytes_total.unwrap_or(0) / 1_000_000).unwrap_or(0),
                "Downloading the built-in search model (MB):",
            );
        })
        .await
        .map_err(|why| {
            progress.finish();
            CommandError::new(
                crate::error::Problem::Provider,
                format!("The built-in search model cannot be used now: {why}. Nothing was changed."),
            )
        })?;
        Some(Arc::new(loaded))
    } else {
        next.build_embedder()?
    };
    progress.say("Making the search vectors with the new model…");
    let report = haema_core::reembed(dir, embedder, |p| {
        progress.step(p.done, p.total, "Making the search vectors with the new model…");
    })
    .await;
    progress.finish();
    report.map(|_| ()).map_err(|e| match &e {
        haema_core::Error::Provider(p) if p.kind == ProviderErrorKind::Auth => CommandError::new(
            crate::error::Problem::Provider,
            "The search service refused the key. Nothing was changed.",
        ),
        _ => e.into(),
    })
}

/// Opens the store again with the settings on disk, as opening it from the window does.
async fn reopen(app: &AppHandle, state: &State<'_, AppState>, dir: &Path) -> CommandResult<()> {
    let (memory, generation) = state.open(dir.to_path_buf()).await?;
    crate::model::upgrade_in_background(app.clone(), &memory, generation);
    crate::live::watch(app.clone(), memory, Arc::clone(&state.generation), generation);
    Ok(())
}
