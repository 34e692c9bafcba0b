//! The hook log: a hook answers nothing when it fails or runs late (the prompt must go
//! on), so why it did goes here, one line each, secrets replaced. `HAEMA_HOOK_LOG` names
//! the file; else `hooks.log` in haema's state folder (`$XDG_STATE_HOME/haema`, else
//! `~/.local/state/haema`; haema's data folder where there is none).

use std::io::Write;
use std::path::PathBuf;

/// A log longer than this is moved to `hooks.log.1` (replacing the one before).
const MAX_BYTES: u64 = 1024 * 1024;

/// The log file.
pub fn path() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("HAEMA_HOOK_LOG").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(path));
    }
    let dirs = directories::BaseDirs::new()?;
    let base = dirs.state_dir().unwrap_or_else(|| dirs.data_local_dir());
    Some(base.join("haema").join("hooks.log"))
}

/// Appends one line: the time, the event, the session and what happened, each screened
/// for secrets (an error may quote what it was given). A log that cannot be written is
/// given up on quietly: the hook's answer matters more.
pub fn line(event: &str, session: &str, what: &str) {
    let said = |text: &str| haema_core::printable_line(&haema_core::secrets::redact(text).0);
    append(&said(event), &said(session), &said(what));
}

/// Appends a line of haema's own words (a timing, a process id): nothing in it to screen,
/// so a prompt's hook does not pay for starting the secret screen. The event and session
/// are kept to the characters Claude Code's names and ids are made of.
pub fn ours(event: &str, session: &str, what: &str) {
    let id = |text: &str| -> String {
        text.chars()
            .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
            .take(64)
            .collect()
    };
    append(&id(event), &id(session), &haema_core::printable_line(what));
}

fn append(event: &str, session: &str, what: &str) {
    let Some(path) = path() else { return };
    let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    if std::fs::metadata(&path).is_ok_and(|m| m.len() > MAX_BYTES) {
        let _ = std::fs::rename(&path, path.with_extension("log.1"));
    }
    let file = std::fs::OpenOptions::new().create(true).append(true).open(&path);
    if let Ok(mut file) = file {
        let _ = writeln!(file, "{now} {event} {session}: {what}");
    }
}
