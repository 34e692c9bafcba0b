//! haema's hooks in a Claude Code settings file (`.claude/settings.json`,
//! `.claude/settings.local.json`, `~/.claude/settings.json`): merged in beside every other
//! hook and setting, found again by their command, removed alone.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde_json::{Map, Value, json};

/// The events haema answers: recall at the start and on each prompt, capture at the end of
/// each answer, before a compaction and at the end of the session.
pub const EVENTS: &[&str] = &["SessionStart", "UserPromptSubmit", "Stop", "PreCompact", "SessionEnd"];

/// What every command haema installs holds, and how its hooks are found again.
pub const MARK: &str = " hook claude-code";

/// How long Claude Code lets one of haema's hooks run, in seconds: a bound, never reached
/// (the hook keeps to `hooks.timeout_ms` and a capture returns at once).
const TIMEOUT_SECS: u64 = 10;

/// Which settings file: the project's shared one, the project's own to this machine, or
/// the user's for every project (Claude Code's scopes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Scope {
    /// `<project>/.claude/settings.json`, shared with the project.
    Project,
    /// `<project>/.claude/settings.local.json`, this machine's only.
    Local,
    /// `~/.claude/settings.json`, every project of this user.
    User,
}

/// The settings file of `scope` for the project folder `project`.
pub fn path(scope: Scope, project: &Path) -> Result<PathBuf> {
    Ok(match scope {
        Scope::Project => project.join(".claude").join("settings.json"),
        Scope::Local => project.join(".claude").join("settings.local.json"),
        Scope::User => home()?.join(".claude").join("settings.json"),
    })
}

fn home() -> Result<PathBuf> {
    directories::BaseDirs::new()
        .map(|d| d.home_dir().to_path_buf())
        .context("no home folder: give --scope project or local")
}

/// The settings as read: an empty object for a missing or empty file; a file that is no
/// JSON object is an error that names it and changes nothing.
pub fn read(path: &Path) -> Result<Map<String, Value>> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Map::new()),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    if text.trim().is_empty() {
        return Ok(Map::new());
    }
    match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => bail!(
            "{} is no JSON object: fix or move it, then run this again",
            path.display()
        ),
        Err(e) => bail!(
            "{} is not valid JSON ({e}): fix it, then run this again",
            path.display()
        ),
    }
}

/// Writes the settings whole, through a new temporary file of a random name beside the
/// real file (a cut write leaves the old file; a link planted in the folder is never
/// followed). A settings file that is a link (dotfiles) is written where it points, and
/// keeps its permissions (a new one is its owner's alone).
pub fn write(path: &Path, settings: &Map<String, Value>) -> Result<()> {
    let target = match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            std::fs::canonicalize(path).with_context(|| format!("{} points nowhere", path.display()))?
        }
        _ => path.to_path_buf(),
    };
    let dir = target.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let text = serde_json::to_string_pretty(settings)? + "\n";
    let mut temp = tempfile::Builder::new()
        .prefix(".settings.")
        .suffix(".haema-tmp")
        .tempfile_in(dir)
        .with_context(|| format!("cannot write in {}", dir.display()))?;
    std::io::Write::write_all(&mut temp, text.as_bytes())
        .with_context(|| format!("cannot write in {}", dir.display()))?;
    if let Ok(meta) = std::fs::metadata(&target) {
        temp.as_file()
            .set_permissions(meta.permissions())
            .with_context(|| format!("cannot keep the permissions of {}", target.display()))?;
    }
    temp.persist(&target)
        .map_err(|e| e.error)
        .with_context(|| format!("cannot replace {}", target.display()))?;
    Ok(())
}

/// `settings` with haema's hooks running `command`, in place of any haema hook it held;
/// every other hook is kept as it was.
pub fn with_hooks(mut settings: Map<String, Value>, command: &str) -> Result<Map<String, Value>> {
    settings = without_hooks(settings)?;
    let hooks = settings.entry("hooks").or_insert_with(|| json!({}));
    let Value::Object(hooks) = hooks else {
        bail!("the settings' \"hooks\" is no JSON object: fix it, then run this again");
    };
    for event in EVENTS {
        let groups = hooks.entry(*event).or_insert_with(|| json!([]));
        let Value::Array(groups) = groups else {
            bail!("the settings' hooks.{event} is no list: fix it, then run this again");
        };
        groups.push(json!({"hooks": [{"type": "command", "command": command, "timeout": TIMEOUT_SECS}]}));
    }
    Ok(settings)
}

/// `settings` without haema's hooks; groups, events and a `hooks` object left empty by
/// that go too, and nothing else changes.
pub fn without_hooks(mut settings: Map<String, Value>) -> Result<Map<String, Value>> {
    let Some(hooks) = settings.get_mut("hooks") else {
        return Ok(settings);
    };
    let Value::Object(hooks) = hooks else {
        bail!("the settings' \"hooks\" is no JSON object: fix it, then run this again");
    };
    for groups in hooks.values_mut() {
        let Value::Array(groups) = groups else { continue };
        for group in groups.iter_mut() {
            if let Some(Value::Array(list)) = group.get_mut("hooks") {
                list.retain(|hook| !is_haema(hook));
            }
        }
        groups.retain(|group| !matches!(group.get("hooks"), Some(Value::Array(list)) if list.is_empty()));
    }
    hooks.retain(|_, groups| !matches!(groups, Value::Array(list) if list.is_empty()));
    if hooks.is_empty() {
        settings.remove("hooks");
    }
    Ok(settings)
}

/// The events whose hooks run haema in `settings`, with the command of each, in the order
/// a session meets them.
pub fn installed(settings: &Map<String, Value>) -> Vec<(String, String)> {
    let Some(Value::Object(hooks)) = settings.get("hooks") else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for (event, groups) in hooks {
        let Value::Array(groups) = groups else { continue };
        for hook in groups.iter().filter_map(|g| g.get("hooks")?.as_array()).flatten() {
            if is_haema(hook) {
                let command = hook.get("command").and_then(Value::as_str).unwrap_or_default();
                found.push((event.clone(), command.to_owned()));
            }
        }
    }
    // In the order a session meets them.
    found.sort_by_key(|(event, _)| EVENTS.iter().position(|e| e == event).unwrap_or(EVENTS.len()));
    found
}

fn is_haema(hook: &Value) -> bool {
    hook.get("command")
        .and_then(Value::as_str)
        .is_some_and(|c| c.contains(MARK))
}

/// The command Claude Code runs: this haema, the store and user it was installed for, each
/// quoted for the shell.
pub fn command(haema: &Path, store: Option<&Path>, user: Option<&str>) -> String {
    let mut words = vec![quoted(&haema.to_string_lossy())];
    if let Some(store) = store {
        words.push("--store".into());
        words.push(quoted(&store.to_string_lossy()));
    }
    if let Some(user) = user {
        words.push("--user".into());
        words.push(quoted(user));
    }
    format!("{}{MARK}", words.join(" "))
}

/// A word quoted for a POSIX shell: in single quotes, a quote inside written `'\''`.
fn quoted(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn theirs() -> Map<String, Value> {
        let text = r#"{
          "permissions": {"allow": ["Bash(npm test)"]},
          "hooks": {
            "PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "prettier --write"}]}],
            "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]
          }
        }"#;
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn installing_keeps_every_other_hook_and_twice_changes_nothing() {
        let command = command(Path::new("/opt/haema it's"), Some(Path::new("/s")), None);
        assert_eq!(command, r"'/opt/haema it'\''s' --store '/s' hook claude-code");
        let once = with_hooks(theirs(), &command).unwrap();
        let twice = with_hooks(once.clone(), &command).unwrap();
        assert_eq!(once, twice);
        assert_eq!(installed(&once).len(), EVENTS.len());
        assert_eq!(once["hooks"]["Stop"].as_array().unwrap().len(), 2);
        assert_eq!(once["hooks"]["PostToolUse"], theirs()["hooks"]["PostToolUse"]);
        assert_eq!(once["permissions"], theirs()["permissions"]);
    }

    #[test]
    fn uninstalling_removes_only_haemas_hooks_and_what_they_left_empty() {
        let installed_once = with_hooks(theirs(), "haema hook claude-code").unwrap();
        assert_eq!(without_hooks(installed_once).unwrap(), theirs());
        let only_haema = with_hooks(Map::new(), "haema hook claude-code").unwrap();
        assert_eq!(without_hooks(only_haema).unwrap(), Map::new());
    }

    #[test]
    fn a_file_that_is_no_settings_object_is_refused_and_left_as_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        std::fs::write(&path, "[1, 2").unwrap();
        assert!(read(&path).unwrap_err().to_string().contains("not valid JSON"));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "[1, 2");
        assert!(read(&dir.path().join("missing.json")).unwrap().is_empty());
        let odd: Map<String, Value> = serde_json::from_str(r#"{"hooks": []}"#).unwrap();
        assert!(with_hooks(odd, "haema hook claude-code").is_err());
    }
}
