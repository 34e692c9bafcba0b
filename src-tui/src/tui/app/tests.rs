//! The state machine without a terminal: keys → actions → effects, and results → state.

use std::time::{Duration, Instant};

use haema_core::{ChangesetId, CoreVersionId, MemoryRecord, MemoryStatus};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::*;
use crate::tui::app::fixtures;
use crate::tui::keymap::Keymap;

fn app() -> App {
    App::new("/stores/default".into(), Keymap::default(), Instant::now())
}

/// An app on the Core view, its sections loaded from the fixture.
fn on_core() -> App {
    let mut a = app();
    key(&mut a, KeyCode::Char('3'));
    let (sections, locked) = fixtures::core();
    a.update(Msg::Core { sections, locked });
    a
}

fn key(app: &mut App, code: KeyCode) -> Vec<Effect> {
    app.handle_event(Event::Key(KeyEvent::new(code, KeyModifiers::NONE)))
}

fn chars(app: &mut App, text: &str) -> Vec<Effect> {
    text.chars().flat_map(|c| key(app, KeyCode::Char(c))).collect()
}

/// A lexical search answer whose hits are `record(i)` for each of `ids`.
fn lexical_results(ids: impl IntoIterator<Item = usize>) -> haema_core::SearchResults {
    haema_core::SearchResults {
        mode: haema_core::SearchMode::Lexical,
        notice: None,
        hits: ids
            .into_iter()
            .map(|i| haema_core::SearchHit {
                memory: record(i),
                score: 1.0,
                rank_score: 1.0,
                found_by: haema_core::FoundBy::Lexical,
                distance: None,
                bm25: Some(-1.0),
            })
            .collect(),
    }
}

fn record(i: usize) -> MemoryRecord {
    MemoryRecord {
        attributes: Default::default(),
        timestamp: String::new(),
        id: format!("m{i}").into(),
        content: format!("memory {i}"),
        timestamp_ms: 1_795_000_000_000 - i64::try_from(i).unwrap() * 1000,
        updated_at_ms: 0,
        status: MemoryStatus::Active,
        changeset_id: Some(ChangesetId::from(1)),
        superseded_by: None,
        pinned: false,
        has_embedding: false,
    }
}

#[test]
fn start_loads_info_and_the_first_page() {
    let mut a = app();
    assert_eq!(
        a.start(),
        vec![
            Effect::LoadInfo,
            Effect::LoadLatest {
                after: None,
                limit: PAGE
            }
        ]
    );
}

#[test]
fn scrolling_near_the_end_asks_for_the_next_page_once() {
    let mut a = app();
    a.update(Msg::Latest {
        append: false,
        records: (0..PAGE).map(record).collect(),
        limit: PAGE,
    });
    assert!(!a.latest.exhausted);
    // G on a list not loaded to its end says it stopped at the last row loaded so far.
    let mut b = app();
    b.update(Msg::Latest {
        append: false,
        records: (0..PAGE).map(record).collect(),
        limit: PAGE,
    });
    key(&mut b, KeyCode::Char('G'));
    let said = b.status.as_ref().map(|s| s.text.clone()).unwrap_or_default();
    assert!(
        said.starts_with(&format!("the last of the {PAGE} newest memories loaded so far")),
        "{said}"
    );
    let mut asked = Vec::new();
    for _ in 0..PAGE {
        asked.extend(key(&mut a, KeyCode::Char('j')));
    }
    assert_eq!(
        asked,
        vec![Effect::LoadLatest {
            after: Some(Box::new(record(PAGE - 1))),
            limit: PAGE
        }],
        "one request while the page is on its way"
    );
    a.update(Msg::Latest {
        append: true,
        records: (PAGE..PAGE + 3).map(record).collect(),
        limit: PAGE,
    });
    assert_eq!(a.latest.items.len(), PAGE + 3);
    assert!(a.latest.exhausted);
    assert!(key(&mut a, KeyCode::Char('G')).is_empty());
    assert_eq!(a.latest.cursor.selected, PAGE + 2);
    assert!(
        a.status.as_ref().is_none_or(|s| !s.text.contains("loaded so far")),
        "at the real end G says nothing"
    );
}

#[test]
fn typing_a_query_runs_one_search_after_the_pause() {
    let mut a = app();
    let t0 = a.now;
    assert!(chars(&mut a, "/tea").is_empty());
    assert!(a.search.editing);
    assert!(a.handle_event(Event::Tick(t0 + Duration::from_millis(100))).is_empty());
    let effects = a.handle_event(Event::Tick(t0 + Duration::from_millis(400)));
    assert_eq!(
        effects,
        vec![Effect::Search {
            generation: a.search.generation,
            query: "tea".into(),
            mode: haema_core::SearchMode::Hybrid
        }]
    );
    assert!(a.handle_event(Event::Tick(t0 + Duration::from_millis(800))).is_empty());
}

fn ctrl(app: &mut App, c: char) -> Vec<Effect> {
    app.handle_event(Event::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)))
}

fn reviewing() -> App {
    let mut a = app();
    key(&mut a, KeyCode::Char('4'));
    a.update(Msg::Review(vec![fixtures::merge(7), fixtures::stale(5)], Vec::new()));
    a
}

#[test]
fn review_keys_approve_reject_and_refuse_stale_approval() {
    let mut a = reviewing();
    assert_eq!(
        key(&mut a, KeyCode::Char('y')),
        vec![Effect::Approve(ChangesetId::from(7))]
    );
    // A second key on it before the answer sends nothing again (no false "failed").
    assert!(key(&mut a, KeyCode::Char('y')).is_empty());
    assert!(key(&mut a, KeyCode::Char('n')).is_empty());
    assert!(
        a.status
            .as_ref()
            .is_some_and(|s| s.text.contains("being decided already"))
    );
    a.update(Msg::Failed {
        what: "approve".into(),
        error: "the LLM is away".into(),
    });
    assert_eq!(
        key(&mut a, KeyCode::Char('n')),
        vec![Effect::Reject(ChangesetId::from(7))]
    );
    // The answer says how to take it back, and z does.
    a.update(Msg::Undoable {
        message: "rejected changeset #7; nothing of it was applied".into(),
        undo: Undo::new("the rejection of #7", Effect::Reopen(ChangesetId::from(7))),
    });
    assert!(a.status.as_ref().is_some_and(|s| s.text.ends_with("z undoes it")));
    a.update(Msg::Review(vec![fixtures::merge(7), fixtures::stale(5)], Vec::new()));
    assert_eq!(
        key(&mut a, KeyCode::Char('z')),
        vec![Effect::Reopen(ChangesetId::from(7))]
    );
    assert!(key(&mut a, KeyCode::Char('z')).is_empty(), "one undo per change");
    key(&mut a, KeyCode::Down);
    assert!(key(&mut a, KeyCode::Char('y')).is_empty());
    let status = a.status.clone().unwrap();
    assert!(
        status.error && status.text.contains("stale") && status.text.contains("re-run"),
        "{status:?}"
    );
    assert_eq!(
        key(&mut a, KeyCode::Char('R')),
        vec![Effect::Rerun(ChangesetId::from(5))]
    );
    assert!(a.status.is_none(), "an error clears on the next key");
}

#[test]
fn approve_all_asks_first_and_goes_oldest_first() {
    let mut a = app();
    key(&mut a, KeyCode::Char('4'));
    a.update(Msg::Review(
        vec![fixtures::merge(9), fixtures::merge(8), fixtures::stale(5)],
        Vec::new(),
    ));
    assert!(key(&mut a, KeyCode::Char('Y')).is_empty());
    assert!(matches!(a.overlay, Some(Overlay::Confirm { .. })));
    assert!(key(&mut a, KeyCode::Char('n')).is_empty());
    assert!(a.overlay.is_none());
    key(&mut a, KeyCode::Char('Y'));
    assert_eq!(
        key(&mut a, KeyCode::Char('y')),
        vec![Effect::ApproveAll(vec![ChangesetId::from(8), ChangesetId::from(9)])]
    );
}

#[test]
fn editing_a_proposal_approves_the_edited_lines() {
    let mut a = reviewing();
    key(&mut a, KeyCode::Char('e'));
    assert!(matches!(a.overlay, Some(Overlay::Editor { .. })));
    chars(&mut a, " (since May)");
    let effects = ctrl(&mut a, 's');
    assert_eq!(
        effects,
        vec![Effect::ApproveEdited {
            id: ChangesetId::from(7),
            memories: vec![
                "The user prefers black coffee to green tea, without sugar.".into(),
                "The user is allergic to peanuts. (since May)".into()
            ]
        }]
    );
    assert!(a.overlay.is_none());
}

#[test]
fn leaving_an_edited_text_asks_and_no_returns_to_it() {
    let mut a = on_core();
    key(&mut a, KeyCode::Char('e'));
    chars(&mut a, "!");
    key(&mut a, KeyCode::Esc);
    assert!(matches!(a.overlay, Some(Overlay::Confirm { .. })));
    key(&mut a, KeyCode::Char('n'));
    assert!(matches!(a.overlay, Some(Overlay::Editor { .. })), "back to the editor");
    key(&mut a, KeyCode::Esc);
    key(&mut a, KeyCode::Char('y'));
    assert!(a.overlay.is_none(), "discarded");
    key(&mut a, KeyCode::Char('e'));
    assert!(key(&mut a, KeyCode::Esc).is_empty());
    assert!(a.overlay.is_none(), "an unchanged text closes without asking");
}

#[test]
fn core_keys_save_lock_and_restore() {
    let mut a = on_core();
    key(&mut a, KeyCode::Char('G'));
    assert_eq!(
        key(&mut a, KeyCode::Char('l')),
        vec![Effect::SetLock {
            section: haema_core::Section::User,
            locked: false
        }]
    );
    key(&mut a, KeyCode::Char('e'));
    ctrl(&mut a, 'u');
    let saved = ctrl(&mut a, 's');
    assert!(matches!(
        &saved[..],
        [Effect::SaveSection {
            section: haema_core::Section::User,
            ..
        }]
    ));
    assert_eq!(
        key(&mut a, KeyCode::Char('E')),
        vec![Effect::EditExternal {
            section: haema_core::Section::User,
            text: fixtures::core().0.get(haema_core::Section::User).to_owned()
        }]
    );
    assert_eq!(key(&mut a, KeyCode::Char('v')), vec![Effect::LoadCoreVersions]);
    a.update(Msg::CoreVersions(fixtures::core_versions()));
    key(&mut a, KeyCode::Down);
    key(&mut a, KeyCode::Char('r'));
    assert_eq!(key(&mut a, KeyCode::Enter), Vec::<Effect>::new(), "enter is no");
    assert!(a.overlay.is_none());
    key(&mut a, KeyCode::Char('r'));
    assert_eq!(
        key(&mut a, KeyCode::Char('y')),
        vec![Effect::RestoreCoreVersion(CoreVersionId::from(2))]
    );
    key(&mut a, KeyCode::Esc);
    assert_eq!(a.core.mode, CoreMode::Sections);
}

#[test]
fn revert_asks_and_only_committed_changesets_can_be_reverted() {
    let mut a = app();
    key(&mut a, KeyCode::Char('5'));
    a.update(Msg::History {
        append: false,
        page: fixtures::history()
            .iter()
            .map(haema_core::ChangesetSummary::from)
            .collect(),
        limit: PAGE,
    });
    key(&mut a, KeyCode::Down);
    key(&mut a, KeyCode::Char('u'));
    assert!(
        a.status
            .as_ref()
            .is_some_and(|s| s.error && s.text.contains("reverted"))
    );
    key(&mut a, KeyCode::Char('G'));
    key(&mut a, KeyCode::Char('u'));
    assert_eq!(
        key(&mut a, KeyCode::Char('y')),
        vec![Effect::Revert(ChangesetId::from(1))]
    );
}

#[test]
fn a_refresh_keeps_the_cursor_on_the_same_memory() {
    let mut a = app();
    a.update(Msg::Latest {
        append: false,
        records: fixtures::memories(),
        limit: PAGE,
    });
    key(&mut a, KeyCode::Down);
    key(&mut a, KeyCode::Down);
    assert_eq!(a.latest.selected().unwrap().id, "m3");
    let effects = a.update(Msg::StoreChanged);
    assert_eq!(
        effects,
        vec![
            Effect::LoadInfo,
            Effect::LoadLatest {
                after: None,
                limit: PAGE
            }
        ]
    );
    let mut newer = vec![fixtures::memory("m6", "new from another process", 0, 6)];
    newer.extend(fixtures::memories());
    a.update(Msg::Latest {
        append: false,
        records: newer,
        limit: PAGE,
    });
    assert_eq!(a.latest.selected().unwrap().id, "m3");
    assert_eq!(a.latest.cursor.selected, 3);
}

#[test]
fn adding_shows_progress_and_a_failure_never_loses_the_screen() {
    let mut a = app();
    key(&mut a, KeyCode::Char('a'));
    chars(&mut a, "tea");
    key(&mut a, KeyCode::Esc);
    assert_eq!(a.add_draft, "tea", "esc keeps a draft");
    key(&mut a, KeyCode::Char('a'));
    chars(&mut a, "!");
    assert_eq!(key(&mut a, KeyCode::Enter), vec![Effect::Add("tea!".into())]);
    assert!(a.busy.is_some());
    assert!(key(&mut a, KeyCode::Char('a')).is_empty(), "one add at a time");
    a.update(Msg::Failed {
        what: "add".into(),
        error: "openai: 401 invalid key".into(),
    });
    assert!(a.busy.is_none());
    assert!(a.status.as_ref().unwrap().text.contains("401"));
    key(&mut a, KeyCode::Char('a'));
    assert!(key(&mut a, KeyCode::Enter).is_empty(), "empty text is not added");
    assert!(a.status.as_ref().unwrap().error);
}

#[test]
fn new_store_names_are_checked() {
    let mut a = app();
    key(&mut a, KeyCode::Char('6'));
    key(&mut a, KeyCode::Char('N'));
    chars(&mut a, "../x");
    assert!(key(&mut a, KeyCode::Enter).is_empty());
    assert!(a.status.as_ref().unwrap().text.contains("cannot be a store name"));
    key(&mut a, KeyCode::Esc);
    key(&mut a, KeyCode::Char('N'));
    chars(&mut a, "work");
    assert_eq!(
        key(&mut a, KeyCode::Enter),
        vec![Effect::SwitchStore("/stores/work".into())]
    );
}

#[test]
fn tab_cycles_views_and_quit_quits() {
    let mut a = app();
    key(&mut a, KeyCode::Tab);
    assert_eq!(a.view, View::Search);
    assert!(a.search.editing, "Search opens with the focus on its query");
    // Tab moves the focus through the view's parts (query, results), then on.
    key(&mut a, KeyCode::Tab);
    assert_eq!((a.view, a.search.editing), (View::Search, false));
    for view in [
        View::Core,
        View::Review,
        View::History,
        View::Stores,
        View::Agents,
        View::Latest,
    ] {
        key(&mut a, KeyCode::Tab);
        assert_eq!(a.view, view);
    }
    a.handle_event(Event::Key(KeyEvent::new(KeyCode::BackTab, KeyModifiers::SHIFT)));
    assert_eq!(a.view, View::Agents);
    key(&mut a, KeyCode::Char('?'));
    key(&mut a, KeyCode::Char('q'));
    assert!(!a.quit, "q closes help first");
    key(&mut a, KeyCode::Char('q'));
    assert!(a.quit);
}

mod agents;
mod confirm;
mod edits;
mod keystrokes;
mod search;
