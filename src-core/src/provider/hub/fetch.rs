//! [`Hub::fetch`]: each file's metadata from the Hub, then the blobs the cache lacks.

use std::path::PathBuf;

use super::cache::{self, RepoCache};
use super::download::Transfer;
use super::lock::lock_blob;
use super::metadata::{FileMetadata, FileRef, Head, head};
use super::progress::Reporter;
use super::verify::{ExpectedHash, hash_file};
use super::{Clients, FetchProgress, Hub, HubError, ModelFile};

impl Hub {
    /// The snapshot folder of `repo` at `revision` with every file of `files` the repository
    /// has, downloading what the cache lacks; returns it. Required files must exist;
    /// optional ones the repository lacks are skipped and remembered, so later fetches do
    /// not ask for them again.
    ///
    /// Offline, no request is sent: the cached snapshot is returned if complete, else
    /// [`HubError::Offline`]. Online, each file costs a `HEAD` (files after the first are
    /// asked at the commit the first resolved to, so all come from one commit), plus a `GET`
    /// for missing blobs. When the Hub cannot be reached (or answers 5xx), a complete cached
    /// snapshot is returned instead of the error, as `huggingface_hub` does.
    pub async fn fetch(
        &self,
        repo: &str,
        revision: &str,
        files: &[ModelFile],
        progress: &(dyn Fn(&FetchProgress) + Send + Sync),
    ) -> Result<PathBuf, HubError> {
        cache::check_relative_path(revision, "revision")?;
        for file in files {
            cache::check_relative_path(file.name, "file name")?;
        }
        let repo_cache = RepoCache::new(&self.cache, repo)?;
        if self.offline {
            return repo_cache
                .complete_snapshot(revision, files)
                .ok_or_else(|| HubError::Offline {
                    repo: repo.to_owned(),
                    cache: self.cache.clone(),
                });
        }
        if let Some(dir) = self.settled_commit(&repo_cache, revision, files) {
            let mut reporter = Reporter::new(progress, files.len());
            for file in files {
                reporter.start_file(file.name, 0, None);
                reporter.finish_file();
            }
            return Ok(dir);
        }
        match self.fetch_online(&repo_cache, repo, revision, files, progress).await {
            Err(e) if e.is_connectivity() => repo_cache.complete_snapshot(revision, files).ok_or(e),
            result => result,
        }
    }

    /// When `revision` is a commit id whose snapshot has every file (or knows it absent),
    /// that snapshot: a commit never changes, so there is nothing to ask.
    fn settled_commit(&self, repo_cache: &RepoCache, revision: &str, files: &[ModelFile]) -> Option<PathBuf> {
        let is_commit = revision.len() == 40 && revision.bytes().all(|b| b.is_ascii_hexdigit());
        let dir = repo_cache.snapshot(revision);
        let settled = files
            .iter()
            .all(|f| dir.join(f.name).is_file() || (!f.required && repo_cache.is_known_missing(revision, f.name)));
        (is_commit && settled).then_some(dir)
    }

    async fn fetch_online(
        &self,
        repo_cache: &RepoCache,
        repo: &str,
        revision: &str,
        files: &[ModelFile],
        progress: &(dyn Fn(&FetchProgress) + Send + Sync),
    ) -> Result<PathBuf, HubError> {
        let clients = self.clients()?;
        let mut reporter = Reporter::new(progress, files.len());
        // Required files first: they fix the commit before optional ones are looked up.
        let ordered = files
            .iter()
            .filter(|f| f.required)
            .chain(files.iter().filter(|f| !f.required));
        let mut commit: Option<String> = None;
        for file in ordered {
            if !file.required
                && let Some(c) = &commit
                && repo_cache.is_known_missing(c, file.name)
            {
                reporter.start_file(file.name, 0, None);
                reporter.finish_file();
                continue;
            }
            let asked = commit.as_deref().unwrap_or(revision);
            let url = self.resolve_url(repo, asked, file.name);
            let what = FileRef { repo, revision: asked };
            match head(&clients.head, &url, &what).await? {
                Head::Missing { commit: answered } => {
                    if file.required {
                        return Err(HubError::NotFound {
                            repo: repo.to_owned(),
                            file: file.name.to_owned(),
                        });
                    }
                    if let Some(c) = commit.clone().or(answered) {
                        repo_cache.mark_missing(&c, file.name)?;
                        commit = Some(c);
                    }
                    reporter.start_file(file.name, 0, None);
                    reporter.finish_file();
                }
                Head::Found(meta) => {
                    match &commit {
                        None => commit = Some(meta.commit.clone()),
                        Some(c) if *c != meta.commit => {
                            return Err(HubError::BadResponse {
                                url,
                                reason: format!("it answered commit {} for commit {c}", meta.commit),
                            });
                        }
                        Some(_) => {}
                    }
                    fetch_file(clients, repo_cache, &url, file.name, &meta, &mut reporter).await?;
                }
            }
        }
        let commit = commit.ok_or_else(|| HubError::RevisionNotFound {
            repo: repo.to_owned(),
            revision: revision.to_owned(),
        })?;
        let dir = repo_cache.snapshot(&commit);
        std::fs::create_dir_all(&dir).map_err(HubError::io(&dir))?;
        repo_cache.write_ref(revision, &commit)?;
        Ok(dir)
    }

    /// `{endpoint}/{repo}/resolve/{revision}/{file}`, the revision and each part of the
    /// file percent-encoded.
    fn resolve_url(&self, repo: &str, revision: &str, file: &str) -> String {
        let file: Vec<String> = file.split('/').map(percent_encode).collect();
        format!(
            "{}/{repo}/resolve/{}/{}",
            self.endpoint,
            percent_encode(revision),
            file.join("/")
        )
    }
}

/// Makes `snapshots/<commit>/<file>` point at the blob `meta.etag`, downloading the blob
/// under its lock unless it is there (a waiter finds it made by the lock's holder).
async fn fetch_file(
    clients: &Clients,
    repo_cache: &RepoCache,
    url: &str,
    file: &str,
    meta: &FileMetadata,
    reporter: &mut Reporter<'_>,
) -> Result<(), HubError> {
    let blob = repo_cache.blob(&meta.etag);
    let present = |reporter: &mut Reporter<'_>| {
        let size = std::fs::metadata(&blob).map(|m| m.len()).ok().or(meta.size);
        reporter.start_file(file, size.unwrap_or(0), size);
    };
    if blob.is_file() {
        present(reporter);
    } else {
        let _lock = lock_blob(&repo_cache.lock(&meta.etag)).await?;
        if blob.is_file() {
            present(reporter);
        } else {
            download_blob(clients, repo_cache, url, file, meta, reporter).await?;
        }
    }
    if !repo_cache.is_linked(&meta.commit, file, &meta.etag) {
        repo_cache.link(&meta.commit, file, &meta.etag)?;
    }
    reporter.finish_file();
    Ok(())
}

/// Downloads (or resumes) `blobs/<etag>.incomplete`, checks it against the etag and renames
/// it to `blobs/<etag>`. A wrong download is deleted.
async fn download_blob(
    clients: &Clients,
    repo_cache: &RepoCache,
    url: &str,
    file: &str,
    meta: &FileMetadata,
    reporter: &mut Reporter<'_>,
) -> Result<(), HubError> {
    let blob = repo_cache.blob(&meta.etag);
    let incomplete = repo_cache.incomplete(&meta.etag);
    if let Some(blobs) = blob.parent() {
        std::fs::create_dir_all(blobs).map_err(HubError::io(blobs))?;
    }
    let transfer = Transfer {
        client: &clients.get,
        url,
        file,
        expected_size: meta.size,
    };
    let discard = |error: HubError| {
        let _ = std::fs::remove_file(&incomplete);
        error
    };
    match transfer.run(&incomplete, reporter).await {
        Err(e @ HubError::SizeMismatch { .. }) => return Err(discard(e)),
        other => other?,
    }
    let kind = ExpectedHash::of_etag(&meta.etag);
    let to_hash = incomplete.clone();
    let hashed = tokio::task::spawn_blocking(move || hash_file(&to_hash, kind))
        .await
        .map_err(|e| HubError::io(&incomplete)(std::io::Error::other(e)))?
        .map_err(HubError::io(&incomplete))?;
    if let Some(actual) = hashed
        && !actual.eq_ignore_ascii_case(&meta.etag)
    {
        return Err(discard(HubError::HashMismatch {
            file: file.to_owned(),
            expected: meta.etag.clone(),
            actual,
        }));
    }
    std::fs::rename(&incomplete, &blob).map_err(HubError::io(&blob))
}

/// Percent-encodes all but unreserved URL characters.
fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_follow_the_resolve_scheme() {
        let hub = Hub::new("http://h/", PathBuf::from("/c"), false);
        assert_eq!(
            hub.resolve_url("o/m", "main", "1_Pooling/config.json"),
            "http://h/o/m/resolve/main/1_Pooling/config.json"
        );
        assert_eq!(
            hub.resolve_url("o/m", "refs/pr/1", "a b.json"),
            "http://h/o/m/resolve/refs%2Fpr%2F1/a%20b.json"
        );
    }

    #[test]
    fn fetch_can_run_on_any_runtime_thread() {
        fn assert_send<T: Send>(_: T) {}
        let hub = Hub::new("http://127.0.0.1:9", PathBuf::from("/c"), true);
        assert_send(hub.fetch("o/m", "main", &[], &|_| {}));
    }
}
