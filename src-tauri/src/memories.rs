//! Commands of the memories and search views: adding, searching, recall, lineage, and the
//! long work of importing and re-embedding (with progress events).

use haema_core::review::ProfileLine;
use haema_core::{
    AddInput, AddOutcome, ChangesetView, ImportSummary, Lineage, MemoryId, MemoryRecord, Recall, SearchMode,
    SearchResults,
};
use serde::Serialize;
use tauri::{AppHandle, State};

use crate::error::{CommandError, CommandResult};
use crate::progress::{Reporter, Task};
use crate::state::AppState;

/// Adds what a person typed; the LLM (when configured) merges it with related memories.
/// Runs on the async runtime, never on the window's thread.
#[tauri::command]
#[specta::specta]
pub async fn add(app: AppHandle, state: State<'_, AppState>, text: String) -> CommandResult<AddOutcome> {
    if text.trim().is_empty() {
        return Err(CommandError::invalid(
            "There is nothing to remember yet: type something first.",
        ));
    }
    let memory = state.memory().await?;
    let progress = Reporter::new(app, Task::Add);
    let with_llm = memory.info().await.is_ok_and(|i| i.llm.is_some());
    progress.say(if with_llm {
        "Asking the language model how this fits with what is already remembered…"
    } else {
        "Saving…"
    });
    let outcome = memory.add(AddInput::Text(text)).await;
    progress.finish();
    Ok(outcome?)
}

/// What a search found: the memories, and the lines of the profile its words are in.
#[derive(Debug, Serialize, specta::Type)]
pub struct Found {
    /// The memories, best first.
    pub results: SearchResults,
    /// The profile's lines that hold the search's words (the profile is always given to
    /// the assistant, but search itself never returns it).
    pub profile: Vec<ProfileLine>,
}

/// Searches long-term memory, and the profile's lines for the same words.
#[tauri::command]
#[specta::specta]
pub async fn search(
    state: State<'_, AppState>,
    query: String,
    mode: Option<SearchMode>,
    count: Option<i64>,
) -> CommandResult<Found> {
    let memory = state.memory().await?;
    let most = i64::try_from(haema_core::limits::MAX_SEARCH_HITS).unwrap_or(i64::MAX);
    let results = memory
        .search_records(&query, count.unwrap_or(20).clamp(1, most), mode.unwrap_or_default())
        .await?;
    // A profile that cannot be read shows no lines; the Profile view says why.
    let profile = memory
        .core_sections()
        .await
        .map(|core| haema_core::review::profile_lines(&core, &query, 10))
        .unwrap_or_default();
    Ok(Found { results, profile })
}

/// What an assistant would be given for `query`.
#[tauri::command]
#[specta::specta]
pub async fn recall(state: State<'_, AppState>, query: String, budget: Option<usize>) -> CommandResult<Recall> {
    let budget = budget.unwrap_or(haema_core::DEFAULT_RECALL_BUDGET);
    Ok(state.memory().await?.recall(&query, budget).await?)
}

/// A memory with the changes that made and replaced it, as before/after views.
#[derive(Debug, Serialize, specta::Type)]
pub struct LineageView {
    /// The memory itself.
    pub memory: MemoryRecord,
    /// The change that made it.
    pub origin: Option<ChangesetView>,
    /// The change that replaced it, if it is no longer active.
    pub replaced_by: Option<ChangesetView>,
    /// How often search and recall returned it, and when last.
    pub access: haema_core::AccessStats,
}

/// Where a memory came from and what became of it.
#[tauri::command]
#[specta::specta]
pub async fn lineage(state: State<'_, AppState>, id: MemoryId) -> CommandResult<LineageView> {
    let Lineage {
        memory,
        origin,
        replaced_by,
        access,
    } = state.memory().await?.lineage(&id).await?;
    Ok(LineageView {
        memory,
        origin: origin.map(ChangesetView::new),
        replaced_by: replaced_by.map(ChangesetView::new),
        access,
    })
}

/// Imports the text of a file the person chose (a haema export, JSONL lines or mem0
/// JSON), embedding in batches with progress events.
#[tauri::command]
#[specta::specta]
pub async fn import_file(
    app: AppHandle,
    state: State<'_, AppState>,
    name: String,
    text: String,
) -> CommandResult<ImportSummary> {
    let memory = state.memory().await?;
    let progress = Reporter::new(app, Task::Import);
    progress.say(format!("Reading {name}…"));
    let step = |p: &Reporter| {
        let p = p.clone();
        move |done, total| p.step(done, total, "Making the memories searchable…")
    };
    let result = memory.import_text(&name, &text, step(&progress)).await;
    progress.finish();
    Ok(result?.summary())
}

/// Makes the search vectors of every memory again with the embedder the store's settings
/// name (after the settings changed), then reopens the store.
#[tauri::command]
#[specta::specta]
pub async fn reembed(app: AppHandle, state: State<'_, AppState>) -> CommandResult<haema_core::ReembedReport> {
    let memory = state.memory().await?;
    let dir = memory.dir().to_path_buf();
    let embedder = memory.settings().build_embedder()?;
    drop(memory);
    let progress = Reporter::new(app.clone(), Task::Reembed);
    progress.say("Making the search vectors again…");
    let report = haema_core::reembed(&dir, embedder, |p| {
        progress.step(p.done, p.total, "Making the search vectors again…");
    })
    .await;
    progress.finish();
    let report = report?;
    let (memory, generation) = state.open(dir).await?;
    crate::live::watch(app, memory, std::sync::Arc::clone(&state.generation), generation);
    Ok(report)
}
