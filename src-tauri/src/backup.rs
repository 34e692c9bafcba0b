//! The store's folder and size, and copies of it to a file the person chooses: a full
//! backup (haema's lossless export: every memory in every status, every change with the
//! AI's answers, every profile version; it imports into a new memory as it was) or a page to
//! read (Markdown).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use tauri::State;

use crate::error::{CommandError, CommandResult};
use crate::state::AppState;

/// Where the open store lives and how much room it takes.
#[derive(Debug, Serialize, specta::Type)]
pub struct StoreFacts {
    /// Its folder.
    pub dir: PathBuf,
    /// The bytes of every file in it.
    pub bytes: f64,
    /// A file name to offer for a backup (in the home folder, dated).
    pub suggested_backup: PathBuf,
}

/// Which copy to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "snake_case")]
pub enum CopyKind {
    /// Everything, to bring back into a new memory.
    Backup,
    /// The profile and the memories as a page to read.
    Readable,
}

/// A copy written.
#[derive(Debug, Serialize, specta::Type)]
pub struct CopyWritten {
    /// Where.
    pub path: PathBuf,
    /// Its size in bytes.
    pub bytes: f64,
}

/// The open store's folder and size.
#[tauri::command]
#[specta::specta]
pub async fn store_facts(state: State<'_, AppState>) -> CommandResult<StoreFacts> {
    let memory = state.memory().await?;
    let dir = memory.dir().to_path_buf();
    let home = std::env::var_os("HOME").map_or_else(|| dir.clone(), PathBuf::from);
    let day = today();
    Ok(StoreFacts {
        bytes: folder_bytes(&dir) as f64,
        suggested_backup: home.join(format!("haema-backup-{day}.jsonl")),
        dir,
    })
}

/// Writes a copy of the open store to `path`, which must not exist yet (nothing is ever
/// written over).
#[tauri::command]
#[specta::specta]
pub async fn write_copy(state: State<'_, AppState>, path: PathBuf, kind: CopyKind) -> CommandResult<CopyWritten> {
    let memory = state.memory().await?;
    if path.as_os_str().is_empty() || path.is_dir() {
        return Err(CommandError::invalid(
            "Give the file's name, such as ~/haema-backup.jsonl.",
        ));
    }
    let path = expand_home(&path);
    if path.exists() {
        return Err(CommandError::invalid(format!(
            "There is a file at {} already; choose another name, so that nothing is written over.",
            path.display()
        )));
    }
    let mut text = Vec::new();
    match kind {
        CopyKind::Backup => {
            memory.export_jsonl(&mut text).await?;
        }
        CopyKind::Readable => memory.export_markdown(&mut text).await?,
    }
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if !dir.is_dir() {
        return Err(CommandError::invalid(format!(
            "There is no folder {}; choose a folder that exists.",
            dir.display()
        )));
    }
    // The owner's alone (0600), as every file of the store is.
    let written = haema_core::create_private(&path)
        .and_then(|mut f| std::io::Write::write_all(&mut f, &text).and_then(|()| f.sync_all()));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&path);
        return Err(CommandError::invalid(format!(
            "The copy could not be written to {}: {e}.",
            path.display()
        )));
    }
    Ok(CopyWritten {
        path,
        bytes: text.len() as f64,
    })
}

/// `~/x` as the home folder's `x`.
fn expand_home(path: &Path) -> PathBuf {
    match (path.strip_prefix("~"), std::env::var_os("HOME")) {
        (Ok(rest), Some(home)) => PathBuf::from(home).join(rest),
        _ => path.to_path_buf(),
    }
}

/// The bytes of every file under `dir`.
fn folder_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir).map_or(0, |entries| {
        entries
            .flatten()
            .map(|e| match e.metadata() {
                Ok(m) if m.is_dir() => folder_bytes(&e.path()),
                Ok(m) => m.len(),
                Err(_) => 0,
            })
            .sum()
    })
}

/// Today as `YYYY-MM-DD` (UTC).
fn today() -> String {
    let ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(0));
    haema_core::iso_utc(ms)[..10].to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn today_is_a_date() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"), "{d}");
    }
}
