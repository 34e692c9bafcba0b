//! The Hugging Face cache layout, shared with `huggingface_hub` and other tools:
//!
//! ```text
//! <cache>/models--org--name/blobs/<etag>                  file contents, named by etag
//! <cache>/models--org--name/blobs/<etag>.incomplete       a download under way
//! <cache>/models--org--name/snapshots/<commit>/<file>     relative symlink to the blob
//! <cache>/models--org--name/refs/<revision>               the commit of a branch or tag
//! <cache>/models--org--name/.no_exist/<commit>/<file>     empty: the file is not in that commit
//! <cache>/.locks/models--org--name/<etag>.lock            held while a blob is written
//! ```

use std::path::{Path, PathBuf};

use super::{CachedModel, HubError, ModelFile};

/// The folder prefix of model repositories (datasets and spaces have others).
const MODEL_PREFIX: &str = "models--";

/// The paths of one repository in the cache.
#[derive(Debug, Clone)]
pub(crate) struct RepoCache {
    dir: PathBuf,
    locks: PathBuf,
}

impl RepoCache {
    /// The cache of `repo` (checked: `name` or `org/name`) under `cache`.
    pub(crate) fn new(cache: &Path, repo: &str) -> Result<Self, HubError> {
        check_repo_name(repo)?;
        let folder_name = folder_name(repo);
        Ok(Self {
            dir: cache.join(&folder_name),
            locks: cache.join(".locks").join(&folder_name),
        })
    }

    /// `<cache>/models--org--name`.
    #[cfg(test)]
    fn dir(&self) -> &Path {
        &self.dir
    }

    pub(crate) fn blob(&self, etag: &str) -> PathBuf {
        self.dir.join("blobs").join(etag)
    }

    pub(crate) fn incomplete(&self, etag: &str) -> PathBuf {
        self.dir.join("blobs").join(format!("{etag}.incomplete"))
    }

    pub(crate) fn lock(&self, etag: &str) -> PathBuf {
        self.locks.join(format!("{etag}.lock"))
    }

    pub(crate) fn snapshot(&self, commit: &str) -> PathBuf {
        self.dir.join("snapshots").join(commit)
    }

    pub(crate) fn pointer(&self, commit: &str, file: &str) -> PathBuf {
        self.snapshot(commit).join(file)
    }

    fn reference(&self, revision: &str) -> PathBuf {
        self.dir.join("refs").join(revision)
    }

    fn no_exist(&self, commit: &str, file: &str) -> PathBuf {
        self.dir.join(".no_exist").join(commit).join(file)
    }

    /// The commit `refs/<revision>` names, if any.
    pub(crate) fn read_ref(&self, revision: &str) -> Option<String> {
        let commit = std::fs::read_to_string(self.reference(revision)).ok()?;
        let commit = commit.trim();
        check_component(commit).ok().map(|()| commit.to_owned())
    }

    /// Records that `revision` is `commit` (no entry when they are the same).
    pub(crate) fn write_ref(&self, revision: &str, commit: &str) -> Result<(), HubError> {
        if revision == commit || self.read_ref(revision).as_deref() == Some(commit) {
            return Ok(());
        }
        write_atomically(&self.reference(revision), commit.as_bytes())
    }

    /// Whether an earlier fetch found that `file` is not in `commit`.
    pub(crate) fn is_known_missing(&self, commit: &str, file: &str) -> bool {
        self.no_exist(commit, file).is_file()
    }

    /// Remembers that `file` is not in `commit`.
    pub(crate) fn mark_missing(&self, commit: &str, file: &str) -> Result<(), HubError> {
        let marker = self.no_exist(commit, file);
        if let Some(parent) = marker.parent() {
            std::fs::create_dir_all(parent).map_err(HubError::io(parent))?;
        }
        std::fs::File::create(&marker).map_err(HubError::io(&marker))?;
        Ok(())
    }

    /// Whether `snapshots/<commit>/<file>` is a symlink to an existing `blobs/<etag>`.
    pub(crate) fn is_linked(&self, commit: &str, file: &str, etag: &str) -> bool {
        let pointer = self.pointer(commit, file);
        std::fs::read_link(&pointer).is_ok_and(|target| target == relative_blob_target(file, etag)) && pointer.is_file()
    }

    /// Points `snapshots/<commit>/<file>` at `blobs/<etag>` with a relative symlink, made
    /// under a temporary name and renamed into place so no reader sees a half-made link.
    pub(crate) fn link(&self, commit: &str, file: &str, etag: &str) -> Result<(), HubError> {
        let pointer = self.pointer(commit, file);
        let parent = pointer.parent().unwrap_or(&self.dir).to_path_buf();
        std::fs::create_dir_all(&parent).map_err(HubError::io(&parent))?;
        let temp = temp_sibling(&pointer);
        let made = make_link(&relative_blob_target(file, etag), &self.blob(etag), &temp)
            .and_then(|()| std::fs::rename(&temp, &pointer));
        made.map_err(|e| {
            let _ = std::fs::remove_file(&temp);
            HubError::io(&pointer)(e)
        })
    }

    /// The snapshot holding every required file of `files`: `refs/<revision>` first, then
    /// `revision` as a commit, then the other snapshots, newest first.
    pub(crate) fn complete_snapshot(&self, revision: &str, files: &[ModelFile]) -> Option<PathBuf> {
        let mut candidates: Vec<PathBuf> = Vec::new();
        if let Some(commit) = self.read_ref(revision) {
            candidates.push(self.snapshot(&commit));
        }
        if check_component(revision).is_ok() {
            candidates.push(self.snapshot(revision));
        }
        candidates.extend(snapshots_newest_first(&self.dir.join("snapshots")));
        candidates.into_iter().find(|dir| has_required(dir, files))
    }
}

/// Whether `dir` holds every required file of `files` (symlinks to existing blobs count).
pub(crate) fn has_required(dir: &Path, files: &[ModelFile]) -> bool {
    files.iter().filter(|f| f.required).all(|f| dir.join(f.name).is_file())
}

/// Every model repository under `cache`, by name.
pub(crate) fn list_models(cache: &Path, files: &[ModelFile]) -> Result<Vec<CachedModel>, HubError> {
    let entries = match std::fs::read_dir(cache) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(HubError::io(cache)(e)),
    };
    let mut models = Vec::new();
    for entry in entries {
        let entry = entry.map_err(HubError::io(cache))?;
        let folder = entry.file_name();
        let Some(rest) = folder.to_str().and_then(|f| f.strip_prefix(MODEL_PREFIX)) else {
            continue;
        };
        let dir = entry.path();
        if !dir.is_dir() {
            continue;
        }
        let mut snapshots = snapshots_newest_first(&dir.join("snapshots"));
        snapshots.sort();
        models.push(CachedModel {
            name: rest.replace("--", "/"),
            bytes: folder_bytes(&dir.join("blobs")),
            complete: snapshots.iter().any(|s| has_required(s, files)),
            snapshots,
        });
    }
    models.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(models)
}

/// The bytes of the regular files in `dir` (blobs are stored once, so this counts each once).
fn folder_bytes(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|e| e.metadata().ok())
        .filter(std::fs::Metadata::is_file)
        .map(|m| m.len())
        .sum()
}

fn snapshots_newest_first(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<(std::time::SystemTime, PathBuf)> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| {
            let modified = e.metadata().and_then(|m| m.modified()).unwrap_or(std::time::UNIX_EPOCH);
            (modified, e.path())
        })
        .collect();
    found.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    found.into_iter().map(|(_, p)| p).collect()
}

/// `models--org--name`.
pub(crate) fn folder_name(repo: &str) -> String {
    format!("{MODEL_PREFIX}{}", repo.replace('/', "--"))
}

/// The symlink target from `snapshots/<commit>/<file>` to `blobs/<etag>`: one `..` per
/// folder of `file`, and two for `snapshots/<commit>`.
pub(crate) fn relative_blob_target(file: &str, etag: &str) -> PathBuf {
    let depth = file.split('/').count() + 1;
    let mut target = PathBuf::new();
    for _ in 0..depth {
        target.push("..");
    }
    target.join("blobs").join(etag)
}

/// `name` (one path component) is safe in a path: letters, digits, `.`, `_`, `-`, not
/// starting with `.`, at most 128 characters.
pub(crate) fn check_component(name: &str) -> Result<(), &'static str> {
    let ok = !name.is_empty()
        && name.len() <= 128
        && !name.starts_with('.')
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b));
    if ok { Ok(()) } else { Err("name") }
}

/// `org/name` or `name`, each part a safe component without `--`.
pub(crate) fn check_repo_name(repo: &str) -> Result<(), HubError> {
    let parts: Vec<&str> = repo.split('/').collect();
    let ok = parts.len() <= 2 && parts.iter().all(|p| check_component(p).is_ok() && !p.contains("--"));
    if ok {
        Ok(())
    } else {
        Err(HubError::InvalidName {
            what: "repository name",
            name: repo.to_owned(),
        })
    }
}

/// A relative path inside a repository (`a/b.json`): no empty, `.` or `..` parts, no `\`.
pub(crate) fn check_relative_path(path: &str, what: &'static str) -> Result<(), HubError> {
    let ok = !path.is_empty()
        && path.len() <= 1024
        && !path.contains(['\\', '\0'])
        && path.split('/').all(|p| !p.is_empty() && p != "." && p != "..");
    if ok {
        Ok(())
    } else {
        Err(HubError::InvalidName {
            what,
            name: path.to_owned(),
        })
    }
}

/// A name next to `path` for a temporary file: hidden, unique, in the same folder (so a
/// rename onto `path` is atomic).
pub(crate) fn temp_sibling(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.{}.tmp", uuid::Uuid::new_v4().simple()))
}

/// Writes `bytes` to `path` through a temporary file and a rename.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), HubError> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(HubError::io(parent))?;
    }
    let temp = temp_sibling(path);
    std::fs::write(&temp, bytes)
        .and_then(|()| std::fs::rename(&temp, path))
        .map_err(|e| {
            let _ = std::fs::remove_file(&temp);
            HubError::io(path)(e)
        })
}

#[cfg(unix)]
fn make_link(target: &Path, _blob: &Path, link: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(target, link)
}

/// Windows allows symlinks only in developer mode; elsewhere the blob is copied, as
/// `huggingface_hub` does.
#[cfg(windows)]
fn make_link(target: &Path, blob: &Path, link: &Path) -> std::io::Result<()> {
    std::os::windows::fs::symlink_file(target, link).or_else(|_| std::fs::copy(blob, link).map(|_| ()))
}

#[cfg(not(any(unix, windows)))]
fn make_link(_target: &Path, blob: &Path, link: &Path) -> std::io::Result<()> {
    std::fs::copy(blob, link).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_follow_the_huggingface_hub_layout() {
        let repo = RepoCache::new(Path::new("/c"), "sentence-transformers/all-MiniLM-L6-v2").unwrap();
        assert_eq!(
            repo.dir(),
            Path::new("/c/models--sentence-transformers--all-MiniLM-L6-v2")
        );
        assert_eq!(
            repo.blob("ab"),
            Path::new("/c/models--sentence-transformers--all-MiniLM-L6-v2/blobs/ab")
        );
        assert_eq!(
            repo.incomplete("ab"),
            Path::new("/c/models--sentence-transformers--all-MiniLM-L6-v2/blobs/ab.incomplete")
        );
        assert_eq!(
            repo.lock("ab"),
            Path::new("/c/.locks/models--sentence-transformers--all-MiniLM-L6-v2/ab.lock")
        );
        assert_eq!(
            repo.pointer("c0", "1_Pooling/config.json"),
            Path::new("/c/models--sentence-transformers--all-MiniLM-L6-v2/snapshots/c0/1_Pooling/config.json")
        );
        assert_eq!(relative_blob_target("config.json", "e"), Path::new("../../blobs/e"));
        assert_eq!(
            relative_blob_target("1_Pooling/config.json", "e"),
            Path::new("../../../blobs/e")
        );
    }

    #[test]
    fn names_that_could_leave_the_cache_are_refused() {
        for bad in ["", "../x", "a/b/c", "a/..", ".hidden/x", "a--b/c", "a/b c", "a\\b"] {
            assert!(check_repo_name(bad).is_err(), "{bad}");
        }
        for good in ["bert-base-uncased", "BAAI/bge-small-en-v1.5", "a_b/c.d"] {
            assert!(check_repo_name(good).is_ok(), "{good}");
        }
        for bad in ["", "/abs", "a/../b", "./a", "a//b", "a\\b"] {
            assert!(check_relative_path(bad, "file name").is_err(), "{bad}");
        }
        assert!(check_relative_path("1_Pooling/config.json", "file name").is_ok());
        assert!(check_component("0123abcd").is_ok());
        assert!(check_component("../x").is_err() && check_component(".x").is_err());
    }

    #[test]
    fn a_snapshot_counts_when_it_has_the_required_files() {
        let cache = tempfile::tempdir().unwrap();
        let repo = RepoCache::new(cache.path(), "o/m").unwrap();
        let files = [
            ModelFile {
                name: "a.json",
                required: true,
            },
            ModelFile {
                name: "b.json",
                required: false,
            },
        ];
        std::fs::create_dir_all(repo.dir().join("blobs")).unwrap();
        std::fs::write(repo.blob("e1"), "{}").unwrap();
        assert_eq!(repo.complete_snapshot("main", &files), None);
        repo.link("c1", "a.json", "e1").unwrap();
        assert_eq!(repo.complete_snapshot("main", &files), Some(repo.snapshot("c1")));
        repo.write_ref("main", "c1").unwrap();
        assert_eq!(repo.read_ref("main").as_deref(), Some("c1"));
        assert_eq!(std::fs::read_to_string(repo.pointer("c1", "a.json")).unwrap(), "{}");
        let listed = list_models(cache.path(), &files).unwrap();
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].name, "o/m");
        assert_eq!(listed[0].bytes, 2);
        assert!(listed[0].complete);
        assert!(list_models(&cache.path().join("none"), &files).unwrap().is_empty());
    }
}
