//! Stop, PreCompact and SessionEnd: the session's new words since the last capture (a
//! cursor in the `claude-code` agent's state), captured into memory
//! ([`haema_core::Memory::capture`]): split into facts by the LLM under the review policy,
//! or waiting for one. Claude Code is never kept waiting: the hook starts a second haema
//! that does the work and returns at once.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result, bail};
use haema_core::{CaptureOutcome, Memory, MemoryAttributes, OpenOptions, RecallOptions, Settings};
use serde_json::json;

use super::{CLAUDE_CODE, HookEvent, Target, transcript};

/// Starts `haema hook claude-code --foreground` on the same event, apart from Claude
/// Code's process group, and returns without waiting for it.
pub fn in_background(raw: &str, target: &Target) -> Result<String> {
    let haema = std::env::current_exe().context("cannot find this haema program's path")?;
    let mut command = std::process::Command::new(haema);
    if let Some(store) = &target.store {
        command.arg("--store").arg(store);
    }
    if let Some(user) = &target.user {
        command.arg("--user").arg(user);
    }
    command
        .args(["hook", "claude-code", "--foreground"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    #[allow(
        clippy::zombie_processes,
        reason = "this process exits now: the capture is adopted and reaped by init"
    )]
    let mut child = command.spawn().context("cannot start the capture")?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(raw.as_bytes())
            .context("cannot hand the event to the capture")?;
    }
    Ok(format!("capture started in the background (process {})", child.id()))
}

/// The capture itself: one at a time on a store (a lock file in its folder), from the
/// session's cursor to the transcript's last whole line.
pub async fn run(event: &HookEvent, target: &Target) -> Result<String> {
    let session: String = event
        .session_id
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .take(64)
        .collect();
    if session.is_empty() {
        bail!("the event has no session_id");
    }
    let Some(path) = event.transcript_path.as_deref() else {
        bail!("the event has no transcript_path");
    };
    let dir = crate::store_path::resolve(target.store.clone())?;
    let lock = lock(&dir)?;
    let memory = Memory::open_with_options(&dir, Settings::load(&dir)?, OpenOptions::quick()).await?;
    let memory = super::recall::scoped(memory, target, &mut RecallOptions::default())?;
    let earlier = memory.add_waiting_captures().await?;
    let key = format!("capture.{session}");
    let cursor = memory.get_agent_state(CLAUDE_CODE, &key).await?.map(|s| s.value);
    let same_file = cursor.as_ref().and_then(|c| c["transcript"].as_str()) == Some(&*path.to_string_lossy());
    let offset = cursor
        .as_ref()
        .filter(|_| same_file)
        .and_then(|c| c["offset"].as_u64())
        .unwrap_or(0);
    let tail = transcript::read_from(path, offset).with_context(|| format!("cannot read {}", path.display()))?;
    let attributes = MemoryAttributes {
        source: Some(CLAUDE_CODE.into()),
        agent_id: Some(CLAUDE_CODE.into()),
        session_id: Some(session.clone()),
        user_id: target.user.clone().filter(|_| !memory.requires_user()),
        ..MemoryAttributes::default()
    };
    let outcome = memory.capture(&transcript::as_text(&tail.turns), attributes).await?;
    let value = json!({"offset": tail.end, "transcript": path.to_string_lossy()});
    memory.set_agent_state(CLAUDE_CODE, &key, value).await?;
    drop(lock);
    Ok(said(&outcome, tail.turns.len(), earlier, path))
}

/// `<store>/.capture.lock`, the owner's alone as every file of the store, held until
/// dropped: a second capture waits for the first, so no words are captured twice.
fn lock(dir: &Path) -> Result<std::fs::File> {
    let path = dir.join(".capture.lock");
    let mut options = std::fs::OpenOptions::new();
    options.create(true).truncate(false).write(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let file = options
        .open(&path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    file.lock().with_context(|| format!("cannot lock {}", path.display()))?;
    Ok(file)
}

fn said(outcome: &CaptureOutcome, turns: usize, earlier: usize, path: &Path) -> String {
    let earlier = match earlier {
        0 => String::new(),
        n => format!("; {n} earlier waiting parts added"),
    };
    match outcome {
        CaptureOutcome::Empty => format!("nothing new in {}{earlier}", path.display()),
        CaptureOutcome::Added { outcomes } => {
            let statuses: Vec<String> = outcomes
                .iter()
                .map(|o| match o.changeset {
                    Some(id) => format!("change {id} {}", o.status),
                    None => o.status.to_string(),
                })
                .collect();
            format!("{turns} new turns captured: {}{earlier}", statuses.join(", "))
        }
        CaptureOutcome::Queued { waiting } => format!(
            "{turns} new turns wait for an LLM ({waiting} parts in all; connect one with `haema setup`){earlier}"
        ),
    }
}
