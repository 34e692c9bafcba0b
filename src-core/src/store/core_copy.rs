//! The copy of core.md's exact bytes kept when they are not UTF-8 (`core.md.invalid-<hash>`,
//! beside core.md): a file of the store like any other, so no secret is written to it
//! (each is replaced by its marker, as in core.md) and a forget blanks its phrase in it (and
//! counts it among the core versions it blanks).

use std::io::Write;
use std::path::{Path, PathBuf};

use super::files::create_private;
use crate::error::{Error, Result};

/// The start of a copy's file name.
const PREFIX: &str = "core.md.invalid-";

/// Keeps `bytes`, core.md's content that is not UTF-8, in a copy beside `core` (once per
/// content: its name holds the hash of the bytes read), with its secrets replaced. Returns
/// the copy's path.
pub(crate) fn keep(core: &Path, bytes: &[u8]) -> Result<PathBuf> {
    let hash = sha2::Digest::finalize(<sha2::Sha256 as sha2::Digest>::new_with_prefix(bytes));
    let tag: String = hash.iter().take(6).map(|b| format!("{b:02x}")).collect();
    let copy = core.with_file_name(format!("{PREFIX}{tag}"));
    if !copy.exists() {
        let screened = change_runs(bytes, &|text| {
            let (redacted, tally) = crate::secrets::redact(text);
            (!tally.is_empty()).then_some(redacted)
        });
        let mut file = create_private(&copy).map_err(|e| Error::io("create", &copy, e))?;
        file.write_all(screened.as_deref().unwrap_or(bytes))
            .and_then(|()| file.sync_all())
            .map_err(|e| Error::io("write", &copy, e))?;
    }
    Ok(copy)
}

/// The copies beside `core`, in name order.
fn copies(core: &Path) -> Vec<PathBuf> {
    let (Some(dir), Some(_)) = (core.parent(), core.file_name()) else {
        return Vec::new();
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(PREFIX) && e.path().is_file())
        .map(|e| e.path())
        .collect();
    found.sort();
    found
}

/// How many copies beside `core` `change` would change (read with U+FFFD for bad bytes).
pub(crate) fn count_changed(core: &Path, change: &dyn Fn(&str) -> Option<String>) -> usize {
    copies(core)
        .iter()
        .filter_map(|copy| std::fs::read(copy).ok())
        .filter(|bytes| change_runs(bytes, change).is_some())
        .count()
}

/// Rewrites each copy beside `core` that `change` changes (its bad bytes kept where they
/// are), each replaced at once: returns how many.
pub(crate) fn rewrite(core: &Path, change: &dyn Fn(&str) -> Option<String>) -> Result<usize> {
    let mut rewritten = 0;
    for copy in copies(core) {
        let bytes = std::fs::read(&copy).map_err(|e| Error::io("read", &copy, e))?;
        let Some(changed) = change_runs(&bytes, change) else {
            continue;
        };
        let tmp = copy.with_file_name(format!(
            ".{}.tmp",
            copy.file_name().unwrap_or_default().to_string_lossy()
        ));
        let _ = std::fs::remove_file(&tmp);
        let written = create_private(&tmp)
            .and_then(|mut file| file.write_all(&changed).and_then(|()| file.sync_all()))
            .and_then(|()| std::fs::rename(&tmp, &copy));
        if let Err(e) = written {
            let _ = std::fs::remove_file(&tmp);
            return Err(Error::io("write", &copy, e));
        }
        rewritten += 1;
    }
    Ok(rewritten)
}

/// `bytes` with `change` applied to each run of valid text between bad bytes, the bad
/// bytes kept; when the whole read with U+FFFD would still change after that (what
/// `change` finds spans a bad byte), that reading changed whole. `None` when nothing
/// changes.
fn change_runs(bytes: &[u8], change: &dyn Fn(&str) -> Option<String>) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut changed = false;
    for chunk in bytes.utf8_chunks() {
        match change(chunk.valid()) {
            Some(text) => {
                changed = true;
                out.extend_from_slice(text.as_bytes());
            }
            None => out.extend_from_slice(chunk.valid().as_bytes()),
        }
        out.extend_from_slice(chunk.invalid());
    }
    if let Some(whole) = change(&String::from_utf8_lossy(&out)) {
        return Some(whole.into_bytes());
    }
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blank(word: &'static str) -> impl Fn(&str) -> Option<String> {
        move |text: &str| text.contains(word).then(|| text.replace(word, "[forgotten]"))
    }

    #[test]
    fn a_change_keeps_the_bad_bytes_where_they_are() {
        let bytes = b"# USER\nRaven lives here \xff and Raven again\n";
        let changed = change_runs(bytes, &blank("Raven")).unwrap();
        assert_eq!(changed, b"# USER\n[forgotten] lives here \xff and [forgotten] again\n");
        assert_eq!(change_runs(bytes, &blank("Tom")), None);
    }

    #[test]
    fn what_spans_a_bad_byte_is_changed_in_the_text_read() {
        let changed = change_runs(b"Rav\xffen", &|t: &str| {
            t.contains("Rav\u{FFFD}en").then(|| "[x]".to_owned())
        });
        assert_eq!(changed.unwrap(), b"[x]");
    }

    #[test]
    fn the_copy_holds_no_secret_and_a_forget_blanks_it() {
        let dir = tempfile::tempdir().unwrap();
        let core = dir.path().join("core.md");
        let copy = keep(
            &core,
            b"# TOOLS\naws AKIAIOSFODNN7EXAMPLE \xfe\n# USER\nRaven Blackwood\n",
        )
        .unwrap();
        let kept = std::fs::read(&copy).unwrap();
        assert!(!String::from_utf8_lossy(&kept).contains("AKIAIOSFODNN7EXAMPLE"));
        assert!(kept.contains(&0xfe), "the bad byte is kept");
        assert_eq!(count_changed(&core, &blank("Raven")), 1);
        assert_eq!(rewrite(&core, &blank("Raven")).unwrap(), 1);
        assert!(!String::from_utf8_lossy(&std::fs::read(&copy).unwrap()).contains("Raven"));
        assert_eq!(count_changed(&core, &blank("Raven")), 0);
    }
}
