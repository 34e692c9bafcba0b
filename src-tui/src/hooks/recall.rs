//! SessionStart and UserPromptSubmit: the recall block for the prompt (the core profile and
//! the memories relevant to it, quoted as data), within `hooks.budget_tokens`, or nothing
//! past `hooks.timeout_ms`.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use haema_core::{Memory, OpenOptions, RecallOptions, Settings};

use super::{HookEvent, Target};

/// The block for `event`'s prompt; `None` when memory holds nothing to give. The work
/// runs as a task of its own, so the deadline holds even while it computes; `started` is
/// when the hook began, which the deadline counts from.
pub async fn answer(event: &HookEvent, target: &Target, started: Instant) -> Result<Option<String>> {
    let dir = crate::store_path::resolve(target.store.clone())?;
    let settings = Settings::load(&dir)?;
    let deadline = Duration::from_millis(settings.hooks.timeout_ms);
    let left = deadline.saturating_sub(started.elapsed());
    // The prompt as memory may read it: no private words, no secret sent to an embedder.
    let query = match &event.prompt {
        Some(prompt) if !prompt.trim().is_empty() => {
            haema_core::secrets::redact(&super::transcript::cleaned(prompt, &mut 0)).0
        }
        // A session starts with no prompt: what is relevant to the project it opens in.
        _ => event
            .cwd
            .as_ref()
            .and_then(|cwd| cwd.file_name())
            .map(|name| name.to_string_lossy().into_owned())
            .unwrap_or_default(),
    };
    let work = tokio::spawn(recall(query, target.clone(), dir, settings));
    match tokio::time::timeout(left, work).await {
        Ok(Ok(answer)) => answer,
        Ok(Err(e)) => bail!("the recall stopped: {e}"),
        Err(_) => bail!("past hooks.timeout_ms ({} ms): answered nothing", deadline.as_millis()),
    }
}

async fn recall(query: String, target: Target, dir: PathBuf, settings: Settings) -> Result<Option<String>> {
    let budget = settings.hooks.budget_tokens;
    let memory = Memory::open_with_options(&dir, settings, OpenOptions::quick()).await?;
    let mut options = RecallOptions::budget(budget);
    let memory = scoped(memory, &target, &mut options)?;
    let recall = memory.recall_with(&query, &options).await?;
    Ok((!recall.items.is_empty()).then_some(recall.text))
}

/// The store as the hook's user sees it: a `per_user` store opened for them (it needs
/// one), another filtered to them when one is given.
pub(super) fn scoped(memory: Memory, target: &Target, options: &mut RecallOptions) -> Result<Memory> {
    if memory.requires_user() {
        let Some(user) = target.user.as_deref() else {
            bail!("this store keeps users apart: install the hooks with --user ID (or set HAEMA_USER)");
        };
        return Ok(memory.for_user(user)?);
    }
    options.filter.user_id = target.user.clone();
    Ok(memory)
}
