//! Forgetting from the window: what a forget would remove (shown in a confirmation before
//! anything happens), then the forget itself. A person at the window decides for
//! themselves, so the forget runs at once whatever the review policy (the policy holds an
//! agent's `forget_memory` for a person; here the person is asking).

use haema_core::{ChangesetId, ForgetPlan, ForgetReceipt, ForgetRequest, PendingForget};
use tauri::{AppHandle, State};

use crate::error::{CommandError, CommandResult, Problem};
use crate::progress::{Reporter, Task};
use crate::state::AppState;

fn checked(request: ForgetRequest) -> CommandResult<ForgetRequest> {
    if request.is_empty() {
        return Err(CommandError::invalid(
            "Say what to forget: choose a memory, or type a word or phrase.",
        ));
    }
    Ok(request)
}

/// What forgetting `request` would remove: the memories with their text (the ones asked
/// for and the older ones they were built from), and how many changes and profile versions
/// hold their text. Nothing is changed.
#[tauri::command]
#[specta::specta]
pub async fn forget_plan(state: State<'_, AppState>, request: ForgetRequest) -> CommandResult<ForgetPlan> {
    let request = checked(request)?;
    Ok(state.memory().await?.forget_plan(request).await?)
}

/// What approving an assistant's forget request (a pending change) would remove now: the
/// phrase it asked for, the memories, the assistant notes removed whole and the ones
/// blanked, the changes and profile versions whose words go. `None` when `id` is no
/// pending forget request. Nothing is changed.
#[tauri::command]
#[specta::specta]
pub async fn pending_forget(state: State<'_, AppState>, id: ChangesetId) -> CommandResult<Option<PendingForget>> {
    Ok(state.memory().await?.pending_forget(id).await?)
}

/// Forgets for good: the memories' text, vectors and search entries, their text in every
/// change and profile version, and the old bytes on disk. Cannot be undone; the receipt
/// (counts, never the text) stays in the history.
#[tauri::command]
#[specta::specta]
pub async fn forget(
    app: AppHandle,
    state: State<'_, AppState>,
    request: ForgetRequest,
) -> CommandResult<ForgetReceipt> {
    let progress = Reporter::new(app, Task::Forget);
    progress.say("Forgetting, and clearing the old copies from the disk…");
    let receipt = forget_now(&state, request).await;
    progress.finish();
    receipt
}

/// The forget of [`forget`], without the window's progress events.
///
/// # Errors
/// Nothing to forget, no store open, or the store refused (an unknown id, a failed write).
pub async fn forget_now(state: &AppState, request: ForgetRequest) -> CommandResult<ForgetReceipt> {
    let request = checked(request)?;
    let changeset = state.memory().await?.forget(request).await?;
    changeset
        .forget
        .and_then(|f| f.receipt)
        .ok_or_else(|| CommandError::new(Problem::Internal, "The forget finished without a receipt."))
}
