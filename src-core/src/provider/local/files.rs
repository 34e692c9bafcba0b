//! Finding a sentence-transformers model on disk: a folder, or the Hugging Face cache
//! (looked up by [`crate::provider::hub`]).

use std::path::{Path, PathBuf};

use crate::provider::hub::{DEFAULT_REVISION, Hub, SENTENCE_TRANSFORMER_FILES};

/// Resolves `model` to a folder holding the required files of a sentence-transformers
/// model: an existing folder is taken as is; a name such as
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
    let hub = Hub::from_env().map_err(|e| format!("{e}; set HF_HOME or HAEMA_EMBED_MODEL to a model folder"))?;
    hub.cached(model, DEFAULT_REVISION, SENTENCE_TRANSFORMER_FILES).ok_or_else(|| {
        format!(
            "embedding model `{model}` is not in the Hugging Face cache (looked in {}); download it while online with `haema model fetch {model}` (or `huggingface-cli download {model}`), or set HAEMA_EMBED_MODEL to a folder with config.json, tokenizer.json and model.safetensors",
            hub.repo_dir(model).display()
        )
    })
}

fn check(dir: &Path) -> Result<(), String> {
    let missing: Vec<&str> = SENTENCE_TRANSFORMER_FILES
        .iter()
        .filter(|f| f.required && !dir.join(f.name).is_file())
        .map(|f| f.name)
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
