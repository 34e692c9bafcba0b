//! Finding a sentence-transformers model on disk: a folder, or the Hugging Face cache.

use std::path::{Path, PathBuf};

/// The Hugging Face hub cache folder: `$HF_HUB_CACHE`, else `$HF_HOME/hub`, else
/// `~/.cache/huggingface/hub`.
pub fn hub_cache() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("HF_HUB_CACHE").filter(|v| !v.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    if let Some(home) = std::env::var_os("HF_HOME").filter(|v| !v.is_empty()) {
        return Some(PathBuf::from(home).join("hub"));
    }
    directories::BaseDirs::new().map(|b| b.home_dir().join(".cache").join("huggingface").join("hub"))
}

/// Resolves `model` to a folder holding `config.json`, `tokenizer.json` and
/// `model.safetensors`: an existing folder is taken as is; a name such as
/// `sentence-transformers/all-MiniLM-L6-v2` is looked up in the Hugging Face cache.
pub(crate) fn resolve(model: &str) -> Result<PathBuf, String> {
    let as_path = Path::new(model);
    if as_path.is_dir() {
        return check(as_path).map(|()| as_path.to_path_buf());
    }
    if model.starts_with('/') || model.starts_with('.') || model.starts_with('~') {
        return Err(format!(
            "the embedding model folder {model} does not exist; set HAEMA_EMBED_MODEL to a folder with config.json, tokenizer.json and model.safetensors"
        ));
    }
    let cache = hub_cache().ok_or("cannot find the Hugging Face cache folder (no home folder); set HF_HOME or HAEMA_EMBED_MODEL to a model folder")?;
    let repo = cache.join(format!("models--{}", model.replace('/', "--")));
    let how = format!(
        "download it while online with `huggingface-cli download {model}` (or `hf download {model}`), or set HAEMA_EMBED_MODEL to a folder with config.json, tokenizer.json and model.safetensors"
    );
    let snapshots = repo.join("snapshots");
    let preferred = std::fs::read_to_string(repo.join("refs").join("main"))
        .ok()
        .map(|r| snapshots.join(r.trim()));
    let mut candidates: Vec<PathBuf> = preferred.into_iter().collect();
    if let Ok(entries) = std::fs::read_dir(&snapshots) {
        candidates.extend(entries.filter_map(|e| e.ok().map(|e| e.path())));
    }
    candidates.into_iter().find(|dir| check(dir).is_ok()).ok_or_else(|| {
        format!(
            "embedding model `{model}` is not in the Hugging Face cache (looked in {}); {how}",
            repo.display()
        )
    })
}

fn check(dir: &Path) -> Result<(), String> {
    let missing: Vec<&str> = ["config.json", "tokenizer.json", "model.safetensors"]
        .into_iter()
        .filter(|f| !dir.join(f).is_file())
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "the model folder {} lacks {}",
            dir.display(),
            missing.join(", ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_model_names_the_folder_and_the_fix() {
        let err = resolve("/nonexistent/model/dir").unwrap_err();
        assert!(
            err.contains("/nonexistent/model/dir") && err.contains("HAEMA_EMBED_MODEL"),
            "{err}"
        );
    }

    #[test]
    fn folders_must_hold_the_three_files() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("config.json"), "{}").unwrap();
        let err = resolve(dir.path().to_str().unwrap()).unwrap_err();
        assert!(err.contains("tokenizer.json, model.safetensors"), "{err}");
    }
}
