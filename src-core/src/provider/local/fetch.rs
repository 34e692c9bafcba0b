//! The local model on first use: found in the Hugging Face cache, else downloaded from the
//! Hub into it (see [`crate::provider::hub`]).

use std::path::{Path, PathBuf};

use crate::provider::hub::{FetchProgress, Hub, SENTENCE_TRANSFORMER_FILES};

/// The revision fetched: the Hub's default branch.
pub const REVISION: &str = "main";

/// Whether `model` names a Hugging Face repository rather than a folder: a folder exists, or
/// is written as a path (`/…`, `./…`, `~/…`, or with more than one `/`).
pub fn is_hub_name(model: &str) -> bool {
    let looks_like_path = model.starts_with('/')
        || model.starts_with('.')
        || model.starts_with('~')
        || model.matches('/').count() > 1
        || model.contains('\\');
    !model.is_empty() && !looks_like_path && !Path::new(model).is_dir()
}

/// The snapshot folder of `model` in the Hugging Face cache, downloading what is missing
/// when `download` is true (never under `HF_HUB_OFFLINE`). `Err` says in a few words why the
/// model is not to be had now.
pub async fn fetch_model(
    model: &str,
    download: bool,
    progress: impl Fn(&FetchProgress) + Send + Sync,
) -> Result<PathBuf, String> {
    let hub = Hub::from_env().map_err(|e| e.to_string())?;
    if let Some(dir) = hub.cached(model, REVISION, SENTENCE_TRANSFORMER_FILES) {
        return Ok(dir);
    }
    if hub.is_offline() {
        return Err("HF_HUB_OFFLINE is set, so it was not downloaded".into());
    }
    if !download {
        return Err("it is not downloaded yet".into());
    }
    hub.fetch(model, REVISION, SENTENCE_TRANSFORMER_FILES, &progress)
        .await
        .map_err(|e| format!("the download failed: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hub_names_and_folders_are_told_apart() {
        assert!(is_hub_name("sentence-transformers/all-MiniLM-L6-v2"));
        assert!(is_hub_name("bert-base-uncased"));
        assert!(!is_hub_name("/models/minilm"));
        assert!(!is_hub_name("./minilm"));
        assert!(!is_hub_name("~/minilm"));
        assert!(!is_hub_name("models/minilm/v2"));
        assert!(!is_hub_name(""));
        let dir = tempfile::tempdir().unwrap();
        assert!(!is_hub_name(dir.path().to_str().unwrap()));
    }
}
