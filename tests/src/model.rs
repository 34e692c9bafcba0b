//! Where the tests find all-MiniLM-L6-v2 (fetched by `.ci/fetch-model`).

use std::path::PathBuf;

/// The model folder: `$HAEMA_TEST_MODEL_DIR`, else `.cache/models/all-MiniLM-L6-v2` in the
/// workspace. `None` (test skipped) when it is missing outside CI; under CI a missing model
/// fails the test, since `.ci/run` fetches it.
pub fn minilm_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("HAEMA_TEST_MODEL_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("..")
                .join(".cache")
                .join("models")
                .join("all-MiniLM-L6-v2")
        });
    if dir.join("model.safetensors").is_file() {
        return Some(dir);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "the embedding model is missing at {}; .ci/run fetches it with .ci/fetch-model",
        dir.display()
    );
    eprintln!("skipped: no embedding model at {} (run .ci/fetch-model)", dir.display());
    None
}
