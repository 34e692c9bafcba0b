//! `haema model`: the local embedding models in the Hugging Face cache.

use std::path::Path;

use anyhow::Result;
use haema_core::provider::hub::{CachedModel, Hub, HubError, SENTENCE_TRANSFORMER_FILES};
use haema_core::provider::local::{LocalEmbedder, fetch};
use haema_core::{Memory, Settings, config::ProviderKind};
use serde_json::json;

use crate::cli::ModelCommand;
use crate::output::{self, print};

pub async fn run(dir: &Path, command: ModelCommand) -> Result<()> {
    match command {
        ModelCommand::Fetch { name, json } => fetch_one(dir, name, json).await,
        ModelCommand::List(flag) => list(dir, flag.json).await,
    }
}

/// The local model a store would use: its configured one, else the default.
fn store_model(dir: &Path) -> String {
    Settings::load(dir)
        .ok()
        .filter(|s| s.embedder.kind() == ProviderKind::Local)
        .map_or_else(
            || Settings::default().embedder.model_name(),
            |s| s.embedder.model_name(),
        )
}

async fn fetch_one(dir: &Path, name: Option<String>, json: bool) -> Result<()> {
    let name = name.unwrap_or_else(|| store_model(dir));
    if !fetch::is_hub_name(&name) {
        anyhow::bail!(crate::UsageError(format!(
            "`{name}` is a folder, not a Hugging Face model name (such as sentence-transformers/all-MiniLM-L6-v2); a folder is used as it is"
        )));
    }
    let hub = Hub::from_env()?;
    if hub.is_offline() {
        anyhow::bail!(
            "HF_HUB_OFFLINE is set, so nothing can be downloaded; unset it and run `haema model fetch` again"
        );
    }
    let bar = output::download_progress(&name);
    let fetched = hub
        .fetch(&name, fetch::REVISION, SENTENCE_TRANSFORMER_FILES, &|p| {
            output::show_download(&bar, p);
        })
        .await;
    bar.finish_and_clear();
    if fetched.is_ok() {
        fetch::forget_failure(&hub, &name);
    }
    let folder = match fetched {
        Ok(folder) => folder,
        Err(e @ HubError::Unreachable { .. }) => anyhow::bail!(
            "cannot download {name}: {}; check the connection (or HF_ENDPOINT) and run `haema model fetch` again: what was downloaded is kept and resumes",
            fetch::short_reason(&e)
        ),
        Err(e @ HubError::Io { .. }) => anyhow::bail!(
            "cannot download {name}: {e}; make room (or point HF_HOME at another disk) and run `haema model fetch` again"
        ),
        Err(e) => anyhow::bail!("cannot download {name}: {e}"),
    };
    let embedder = LocalEmbedder::load_named(&folder, &name, 1).map_err(|e| {
        anyhow::anyhow!(
            "{name} was downloaded to {} but cannot be loaded ({}); delete {} and run `haema model fetch` again",
            folder.display(),
            e.message,
            hub.repo_dir(&name).display()
        )
    })?;
    // Load the weights and embed once, so that a damaged file is found now, not by an add.
    let checked = tokio::task::spawn_blocking({
        let embedder = embedder.clone();
        move || embedder.embed_blocking(&["haema checks the model".to_owned()], true)
    })
    .await?;
    if let Err(e) = checked {
        anyhow::bail!(
            "{name} is in the cache at {} but does not work ({e}); delete {} and run `haema model fetch` again",
            folder.display(),
            hub.repo_dir(&name).display()
        );
    }
    let size = folder_size(&folder);
    if json {
        return output::json(&json!({
            "model": name, "path": folder, "bytes": size, "embedder": haema_core::provider::Embedder::id(&embedder),
            "dims": haema_core::provider::Embedder::dims(&embedder),
        }));
    }
    print(&format!(
        "{name} is in the Hugging Face cache: {} ({}, {} dimensions).\n",
        folder.display(),
        human_bytes(size),
        haema_core::provider::Embedder::dims(&embedder)
    ))
}

/// Bytes of the files a snapshot folder links to.
fn folder_size(dir: &Path) -> u64 {
    let mut total = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            match std::fs::metadata(&path) {
                Ok(m) if m.is_dir() => stack.push(path),
                Ok(m) => total += m.len(),
                Err(_) => {}
            }
        }
    }
    total
}

/// `87.3 MB`.
pub fn human_bytes(bytes: u64) -> String {
    let b = bytes as f64;
    if b >= 1e9 {
        format!("{:.1} GB", b / 1e9)
    } else if b >= 1e6 {
        format!("{:.1} MB", b / 1e6)
    } else if b >= 1e3 {
        format!("{:.1} kB", b / 1e3)
    } else {
        format!("{bytes} B")
    }
}

/// The stores beside `dir` (and `dir`) that use `model`: their recorded embedder is the
/// model's, or they wait for it.
async fn users(model: &CachedModel, id: Option<&str>, stores: &[std::path::PathBuf]) -> Vec<String> {
    let mut out = Vec::new();
    for store in stores {
        let Ok(info) = Memory::peek(store).await else {
            continue;
        };
        let waits = info.embedder_wanted.as_deref() == Some(&format!("local:{}", model.name));
        if id.is_some_and(|id| id == info.embedder) || waits {
            out.push(store.display().to_string());
        }
    }
    out
}

async fn list(dir: &Path, json: bool) -> Result<()> {
    let hub = Hub::from_env()?;
    let models = hub.list(SENTENCE_TRANSFORMER_FILES)?;
    let stores: Vec<_> = haema_core::store_folders_beside(dir)
        .into_iter()
        .filter(|d| haema_core::is_store_dir(d))
        .collect();
    let mut rows = Vec::new();
    for model in &models {
        let id = model
            .snapshots
            .iter()
            .find_map(|s| LocalEmbedder::load_named(s, &model.name, 1).ok())
            .map(|e| haema_core::provider::Embedder::id(&e));
        let used_by = users(model, id.as_deref(), &stores).await;
        rows.push(json!({
            "model": model.name, "bytes": model.bytes, "complete": model.complete,
            "path": model.snapshots.first(), "embedder": id, "used_by": used_by,
        }));
    }
    if json {
        return output::json(&rows);
    }
    if rows.is_empty() {
        return print(&format!(
            "No models in the Hugging Face cache at {}. `haema model fetch` downloads the default one.\n",
            hub.cache_dir().display()
        ));
    }
    let mut text = format!("Models in {}:\n", hub.cache_dir().display());
    for (row, model) in rows.iter().zip(&models) {
        let used = row["used_by"].as_array().map(Vec::len).unwrap_or(0);
        let users: Vec<&str> = row["used_by"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str())
            .collect();
        text.push_str(&format!(
            "  {}  {}{}\n    used by {}\n",
            model.name,
            human_bytes(model.bytes),
            if model.complete {
                ""
            } else {
                "  (incomplete: `haema model fetch` finishes it)"
            },
            if used == 0 {
                "no store here".to_owned()
            } else {
                users.join(", ")
            }
        ));
    }
    print(&text)
}

/// The embedder `settings` name, a local model by Hugging Face name downloaded first (with a
/// progress bar) when it is not in the cache; `None` for no embedder.
pub async fn build_embedder(settings: &Settings) -> Result<Option<std::sync::Arc<dyn haema_core::provider::Embedder>>> {
    let model = settings.embedder.model_name();
    let local_by_name = settings.embedder.kind() == ProviderKind::Local && fetch::is_hub_name(&model);
    if local_by_name {
        let bar = output::download_progress(&model);
        let found = fetch::load_or_fetch(&model, settings.embedder.batch_size, true, |p| {
            output::show_download(&bar, p);
        })
        .await;
        bar.finish_and_clear();
        let embedder = found.map_err(|reason| {
            anyhow::anyhow!(
                "the embedding model {model} is not on this machine: {reason}; run `haema model fetch` when online"
            )
        })?;
        return Ok(Some(std::sync::Arc::new(embedder)));
    }
    Ok(settings.build_embedder()?)
}
