//! The local model on first use: found in the Hugging Face cache, else downloaded from the
//! Hub into it (see [`crate::provider::hub`]).

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::provider::hub::{FetchProgress, Hub, HubError, SENTENCE_TRANSFORMER_FILES};

/// The revision fetched: the Hub's default branch.
pub const REVISION: &str = "main";

/// After a failed download, how long commands work by words before trying again on their
/// own (so that an agent adding memories offline does not wait for the network each time;
/// `haema model fetch` always tries).
pub const RETRY_AFTER: Duration = Duration::from_secs(10 * 60);

/// A failed download, remembered in the cache (`.haema-fetch-failed/<repo>.json`).
#[derive(Debug, Serialize, Deserialize)]
struct Failure {
    endpoint: String,
    at_ms: i64,
    reason: String,
}

fn failure_path(hub: &Hub, model: &str) -> PathBuf {
    hub.cache_dir()
        .join(".haema-fetch-failed")
        .join(format!("{}.json", model.replace('/', "--")))
}

/// The failure of the last automatic download of `model` from this endpoint, if it is recent.
fn recent_failure(hub: &Hub, model: &str, now_ms: i64) -> Option<Failure> {
    let text = std::fs::read_to_string(failure_path(hub, model)).ok()?;
    let failure: Failure = serde_json::from_str(&text).ok()?;
    let age = now_ms.saturating_sub(failure.at_ms);
    let window = i64::try_from(RETRY_AFTER.as_millis()).unwrap_or(i64::MAX);
    (failure.endpoint == hub.endpoint() && (0..window).contains(&age)).then_some(failure)
}

fn remember_failure(hub: &Hub, model: &str, reason: &str, now_ms: i64) {
    let path = failure_path(hub, model);
    let failure = Failure {
        endpoint: hub.endpoint().to_owned(),
        at_ms: now_ms,
        reason: reason.to_owned(),
    };
    // Only a hint for later commands: a cache that cannot be written costs a retry.
    if let (Some(dir), Ok(text)) = (path.parent(), serde_json::to_string(&failure)) {
        let _ = std::fs::create_dir_all(dir).and_then(|()| std::fs::write(&path, text));
    }
}

/// Why a download failed, in a few words: the host and the innermost cause of a connection
/// failure rather than the client's whole chain.
pub fn short_reason(error: &HubError) -> String {
    match error {
        HubError::Unreachable { url, reason } => {
            let host = reqwest::Url::parse(url)
                .ok()
                .and_then(|u| u.host_str().map(str::to_owned))
                .unwrap_or_else(|| url.clone());
            let cause = reason.rsplit(": ").next().unwrap_or(reason);
            format!("cannot reach {host} ({cause})")
        }
        other => other.to_string(),
    }
}

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
    let now = crate::types::now_ms();
    if let Some(failure) = recent_failure(&hub, model, now) {
        let minutes = (now - failure.at_ms) / 60_000;
        return Err(format!(
            "the download failed {minutes} min ago ({}); it is tried again after {} min",
            failure.reason,
            RETRY_AFTER.as_secs() / 60
        ));
    }
    match hub.fetch(model, REVISION, SENTENCE_TRANSFORMER_FILES, &progress).await {
        Ok(dir) => {
            let _ = std::fs::remove_file(failure_path(&hub, model));
            Ok(dir)
        }
        Err(e) => {
            let reason = short_reason(&e);
            remember_failure(&hub, model, &reason, now);
            Err(format!("the download failed: {reason}"))
        }
    }
}

/// The local model `model` (a Hugging Face name) from the cache, else downloaded into it
/// when `download` is true. `Err` says in a few words why it is not to be had now.
pub async fn load_or_fetch(
    model: &str,
    batch_size: usize,
    download: bool,
    progress: impl Fn(&FetchProgress) + Send + Sync,
) -> Result<super::LocalEmbedder, String> {
    if let Ok(embedder) = super::LocalEmbedder::load(model, batch_size) {
        return Ok(embedder);
    }
    let folder = fetch_model(model, download, progress).await?;
    super::LocalEmbedder::load_named(&folder, model, batch_size).map_err(|e| e.to_string())
}

/// Forgets a remembered failure, so that the next command tries at once (after a
/// successful `haema model fetch`, or when a person asks for it).
pub fn forget_failure(hub: &Hub, model: &str) {
    let _ = std::fs::remove_file(failure_path(hub, model));
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

    #[test]
    fn a_failed_download_waits_before_the_next_automatic_try_from_the_same_hub() {
        let cache = tempfile::tempdir().unwrap();
        let hub = Hub::new("http://127.0.0.1:9", cache.path().to_path_buf(), false);
        let model = "sentence-transformers/all-MiniLM-L6-v2";
        assert!(recent_failure(&hub, model, 1_000).is_none());
        remember_failure(&hub, model, "cannot reach 127.0.0.1", 1_000);
        let failure = recent_failure(&hub, model, 1_000 + 60_000).unwrap();
        assert_eq!(failure.reason, "cannot reach 127.0.0.1");
        let window = i64::try_from(RETRY_AFTER.as_millis()).unwrap();
        assert!(
            recent_failure(&hub, model, 1_000 + window).is_none(),
            "tried again later"
        );
        let other = Hub::new("http://127.0.0.1:10", cache.path().to_path_buf(), false);
        assert!(
            recent_failure(&other, model, 2_000).is_none(),
            "another hub is tried at once"
        );
        forget_failure(&hub, model);
        assert!(recent_failure(&hub, model, 2_000).is_none());
    }

    #[test]
    fn connection_failures_are_told_in_a_few_words() {
        let e = HubError::Unreachable {
            url: "https://huggingface.co/x/y/resolve/main/config.json".into(),
            reason: "error sending request for url (https://huggingface.co/x): client error (Connect): dns error: failed to lookup address information: Name or service not known".into(),
        };
        assert_eq!(
            short_reason(&e),
            "cannot reach huggingface.co (Name or service not known)"
        );
    }
}
