//! The desktop's commands called as the window calls them, on a real store in a temporary
//! folder, without a window: each returns what the generated TypeScript expects, and each
//! failure arrives as the kind and the way out the window shows.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use haema_core::config::{SettingFile, Source};
use haema_core::{AddStatus, ChangesetId, ChangesetKind, ChangesetStatus, ForgetRequest, MemoryStatus, Section};
use haema_desktop::error::{Problem, Remedy};
use haema_desktop::state::AppState;
use haema_desktop::{commands, core_view, edits, forget, memories, review, settings};
use tauri::Manager;

/// A mock Tauri app holding the app's state, with a store opened in `dir` whose changes
/// wait for review and that searches by words (no model to download).
async fn app_with_store(dir: &std::path::Path) -> tauri::App<tauri::test::MockRuntime> {
    std::fs::write(
        dir.join("haema.toml"),
        "review = \"review\"\n\n[embedder]\nprovider = \"none\"\n",
    )
    .unwrap();
    let app = tauri::test::mock_app();
    app.manage(AppState::new(None));
    app.state::<AppState>().open(dir.to_path_buf()).await.unwrap();
    app
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_change_is_reviewed_searched_traced_undone_and_listed() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_with_store(dir.path()).await;
    let state = || app.state::<AppState>();
    let memory = state().memory().await.unwrap();
    let added = memory.add(vec!["The user drinks green tea.".to_owned()]).await.unwrap();
    assert_eq!(added.status, AddStatus::Pending);
    let id = added.changeset.unwrap();

    let waiting = review::awaiting_review(state()).await.unwrap();
    assert_eq!(waiting.len(), 1);
    assert_eq!(waiting[0].after[0].content, "The user drinks green tea.");
    let approved = review::approve(state(), id).await.unwrap();
    assert_eq!(approved.changeset.status, ChangesetStatus::Committed);

    let latest = commands::latest(state(), None, 10).await.unwrap();
    assert_eq!(latest.len(), 1);
    assert_eq!(latest[0].status, MemoryStatus::Active);
    let found = memories::search(state(), "green tea".into(), None, None).await.unwrap();
    assert_eq!(found.results.hits.len(), 1);
    let lineage = memories::lineage(state(), latest[0].id.clone()).await.unwrap();
    assert_eq!(lineage.origin.map(|o| o.changeset.id), Some(id));
    let recall = memories::recall(state(), "tea".into(), Some(200)).await.unwrap();
    assert!(recall.text.contains("green tea"), "{}", recall.text);

    let undone = review::revert(state(), id).await.unwrap();
    assert_eq!(undone.view.changeset.reverts_id, Some(id));
    assert!(undone.profile_left.is_empty(), "a whole undo");
    assert!(commands::latest(state(), None, 10).await.unwrap().is_empty());
    let history = review::history(state(), None, 10, None).await.unwrap();
    assert_eq!(history.len(), 2);
    assert_eq!(history[1].view.changeset.status, ChangesetStatus::Reverted);
    let status = commands::app_status(state()).await.unwrap();
    assert_eq!(status.store.map(|s| s.active), Some(0));
    let words = status.status.unwrap();
    assert_eq!(
        (words.by_meaning, words.search.as_str(), words.review.as_str()),
        (
            false,
            "Search finds memories by their words only: no search model is chosen.",
            "Nothing waits for you in Review."
        )
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failures_arrive_as_kinds_with_their_way_out() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_with_store(dir.path()).await;
    let state = || app.state::<AppState>();

    let missing = review::changeset(state(), ChangesetId::from(999)).await.unwrap_err();
    assert_eq!(missing.kind, Problem::NotFound);

    let memory = state().memory().await.unwrap();
    let id = memory
        .add(vec!["The user has a cat.".to_owned()])
        .await
        .unwrap()
        .changeset
        .unwrap();
    review::reject(state(), id).await.unwrap();
    let twice = review::approve(state(), id).await.unwrap_err();
    assert_eq!(twice.kind, Problem::Invalid);
    assert!(twice.message.contains("rejected"), "{}", twice.message);
    let reopened = review::reopen(state(), id).await.unwrap();
    assert_eq!(reopened.changeset.status, ChangesetStatus::Pending);

    let nothing_open = tauri::test::mock_app();
    nothing_open.manage(AppState::new(None));
    let no_store = commands::latest(nothing_open.state::<AppState>(), None, 10)
        .await
        .unwrap_err();
    assert_eq!(no_store.kind, Problem::NoStore);
    assert_eq!(no_store.remedy, None::<Remedy>);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_profile_is_edited_locked_and_its_history_read() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_with_store(dir.path()).await;
    let state = || app.state::<AppState>();
    core_view::set_section(state(), Section::User, "- Likes jazz.".into())
        .await
        .unwrap();
    core_view::set_lock(state(), Section::User, true).await.unwrap();
    let core = core_view::core(state()).await.unwrap();
    assert_eq!(core.sections.get(Section::User), "- Likes jazz.");
    assert_eq!(core.locked, vec![Section::User]);
    let history = core_view::section_history(state(), Section::User).await.unwrap();
    assert_eq!(history.len(), 2, "the template and the edit");
    let diff = core_view::text_diff("a\nb".into(), "a\nc".into());
    assert_eq!(diff.len(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_settings_say_each_value_and_where_it_came_from() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_with_store(dir.path()).await;
    let state = || app.state::<AppState>();

    let shown = settings::settings(state()).await.unwrap();
    assert_eq!(shown.file, dir.path().join("haema.toml"));
    assert!(shown.file_exists);
    assert!(!shown.reopen_needed);
    let line = |key: &str| shown.settings.iter().find(|l| l.key == key).unwrap().clone();
    let review = line("review");
    assert_eq!((review.value.as_str(), review.source), ("review", Source::File));
    assert_eq!(review.file, Some(SettingFile::Store));
    assert_eq!(review.allowed, ["auto", "review", "guarded"]);
    assert_eq!(line("embedder.provider").value, "none");
    assert!(shown.settings.iter().all(|l| !l.help.is_empty()));
    assert!(
        shown.settings.iter().all(|l| l.key != "store"),
        "the window shows the store itself"
    );

    // What the environment sets wins, and a key never reaches the window.
    let memory = state().memory().await.unwrap();
    let env = |name: &str| match name {
        "HAEMA_LLM_API_KEY" => Some("sk-proj-abcdefghijklmnop1234".to_owned()),
        "HAEMA_MERGE_TOP_K" => Some("7".to_owned()),
        _ => None,
    };
    let shown = settings::store_settings(&memory, None, env).unwrap();
    let line = |key: &str| shown.settings.iter().find(|l| l.key == key).unwrap().clone();
    let key = line("llm.api_key");
    assert_eq!(
        (key.value.as_str(), key.source, key.file),
        ("sk-…1234", Source::Env, None)
    );
    assert_eq!(
        (line("merge.top_k").value.as_str(), line("merge.top_k").source),
        ("7", Source::Env)
    );
    let json = serde_json::to_string(&shown).unwrap();
    assert!(!json.contains("abcdefghijklmnop"), "{json}");

    // haema.toml changed after the store opened: the new value shows, and that it applies
    // once the store is opened again.
    std::fs::write(
        dir.path().join("haema.toml"),
        "review = \"auto\"\n\n[embedder]\nprovider = \"none\"\n",
    )
    .unwrap();
    let shown = settings::settings(state()).await.unwrap();
    let review = shown.settings.iter().find(|l| l.key == "review").unwrap();
    assert_eq!((review.value.as_str(), review.source), ("auto", Source::File));
    assert!(shown.reopen_needed);

    let nothing_open = tauri::test::mock_app();
    nothing_open.manage(AppState::new(None));
    let no_store = settings::settings(nothing_open.state::<AppState>()).await.unwrap_err();
    assert_eq!(no_store.kind, Problem::NoStore);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forget_shows_what_goes_then_removes_it_for_good_whatever_the_policy() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_with_store(dir.path()).await;
    let state = || app.state::<AppState>();
    let memory = state().memory().await.unwrap();
    for text in ["I live at 12 Elm Street.", "The user drinks green tea."] {
        let added = memory.add(vec![text.to_owned()]).await.unwrap();
        review::approve(state(), added.changeset.unwrap()).await.unwrap();
    }

    let empty = forget::forget_plan(state(), ForgetRequest::default())
        .await
        .unwrap_err();
    assert_eq!(empty.kind, Problem::Invalid);
    let by_phrase = ForgetRequest {
        memory_ids: Vec::new(),
        mentioning: Some("elm street".into()),
    };
    let plan = forget::forget_plan(state(), by_phrase.clone()).await.unwrap();
    assert_eq!(plan.memories.len(), 1);
    assert_eq!(plan.memories[0].content, "I live at 12 Elm Street.");
    assert!(plan.changesets >= 1, "the add that wrote it: {plan:?}");
    assert_eq!(
        commands::latest(state(), None, 10).await.unwrap().len(),
        2,
        "a plan changes nothing"
    );

    // The store's policy is `review`, yet the person at the window forgets at once.
    let receipt = forget::forget_now(&state(), by_phrase).await.unwrap();
    assert_eq!((receipt.memories, receipt.phrase), (1, true));
    let left = commands::latest(state(), None, 10).await.unwrap();
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].content, "The user drinks green tea.");
    let history = review::history(state(), None, 10, None).await.unwrap();
    assert_eq!(history[0].view.changeset.kind, ChangesetKind::Forget);
    assert_eq!(history[0].view.changeset.status, ChangesetStatus::Committed);
    let json = serde_json::to_string(&history).unwrap();
    assert!(!json.to_lowercase().contains("elm street"), "{json}");
    drop(memory);
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        assert!(!String::from_utf8_lossy(&bytes).to_lowercase().contains("elm street"));
    }

    let by_id = ForgetRequest {
        memory_ids: vec![left[0].id.clone()],
        mentioning: None,
    };
    let receipt = forget::forget_now(&state(), by_id).await.unwrap();
    assert_eq!(receipt.memories, 1);
    assert!(commands::latest(state(), None, 10).await.unwrap().is_empty());
    let unknown = ForgetRequest {
        memory_ids: vec!["no-such-memory".into()],
        mentioning: None,
    };
    let refused = forget::forget_now(&state(), unknown).await.unwrap_err();
    assert_eq!(refused.kind, Problem::NotFound, "{refused:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_assistants_forget_request_shows_what_approving_it_removes() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_with_store(dir.path()).await;
    let state = || app.state::<AppState>();
    let memory = state().memory().await.unwrap();
    memory
        .set_agent_state("default", "task", serde_json::json!("ship v2"))
        .await
        .unwrap();
    let asked = memory
        .request_forget(ForgetRequest {
            memory_ids: Vec::new(),
            mentioning: Some("default".into()),
        })
        .await
        .unwrap();
    let pending = forget::pending_forget(state(), asked.id).await.unwrap().unwrap();
    assert_eq!(pending.mentioning.as_deref(), Some("default"));
    assert_eq!(pending.plan.agent_state_removed.len(), 1);
    assert_eq!(pending.plan.agent_state_removed[0].key, "task");
    review::approve(state(), asked.id).await.unwrap();
    assert_eq!(forget::pending_forget(state(), asked.id).await.unwrap(), None);
    assert!(memory.list_agent_state("default").await.unwrap().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_memory_is_changed_pinned_and_deleted_at_once_whatever_the_policy() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_with_store(dir.path()).await;
    let state = || app.state::<AppState>();
    let memory = state().memory().await.unwrap();
    let added = memory.add(vec!["The user drinks green tea.".to_owned()]).await.unwrap();
    review::approve(state(), added.changeset.unwrap()).await.unwrap();
    let id = added.memory_ids[0].clone();

    // The store's policy is `review`, yet the person at the window changes it at once.
    let empty = edits::update_memory(state(), id.clone(), "  ".into())
        .await
        .unwrap_err();
    assert_eq!(empty.kind, Problem::Invalid);
    let changed = edits::update_memory(state(), id, "The user drinks black tea.".into())
        .await
        .unwrap();
    assert_eq!(changed.status, AddStatus::Committed);
    let new = changed.memory_ids[0].clone();
    let pinned = edits::set_pinned(state(), new.clone(), true).await.unwrap();
    assert!(pinned.pinned);
    let latest = commands::latest(state(), None, 10).await.unwrap();
    assert_eq!(
        (latest[0].content.as_str(), latest[0].pinned),
        ("The user drinks black tea.", true)
    );
    let deleted = edits::delete_memory(state(), new).await.unwrap();
    assert_eq!(deleted.status, AddStatus::Committed);
    assert!(commands::latest(state(), None, 10).await.unwrap().is_empty());
    review::revert(state(), deleted.changeset.unwrap()).await.unwrap();
    assert_eq!(commands::latest(state(), None, 10).await.unwrap().len(), 1, "undone");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_and_a_page_are_written_to_new_files_only_and_the_backup_imports_whole() {
    use haema_desktop::backup::{self, CopyKind};
    let dir = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let app = app_with_store(dir.path()).await;
    let state = || app.state::<AppState>();
    let memory = state().memory().await.unwrap();
    let id = memory
        .add(vec!["The user keeps bees.".to_owned()])
        .await
        .unwrap()
        .changeset
        .unwrap();
    memory.approve(id).await.unwrap();

    let facts = backup::store_facts(state()).await.unwrap();
    assert_eq!(facts.dir, dir.path());
    assert!(facts.bytes > 0.0);
    assert!(facts.suggested_backup.to_string_lossy().ends_with(".jsonl"));

    let path = out.path().join("backup.jsonl");
    let written = backup::write_copy(state(), path.clone(), CopyKind::Backup)
        .await
        .unwrap();
    assert_eq!(written.path, path);
    let page = backup::write_copy(state(), out.path().join("page.md"), CopyKind::Readable)
        .await
        .unwrap();
    // The owner's alone, as every file of the store is (the backup holds every memory).
    #[cfg(unix)]
    for file in [&path, &page.path] {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{}", file.display());
    }
    assert!(
        std::fs::read_to_string(&page.path)
            .unwrap()
            .contains("The user keeps bees.")
    );
    // Nothing is ever written over, and a folder that is not there is said.
    let again = backup::write_copy(state(), path.clone(), CopyKind::Readable)
        .await
        .unwrap_err();
    assert_eq!(again.kind, Problem::Invalid);
    assert!(again.message.contains("choose another name"), "{}", again.message);
    let nowhere = backup::write_copy(state(), out.path().join("no/such/folder/x.jsonl"), CopyKind::Backup)
        .await
        .unwrap_err();
    assert!(nowhere.message.contains("There is no folder"), "{}", nowhere.message);

    // The backup brings the memory and its history back into a new memory.
    let copy_dir = tempfile::tempdir().unwrap();
    let copy = haema_core::Memory::open_with(copy_dir.path(), Default::default(), None, None)
        .await
        .unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let report = copy.import_jsonl(text.as_bytes()).await.unwrap();
    assert_eq!(report.memories, 1);
    assert_eq!(copy.get_latest(1, 10).await.unwrap(), ["The user keeps bees."]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ai_settings_are_written_as_the_cli_reads_them() {
    use haema_core::config::connect::{Connection, Role, Service};
    use haema_core::keys::MemoryKeys;
    let dir = tempfile::tempdir().unwrap();
    let _app = app_with_store(dir.path()).await;
    let keys = MemoryKeys::default();
    let choice = Connection {
        role: Role::Llm,
        service: Service::ThisComputer,
        model: Some("llama3.1:8b".into()),
        address: None,
    };
    choice.save(dir.path(), None, &keys).unwrap();
    let setup = haema_desktop::connect::ai_setup_of(dir.path(), &keys).unwrap();
    assert_eq!(setup.llm.connection, choice);
    assert_eq!(setup.review, haema_core::ReviewPolicy::Review);
    let lines = haema_core::Settings::explain_with(dir.path(), None, |_| None).unwrap();
    let model = lines.iter().find(|l| l.key == "llm.model").unwrap();
    assert_eq!((model.value.as_str(), model.source), ("llama3.1:8b", Source::File));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_undo_that_leaves_the_profile_says_so_and_search_shows_the_profile() {
    use haema_core::fake::ScriptedLlm;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("haema.toml"),
        "review = \"auto\"\n\n[embedder]\nprovider = \"none\"\n",
    )
    .unwrap();
    // A change that wrote the profile, made by an AI, then the profile edited by hand.
    let llm = std::sync::Arc::new(ScriptedLlm::new());
    let md =
        "# SOUL\n\n# TOOLS\n\n# RULE\n- Peanuts are a hard no in any food suggestion.\n\n# USER\n- Drinks coffee.\n";
    llm.push(
        "core_update",
        serde_json::json!({"should_update": true, "core_markdown": md}),
    );
    let settings = haema_core::Settings::load(dir.path()).unwrap();
    let id = {
        let writer = haema_core::Memory::open_with(dir.path(), settings, Some(llm), None)
            .await
            .unwrap();
        writer
            .add(vec!["drinks coffee".to_owned()])
            .await
            .unwrap()
            .changeset
            .unwrap()
    };
    let app = tauri::test::mock_app();
    app.manage(AppState::new(None));
    let state = || app.state::<AppState>();
    state().open(dir.path().to_path_buf()).await.unwrap();
    core_view::set_section(state(), Section::User, "- Drinks water.".into())
        .await
        .unwrap();

    let found = memories::search(state(), "food".into(), None, None).await.unwrap();
    assert!(found.results.hits.is_empty());
    assert_eq!(found.profile.len(), 1);
    assert_eq!(
        (found.profile[0].section, found.profile[0].text.as_str()),
        (Section::Rule, "Peanuts are a hard no in any food suggestion.")
    );

    let undone = review::revert(state(), id).await.unwrap();
    assert_eq!(
        undone.profile_left,
        [Section::User],
        "USER was edited since; RULE went back"
    );
    let history = review::history(state(), None, 10, None).await.unwrap();
    let of = |id: ChangesetId| history.iter().find(|e| e.view.changeset.id == id).unwrap();
    assert_eq!(of(id).profile_left, [Section::User]);
    assert_eq!(of(undone.view.changeset.id).profile_left, [Section::User]);
}
