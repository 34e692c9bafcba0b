//! SessionStart and UserPromptSubmit: the recall block for the prompt (the core profile and
//! the memories relevant to it, quoted as data), within `hooks.budget_tokens`, or nothing
//! past `hooks.timeout_ms`.
//!
//! Warm, a process that holds the store open (`haema mcp`, the TUI, the desktop app)
//! answers through the store's recall socket ([`haema_core::recall_socket`]); cold, the
//! hook opens the store and loads the model itself.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use haema_core::recall_socket::{self, RecallReply, RecallRequest};
use haema_core::{Memory, OpenOptions, Settings};

use super::{HookEvent, Target};

/// How the block was made, for the hook's log.
pub enum Source {
    /// By the process `pid`, which holds the store open.
    Warm(u32),
    /// By the hook itself; the reason it was not warm.
    Cold(String),
}

/// The block for `event`'s prompt; `None` when memory holds nothing to give. The work
/// runs as a task of its own, so the deadline holds even while it computes; `started` is
/// when the hook began, which the deadline counts from.
pub async fn answer(event: &HookEvent, target: &Target, started: Instant) -> Result<(Option<String>, Source)> {
    let dir = crate::store_path::resolve(target.store.clone())?;
    let settings = Settings::load(&dir)?;
    let deadline = Duration::from_millis(settings.hooks.timeout_ms);
    let left = deadline.saturating_sub(started.elapsed());
    let request = RecallRequest {
        query: query(event),
        budget_tokens: settings.hooks.budget_tokens,
        user: target.user.clone(),
    };
    let work = tokio::spawn(recall(request, dir, settings, left));
    match tokio::time::timeout(left, work).await {
        Ok(Ok(answer)) => answer,
        Ok(Err(e)) => bail!("the recall stopped: {e}"),
        Err(_) => bail!("past hooks.timeout_ms ({} ms): answered nothing", deadline.as_millis()),
    }
}

/// The prompt as memory may read it: no private words (its secrets are replaced by the
/// search that answers it, before anything embeds it). A session starts
/// with no prompt: then what is relevant to the project it opens in.
fn query(event: &HookEvent) -> String {
    match &event.prompt {
        Some(prompt) if !prompt.trim().is_empty() => super::transcript::cleaned(prompt, &mut 0),
        _ => event
            .cwd
            .as_ref()
            .and_then(|cwd| cwd.file_name())
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default(),
    }
}

async fn recall(
    request: RecallRequest,
    dir: PathBuf,
    settings: Settings,
    left: Duration,
) -> Result<(Option<String>, Source)> {
    // Half the time left at most, so that a holder that is stuck (stopped, swamped) still
    // leaves the hook time to answer cold.
    let cold_because = match recall_socket::ask(&dir, &request, left / 2).await {
        Ok(Some(RecallReply::Recall { text, pid })) => return Ok((text, Source::Warm(pid))),
        Ok(Some(RecallReply::Refused { reason })) => format!("the process holding the store refused: {reason}"),
        Ok(None) => "no process holds the store open".to_owned(),
        Err(e) => e.to_string(),
    };
    let memory = Memory::open_with_options(&dir, settings, OpenOptions::quick()).await?;
    let text = request.answer(&memory).await.map_err(super::with_remedy)?;
    Ok((text, Source::Cold(cold_because)))
}
