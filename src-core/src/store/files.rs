//! Files of a store folder other than the database: core.md and haema.toml, each replaced
//! atomically so a reader never sees half a file; and who may read them: a store folder is
//! its owner's alone (0700, its files 0600 on Unix), set when it is made and tightened when
//! an older or copied store is opened.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// Creates `path` (which must not exist yet) readable and writable by its owner only.
///
/// ```
/// use std::io::Write;
/// let dir = tempfile::tempdir()?;
/// let mut file = haema_core::create_private(&dir.path().join("export.jsonl"))?; // 0600 on Unix
/// file.write_all(b"...")?;
/// assert!(haema_core::create_private(&dir.path().join("export.jsonl")).is_err()); // never overwrites
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn create_private(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}

/// Creates the store folder `dir` (and missing parents) for its owner only, and tightens an
/// existing one: the folder to 0700, each file in it to 0600. Returns a sentence for each
/// change to a store that already held memories, for the person to read; a folder that is
/// only now becoming a store (an empty temporary folder, a folder made by hand) is made
/// private without a word. A folder that cannot be changed (another user's, a read-only
/// disk) is left as it is.
pub fn make_private(dir: &Path) -> Result<Vec<String>> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir).map_err(|e| Error::io("create folder", dir, e))?;
    let held_a_store = crate::store::places::is_store_dir(dir);
    let notes = tighten(dir);
    Ok(if held_a_store { notes } else { Vec::new() })
}

#[cfg(unix)]
fn tighten(dir: &Path) -> Vec<String> {
    use std::os::unix::fs::PermissionsExt;
    let mut notes = Vec::new();
    let loose = |path: &Path| -> Option<u32> {
        let meta = std::fs::symlink_metadata(path).ok()?;
        let mode = meta.permissions().mode() & 0o777;
        (mode & 0o077 != 0 && !meta.file_type().is_symlink()).then_some(mode)
    };
    if let Some(mode) = loose(dir)
        && std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).is_ok()
    {
        notes.push(format!(
            "the store folder {} was readable by others ({mode:o}); it is now yours alone (700)",
            dir.display()
        ));
    }
    let mut files: Vec<String> = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if entry.file_type().is_ok_and(|t| t.is_file())
            && loose(&path).is_some()
            && std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).is_ok()
        {
            files.push(entry.file_name().to_string_lossy().into_owned());
        }
    }
    if !files.is_empty() {
        files.sort();
        notes.push(format!(
            "{} in the store folder {} readable by others: now yours alone (600): {}",
            if files.len() == 1 { "a file was" } else { "files were" },
            dir.display(),
            files.join(", ")
        ));
    }
    notes
}

#[cfg(not(unix))]
fn tighten(_dir: &Path) -> Vec<String> {
    Vec::new()
}

/// `path` as it would be written: its folder's real path and its name (a link at `path`
/// followed), so that two spellings of one file compare equal.
fn resolved(path: &Path) -> Option<PathBuf> {
    if let Ok(real) = std::fs::canonicalize(path) {
        return Some(real);
    }
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    Some(std::fs::canonicalize(parent).ok()?.join(path.file_name()?))
}

/// Whether `path` is inside folder `dir` (or is it), however either is spelled.
///
/// ```
/// let store = tempfile::tempdir()?;
/// assert!(haema_core::is_inside(&store.path().join("core.md"), store.path()));
/// assert!(!haema_core::is_inside(&store.path().join("../core.md"), store.path()));
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn is_inside(path: &Path, dir: &Path) -> bool {
    match (resolved(path), std::fs::canonicalize(dir)) {
        (Some(path), Ok(dir)) => path.starts_with(dir),
        _ => false,
    }
}

/// Writes `content` to `path` atomically: a temporary file in the same folder, fsync,
/// rename over the target, fsync of the folder.
pub fn write_atomically(path: &Path, content: &str) -> Result<()> {
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    // One name per write: two threads of a process may write at once.
    static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let tmp = dir.join(format!(
        ".{}.tmp-{}-{}",
        path.file_name().and_then(|n| n.to_str()).unwrap_or("core.md"),
        std::process::id(),
        WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    let write = || -> std::io::Result<()> {
        let _ = std::fs::remove_file(&tmp);
        let mut file = create_private(&tmp)?;
        file.write_all(content.as_bytes())?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)?;
        if let Ok(d) = std::fs::File::open(dir) {
            // Not all platforms can fsync a folder; the rename is done either way.
            let _ = d.sync_all();
        }
        Ok(())
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Error::io("write", path, e)
    })
}

/// Reads core.md whatever its bytes: text that is not UTF-8 (a byte an editor or a copy
/// damaged) is read with each bad sequence as U+FFFD, its exact bytes are kept first in
/// `core.md.invalid-<hash>` beside it (yours alone, once per content, its secrets
/// replaced: [`super::core_copy`]), and a sentence says so. `None` when there is no core.md.
pub fn read_core_lossy(path: &Path) -> Result<Option<(String, Option<String>)>> {
    not_a_folder(path)?;
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io("read", path, e)),
    };
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Some((text, None))),
        Err(e) => {
            let offset = e.utf8_error().valid_up_to();
            let bytes = e.into_bytes();
            let copy = super::core_copy::keep(path, &bytes)?;
            let note = format!(
                "{} is not valid UTF-8 (the first bad byte is at offset {offset}): it is read with � in place of the bad bytes, \
                 and its exact bytes are kept in {}; fix the text in an editor, or set its sections again",
                path.display(),
                copy.display()
            );
            Ok(Some((String::from_utf8_lossy(&bytes).into_owned(), Some(note))))
        }
    }
}

/// Reads core.md.
pub fn read(path: &Path) -> Result<String> {
    not_a_folder(path)?;
    std::fs::read_to_string(path).map_err(|e| Error::io("read", path, e))
}

/// Whether core.md is a folder: then it cannot be read, and the error says once what to do.
pub(crate) fn is_folder(path: &Path) -> bool {
    path.is_dir()
}

/// The error for a folder where core.md should be, with the way out.
fn not_a_folder(path: &Path) -> Result<()> {
    if !is_folder(path) {
        return Ok(());
    }
    Err(Error::io(
        "read",
        path,
        std::io::Error::new(
            std::io::ErrorKind::IsADirectory,
            "it is a folder, but core.md must be a file: move the folder out of the store (or remove it) and haema writes core.md again from its last saved version",
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    fn mode(path: &Path) -> u32 {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[cfg(unix)]
    #[test]
    fn a_store_folder_is_its_owners_alone() {
        use std::os::unix::fs::PermissionsExt;
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("a/b/store");
        assert!(
            make_private(&dir).unwrap().is_empty(),
            "a new folder needs no tightening"
        );
        assert_eq!(mode(&dir), 0o700);
        let by_hand = root.path().join("made-by-hand");
        std::fs::create_dir(&by_hand).unwrap();
        std::fs::set_permissions(&by_hand, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert!(
            make_private(&by_hand).unwrap().is_empty(),
            "a folder only now becoming a store is made private without a word"
        );
        assert_eq!(mode(&by_hand), 0o700);
        write_atomically(&dir.join("core.md"), "x").unwrap();
        assert_eq!(mode(&dir.join("core.md")), 0o600);
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::write(dir.join("memory.db"), "").unwrap();
        std::fs::set_permissions(dir.join("memory.db"), std::fs::Permissions::from_mode(0o644)).unwrap();
        let notes = make_private(&dir).unwrap();
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(notes[0].contains("755") && notes[1].contains("memory.db"), "{notes:?}");
        assert_eq!((mode(&dir), mode(&dir.join("memory.db"))), (0o700, 0o600));
        assert!(make_private(&dir).unwrap().is_empty(), "nothing left to tighten");
    }

    #[test]
    fn inside_follows_every_spelling() {
        let root = tempfile::tempdir().unwrap();
        let store = root.path().join("store");
        std::fs::create_dir(&store).unwrap();
        std::fs::write(store.join("memory.db"), "").unwrap();
        assert!(is_inside(&store.join("memory.db"), &store));
        assert!(is_inside(&store.join("new.jsonl"), &store));
        assert!(is_inside(&root.path().join("store/../store/memory.db"), &store));
        assert!(!is_inside(&root.path().join("export.jsonl"), &store));
        #[cfg(unix)]
        {
            let link = root.path().join("link.jsonl");
            std::os::unix::fs::symlink(store.join("memory.db"), &link).unwrap();
            assert!(is_inside(&link, &store), "a link into the store is the store");
        }
    }

    #[test]
    fn atomic_write_replaces_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("core.md");
        write_atomically(&path, "one").unwrap();
        write_atomically(&path, "two").unwrap();
        assert_eq!(read(&path).unwrap(), "two");
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temporary file left"
        );
    }
}
