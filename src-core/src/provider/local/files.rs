//! Finding a sentence-transformers model on disk: a folder, or the Hugging Face cache
//! (looked up by [`crate::provider::hub`]).

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::provider::hub::{DEFAULT_REVISION, Hub, SENTENCE_TRANSFORMER_FILES};
use crate::provider::{ProviderError, ProviderErrorKind};

/// Resolves `model` to a folder holding the required files of a sentence-transformers
/// model: an existing folder is taken as is; a name such as
/// `sentence-transformers/all-MiniLM-L6-v2` is looked up in the Hugging Face cache, and
/// [`Error::ModelNotDownloaded`] names the folder it would be in when it is not there.
pub(crate) fn resolve(model: &str) -> Result<PathBuf> {
    let misconfigured = |message: String| {
        Error::from(ProviderError::new(
            format!("local:{model}"),
            ProviderErrorKind::Config,
            message,
        ))
    };
    let as_path = Path::new(model);
    if as_path.is_dir() {
        return check(as_path).map(|()| as_path.to_path_buf()).map_err(misconfigured);
    }
    if model.starts_with('/') || model.starts_with('.') || model.starts_with('~') {
        return Err(misconfigured(format!(
            "the embedding model folder {model} does not exist; set HAEMA_EMBED_MODEL to a folder with config.json, tokenizer.json and model.safetensors"
        )));
    }
    let hub = Hub::from_env()
        .map_err(|e| misconfigured(format!("{e}; set HF_HOME or HAEMA_EMBED_MODEL to a model folder")))?;
    hub.cached(model, DEFAULT_REVISION, SENTENCE_TRANSFORMER_FILES)
        .ok_or_else(|| Error::ModelNotDownloaded {
            model: model.to_owned(),
            looked_in: hub.repo_dir(model),
        })
}

fn check(dir: &Path) -> std::result::Result<(), String> {
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
        let err = resolve("/nonexistent/model/dir").unwrap_err().to_string();
        assert!(
            err.contains("/nonexistent/model/dir") && err.contains("HAEMA_EMBED_MODEL"),
            "{err}"
        );
    }

    #[test]
    fn a_model_not_in_the_cache_is_not_downloaded_with_its_name_and_folder() {
        let model = "haema-tests/no-such-model-anywhere";
        match resolve(model) {
            Err(Error::ModelNotDownloaded {
                model: named,
                looked_in,
            }) => {
                assert_eq!(named, model);
                assert!(
                    looked_in.ends_with("models--haema-tests--no-such-model-anywhere"),
                    "{}",
                    looked_in.display()
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn folders_must_hold_the_three_files() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("config.json"), "{}").unwrap();
        let err = resolve(dir.path().to_str().unwrap()).unwrap_err().to_string();
        assert!(err.contains("tokenizer.json, model.safetensors"), "{err}");
    }
}
