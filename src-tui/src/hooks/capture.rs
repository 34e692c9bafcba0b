//! Stop, PreCompact and SessionEnd: the session's new words since the last capture (a
//! [`CaptureCursor`] in the store), captured into memory
//! ([`haema_core::Memory::capture`]): split into facts by the LLM under the review policy,
//! or waiting for one. Claude Code is never kept waiting: the hook starts a second haema
//! that does the work and returns at once.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result, bail};
use haema_core::{CaptureCursor, CaptureOutcome, Memory, MemoryAttributes, OpenOptions, Settings};

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
/// session's cursor to the transcript's last whole line; first, with an LLM connected, the
/// words of this user's earlier sessions that waited for one.
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
    let memory = Memory::open_with_options(&dir, Settings::load(&dir)?, OpenOptions::quick()).await?;
    let memory = memory.as_user(target.user.as_deref()).map_err(super::with_remedy)?;
    let lock = lock(&dir)?;
    let mut earlier = 0;
    if memory.can_capture() {
        for (other, cursor) in memory.captures_waiting(CLAUDE_CODE).await? {
            if other != session && cursor.user_id == target.user {
                let from = Path::new(&cursor.transcript);
                capture_from(&memory, &other, from, cursor.offset, target).await?;
                earlier += 1;
            }
        }
    }
    let name = path.to_string_lossy();
    let cursor = memory.capture_cursor(CLAUDE_CODE, &session).await?;
    let offset = cursor.filter(|c| c.transcript == name).map_or(0, |c| c.offset);
    let (outcome, turns) = capture_from(&memory, &session, path, offset, target).await?;
    drop(lock);
    Ok(said(&outcome, turns, earlier, path))
}

/// Captures `session`'s transcript at `path` from `offset` and moves its cursor: past what
/// was read, or, when no LLM can read it, kept where it was with the words waiting.
async fn capture_from(
    memory: &Memory,
    session: &str,
    path: &Path,
    offset: u64,
    target: &Target,
) -> Result<(CaptureOutcome, usize)> {
    let tail = transcript::read_from(path, offset).with_context(|| format!("cannot read {}", path.display()))?;
    let attributes = MemoryAttributes {
        source: Some(CLAUDE_CODE.into()),
        agent_id: Some(CLAUDE_CODE.into()),
        session_id: Some(session.to_owned()),
        user_id: target.user.clone().filter(|_| !memory.requires_user()),
        ..MemoryAttributes::default()
    };
    let outcome = memory.capture(&transcript::as_text(&tail.turns), attributes).await?;
    let waiting = outcome == CaptureOutcome::NeedsLlm;
    let cursor = CaptureCursor {
        transcript: path.to_string_lossy().into_owned(),
        offset: if waiting { offset } else { tail.end },
        waiting,
        user_id: target.user.clone(),
    };
    memory.set_capture_cursor(CLAUDE_CODE, session, &cursor).await?;
    Ok((outcome, tail.turns.len()))
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
        n => format!("; {n} earlier sessions that waited for an LLM captured"),
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
        CaptureOutcome::NeedsLlm => {
            format!("{turns} new turns wait for an LLM (connect one with `haema setup`); nothing was stored{earlier}")
        }
    }
}
