//! Snapshot tests of every view at 80x24 and 120x40 in its empty, normal, long-text,
//! unicode and error states, and of the windows over them.

use std::path::PathBuf;
use std::time::Instant;

use haema_core::{FoundBy, Recall, RecallItem, RecallReason, SearchHit, SearchMode, SearchResults};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::{Ui, draw};
use crate::tui::action::Action;
use crate::tui::app::fixtures::{self, T0};
use crate::tui::app::{App, CoreMode, Effect, Msg, Overlay, StoreEntry, View};
use crate::tui::clock::Clock;
use crate::tui::highlight::Highlighter;
use crate::tui::keymap::Keymap;
use crate::tui::theme::Theme;

const SIZES: [(u16, u16); 2] = [(80, 24), (120, 40)];

fn ui() -> Ui {
    Ui {
        theme: Theme::new(true),
        clock: Clock::Utc,
        highlighter: Highlighter::loaded(),
    }
}

pub(super) fn app(view: View) -> App {
    let mut app = App::new(PathBuf::from("/stores/default"), Keymap::default(), Instant::now());
    app.view = view;
    app.update(Msg::Info(Box::new(fixtures::info(1234, 0))));
    app
}

fn render(app: &App, width: u16, height: u16) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|f| draw(f, app, &ui())).unwrap();
    terminal
}

/// Snapshots `app` at both sizes as `<name>_<w>x<h>`.
pub(super) fn snap(name: &str, app: &App) {
    for (w, h) in SIZES {
        let terminal = render(app, w, h);
        insta::assert_snapshot!(format!("{name}_{w}x{h}"), terminal.backend());
    }
}

fn failing(mut app: App, what: &str) -> App {
    app.update(Msg::Failed {
        what: what.into(),
        error: "database is locked (another process holds it); try again".into(),
    });
    app
}

fn latest(records: Vec<haema_core::MemoryRecord>) -> App {
    let mut app = app(View::Latest);
    app.update(Msg::Latest {
        append: false,
        records,
        limit: 200,
    });
    app
}

#[test]
fn latest_view() {
    snap("latest_empty", &latest(Vec::new()));
    snap("latest_normal", &latest(fixtures::memories()));
    snap("latest_long", &latest(fixtures::long_memories()));
    snap("latest_unicode", &latest(fixtures::unicode_memories()));
    snap("latest_error", &failing(latest(fixtures::memories()), "loading latest"));
    // The second memory has a type, an importance and a source: the preview says so.
    let mut attributed = latest(fixtures::memories());
    attributed.latest.cursor.selected = 1;
    snap("latest_attributes", &attributed);
    let mut loading = app(View::Latest);
    loading.latest.loaded = false;
    snap("latest_loading", &loading);
}

fn hits(records: Vec<haema_core::MemoryRecord>) -> SearchResults {
    let hits = records
        .into_iter()
        .enumerate()
        .map(|(i, memory)| {
            let f = i as f64;
            SearchHit {
                memory,
                score: 0.82 - f * 0.05,
                rank_score: 0.9 - f * 0.05,
                found_by: [FoundBy::Both, FoundBy::Vector, FoundBy::Lexical][i % 3],
                distance: (i % 3 != 2).then_some(0.21 + f * 0.05),
                bm25: (i % 3 != 1).then_some(-3.2 + f * 0.4),
            }
        })
        .collect();
    SearchResults {
        mode: SearchMode::Hybrid,
        notice: None,
        hits,
    }
}

fn search(query: &str, records: Vec<haema_core::MemoryRecord>) -> App {
    let mut app = app(View::Search);
    app.search.query.insert_str(query);
    let generation = app.search.generation;
    app.update(Msg::SearchDone {
        generation,
        results: hits(records),
    });
    app
}

#[test]
fn search_view() {
    let mut empty = app(View::Search);
    empty.search.editing = true;
    snap("search_empty", &empty);
    snap("search_normal", &search("tea", fixtures::memories()));
    let mut long = search("practice journal", fixtures::long_memories());
    long.act(Action::ToggleRecall);
    let generation = long.search.generation;
    long.update(Msg::RecallDone {
        generation,
        recall: Recall {
            text: "## Core\n# SOUL\nYou are calm.\n\n## Relevant memories\n- \"The user keeps a detailed practice journal: scales, Bach suites, excerpts.\"".into(),
            items: vec![
                RecallItem {
                    reason: RecallReason::Core,
                    id: None,
                    content: "You are calm.".into(),
                    score: None,
                    tokens: 4,
                    sanitized: false,
                    truncated: false,
                    flags: Vec::new(),
                },
                RecallItem {
                    reason: RecallReason::Relevant,
                    id: Some("m9".into()),
                    content: "journal".into(),
                    score: Some(0.03),
                    tokens: 20,
                    sanitized: true,
                    truncated: true,
                    flags: vec![haema_core::HostileReason::RoleLabel],
                },
            ],
            tokens: 42,
            budget: 1000,
            max_chars: 1000,
            notice: None,
        },
    });
    snap("search_long_recall", &long);
    snap("search_unicode", &search("첼로 🎻", fixtures::unicode_memories()));
    snap("search_nothing_found", &search("zebra", Vec::new()));
    snap("search_error", &failing(search("tea", Vec::new()), "search"));
}

fn core(sections: haema_core::CoreSections) -> App {
    let mut app = app(View::Core);
    app.update(Msg::Core {
        sections,
        locked: fixtures::core().1,
    });
    app
}

#[test]
fn core_view() {
    let template = haema_core::CoreSections::parse(haema_core::CORE_TEMPLATE).unwrap();
    snap("core_empty", &core(template));
    snap("core_normal", &core(fixtures::core().0));
    let mut long_sections = fixtures::core().0;
    let long_text = (1..=40)
        .map(|i| format!("- rule {i}: always double-check the calendar before booking anything for the user"))
        .collect::<Vec<_>>()
        .join("\n");
    long_sections.set(haema_core::Section::Rule, &long_text).unwrap();
    let mut long = core(long_sections);
    long.core.cursor.selected = 2;
    snap("core_long", &long);
    let mut unicode = core(fixtures::core().0);
    unicode.core.cursor.selected = 3;
    snap("core_unicode_locked", &unicode);
    snap("core_error", &failing(core(fixtures::core().0), "saving the section"));
    let mut versions = core(fixtures::core().0);
    versions.core.mode = CoreMode::Versions;
    versions.update(Msg::CoreVersions(fixtures::core_versions()));
    snap("core_versions", &versions);
    versions.act(Action::MarkVersion);
    versions.act(Action::Down);
    versions.act(Action::Down);
    snap("core_versions_marked", &versions);
}

pub(super) fn review(items: Vec<haema_core::Changeset>, pending: usize) -> App {
    let mut app = app(View::Review);
    app.update(Msg::Info(Box::new(fixtures::info(1234, pending))));
    app.update(Msg::Review(items, Vec::new()));
    app
}

#[test]
fn review_view() {
    snap("review_empty", &review(Vec::new(), 0));
    snap(
        "review_normal",
        &review(vec![fixtures::merge(7), fixtures::merge(6)], 2),
    );
    let mut long = fixtures::merge(8);
    long.related[0].content = fixtures::long_memories()[0].content.clone();
    long.proposed[0].content = fixtures::long_memories()[1].content.clone();
    long.warnings.push("the LLM answer was incomplete; refined once".into());
    snap("review_long", &review(vec![long], 1));
    snap("review_unicode_stale", &review(vec![fixtures::stale(9)], 0));
    snap("review_error", &failing(review(vec![fixtures::merge(7)], 1), "approve"));
    let by_agent = haema_core::Changeset {
        agent_key: Some("claude-laptop".into()),
        ..fixtures::merge(10)
    };
    snap("review_by_agent", &review(vec![by_agent, fixtures::merge(7)], 2));
}

/// An agent's forget request shows what approving it removes: the phrase, the memories,
/// the agent state keys removed whole, and what else is blanked.
#[test]
fn review_view_of_a_forget_request() {
    let (request, pending) = fixtures::forget_request(11);
    let mut app = app(View::Review);
    app.update(Msg::Info(Box::new(fixtures::info(1234, 2))));
    app.update(Msg::Review(vec![request, fixtures::merge(7)], vec![pending]));
    snap("review_forget_request", &app);
}

fn history(items: Vec<haema_core::Changeset>) -> App {
    let mut app = app(View::History);
    app.update(Msg::History {
        append: false,
        page: items.iter().map(haema_core::ChangesetSummary::from).collect(),
        limit: 200,
    });
    app
}

#[test]
fn history_view() {
    snap("history_empty", &history(Vec::new()));
    snap("history_normal", &history(fixtures::history()));
    let mut long = fixtures::history();
    long[3].raw_input = Some(fixtures::long_memories()[0].content.clone());
    let mut long_app = history(long);
    long_app.act(Action::Bottom);
    snap("history_long", &long_app);
    snap("history_unicode", &history(vec![fixtures::stale(9)]));
    snap("history_error", &failing(history(fixtures::history()), "revert"));
    let mut by_agent = fixtures::history();
    by_agent[1].agent_key = Some("ci-bot".into());
    let mut by_agent = history(by_agent);
    by_agent.act(Action::Down);
    snap("history_by_agent", &by_agent);
}

fn stores(entries: Vec<StoreEntry>) -> App {
    let mut app = app(View::Stores);
    app.update(Msg::Stores(entries));
    app
}

fn entry(name: &str, active: usize) -> StoreEntry {
    let dir = PathBuf::from("/stores").join(name);
    StoreEntry {
        info: Ok(haema_core::StoreInfo {
            dir: dir.clone(),
            location: dir.display().to_string(),
            name: name.to_owned(),
            ..fixtures::info(active, active % 3)
        }),
        dir,
    }
}

#[test]
fn stores_view() {
    snap("stores_empty", &stores(Vec::new()));
    snap(
        "stores_normal",
        &stores(vec![
            entry("default", 1234),
            entry("work-agent", 56),
            entry("scratch", 0),
        ]),
    );
    snap(
        "stores_long",
        &stores(vec![
            entry("default", 1234),
            entry("an-agent-with-a-very-long-store-name-for-its-memories", 100_000),
        ]),
    );
    let mut unicode = stores(vec![entry("default", 3), entry("비서-기억", 12), entry("助手🤖", 7)]);
    unicode.act(Action::NewStore);
    unicode.stores.new_name.as_mut().unwrap().insert_str("새 저장소");
    snap("stores_unicode_new", &unicode);
    let broken = StoreEntry {
        dir: "/stores/broken".into(),
        info: Err("memory.db is not a haema store (file is not a database)".into()),
    };
    snap("stores_error", &stores(vec![entry("default", 3), broken]));
}

#[test]
fn windows_over_the_views() {
    let mut help = latest(fixtures::memories());
    help.act(Action::Help);
    snap("overlay_help", &help);

    let mut confirm = history(fixtures::history());
    confirm.act(Action::Down);
    confirm.act(Action::Down);
    confirm.act(Action::Down);
    confirm.act(Action::Revert);
    assert!(matches!(confirm.overlay, Some(Overlay::Confirm { .. })));
    snap("overlay_confirm_revert", &confirm);

    let mut add = latest(fixtures::memories());
    add.act(Action::Add);
    add.overlay
        .as_mut()
        .unwrap()
        .paste("The user now drinks black coffee ☕");
    snap("overlay_add", &add);

    let mut adding = latest(fixtures::memories());
    adding.act(Action::Add);
    adding
        .overlay
        .as_mut()
        .unwrap()
        .paste("The user now drinks black coffee");
    let effects = adding.handle_event(crate::tui::app::Event::Key(ratatui::crossterm::event::KeyEvent::from(
        ratatui::crossterm::event::KeyCode::Enter,
    )));
    assert!(matches!(effects.as_slice(), [Effect::Add(_)]));
    snap("status_adding", &adding);

    let mut detail = review(vec![fixtures::merge(7)], 1);
    detail.act(Action::Open);
    snap("overlay_changeset", &detail);

    let mut lineage = latest(fixtures::memories());
    let mut old = fixtures::memory("m0", "The user prefers green tea.", 900, 1);
    old.status = haema_core::MemoryStatus::Superseded;
    old.superseded_by = Some(haema_core::ChangesetId::from(7));
    lineage.update(Msg::Lineage(Box::new(haema_core::Lineage {
        memory: old,
        origin: None,
        replaced_by: Some(haema_core::Changeset {
            status: haema_core::ChangesetStatus::Committed,
            decided_by: Some(haema_core::DecidedBy::User),
            decided_at_ms: Some(T0),
            ..fixtures::merge(7)
        }),
        access: haema_core::AccessStats {
            access_count: 12,
            last_accessed_ms: Some(T0),
        },
    })));
    snap("overlay_lineage", &lineage);

    let mut editor = core(fixtures::core().0);
    editor.act(Action::EditSection);
    snap("overlay_editor", &editor);
}

#[test]
fn no_color_keeps_the_layout_and_drops_colours() {
    let app = review(vec![fixtures::merge(7)], 1);
    let plain = Ui {
        theme: Theme::new(false),
        ..ui()
    };
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    terminal.draw(|f| draw(f, &app, &plain)).unwrap();
    let coloured = render(&app, 80, 24);
    assert_eq!(
        terminal.backend().to_string(),
        coloured.backend().to_string(),
        "the same text with and without colour"
    );
    let buffer = terminal.backend().buffer();
    assert!(buffer.content().iter().all(|c| c.fg == ratatui::style::Color::Reset));
    assert!(
        coloured
            .backend()
            .buffer()
            .content()
            .iter()
            .any(|c| c.fg == ratatui::style::Color::Green)
    );
}

#[test]
fn huge_changesets_show_the_first_items_and_how_many_more() {
    let mut import = fixtures::history().pop().unwrap();
    import.raw_input = None;
    import.inputs = (0..1000).map(|i| format!("fact {i}")).collect();
    import.proposed = (0..1000)
        .map(|i| haema_core::ProposedItem {
            attributes: Default::default(),
            memory_id: None,
            content: format!("fact {i}"),
            kept: false,
        })
        .collect();
    let lines = super::changeset::proposed_lines(&import, &ui());
    assert_eq!(lines.len(), 201);
    assert!(lines[200].to_string().contains("… and 800 more"), "{}", lines[200]);
    assert_eq!(
        super::changeset::summary(&haema_core::ChangesetSummary::from(&import)),
        "+1000 -0  fact 0 · fact 1 · fact 2 · (+997 more)"
    );
    let full = super::changeset::full_lines(&import, &ui(), Clock::Utc);
    assert!(full.len() < 500, "{}", full.len());
}

/// A store that keeps users apart shows whose memories the window holds.
#[test]
fn the_tab_bar_names_the_user_of_a_per_user_store() {
    let mut app = latest(fixtures::memories());
    app.update(Msg::Info(Box::new(haema_core::StoreInfo {
        scope: haema_core::StoreScope::PerUser,
        user: Some("ann".into()),
        ..fixtures::info(2, 0)
    })));
    let top: String = {
        let terminal = render(&app, 120, 40);
        let buffer = terminal.backend().buffer().clone();
        (0..120).map(|x| buffer[(x, 0)].symbol().to_owned()).collect()
    };
    assert!(top.contains("default · user ann · 2 memories"), "{top}");
    snap("latest_per_user", &app);
}

fn screen(app: &App, width: u16, height: u16) -> String {
    let terminal = render(app, width, height);
    let buffer = terminal.backend().buffer().clone();
    (0..height)
        .map(|y| {
            (0..width)
                .map(|x| buffer[(x, y)].symbol().to_owned())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn press(app: &mut App, code: ratatui::crossterm::event::KeyCode, shift: bool) {
    use ratatui::crossterm::event::{KeyEvent, KeyModifiers};
    let mods = if shift { KeyModifiers::SHIFT } else { KeyModifiers::NONE };
    app.handle_event(crate::tui::app::Event::Key(KeyEvent::new(code, mods)));
}

/// The recall preview of a query with many hits is longer than its pane: shift-↓ scrolls
/// it from the query (J from the results) down to the last hit and no further, and any
/// other key brings it back to the top.
#[test]
fn the_recall_preview_scrolls_to_its_last_hit() {
    use ratatui::crossterm::event::KeyCode;
    let mut app = search("tea", fixtures::memories());
    app.search.editing = true;
    app.act(Action::ToggleRecall);
    let text = (1..=30)
        .map(|i| format!("- \"memory number {i} about tea\""))
        .collect::<Vec<_>>()
        .join("\n");
    let generation = app.search.generation;
    app.update(Msg::RecallDone {
        generation,
        recall: Recall {
            text: format!("## Relevant memories\n{text}"),
            items: Vec::new(),
            tokens: 300,
            budget: 1000,
            max_chars: 1000,
            notice: None,
        },
    });
    let top = screen(&app, 80, 24);
    assert!(top.contains("line 1 of 33") && !top.contains("number 30 "), "{top}");
    for _ in 0..100 {
        press(&mut app, KeyCode::Down, true);
        screen(&app, 80, 24);
    }
    let bottom = screen(&app, 80, 24);
    assert!(bottom.contains("memory number 30 about tea"), "{bottom}");
    assert!(!bottom.contains("number 1 about"), "{bottom}");
    assert_eq!(app.search.query.text(), "tea", "the scroll key typed nothing");
    // One step up from the end moves at once (the scroll stopped at the end).
    assert!(bottom.contains("line 30 of 33"), "{bottom}");
    press(&mut app, KeyCode::Up, true);
    let up = screen(&app, 80, 24);
    assert!(up.contains("line 29 of 33"), "{up}");
    // From the results, J and K scroll; any other key (here ↓ to the next hit) goes back
    // to the top.
    press(&mut app, KeyCode::Tab, false);
    press(&mut app, KeyCode::Char('J'), true);
    press(&mut app, KeyCode::Char('J'), true);
    assert!(screen(&app, 80, 24).contains("line 3 of 33"));
    press(&mut app, KeyCode::Down, false);
    assert!(screen(&app, 80, 24).contains("line 1 of 33"));
    // In the query, J is a letter.
    press(&mut app, KeyCode::Esc, false);
    app.view = View::Search;
    app.search.focus_query(false);
    press(&mut app, KeyCode::Char('J'), true);
    assert_eq!(app.search.query.text(), "teaJ");
}

fn agents(keys: Vec<haema_core::AgentKey>) -> App {
    let mut app = app(View::Agents);
    app.update(Msg::AgentKeys(keys));
    app
}

#[test]
fn agents_view() {
    snap("agents_empty", &agents(Vec::new()));
    snap("agents_normal", &agents(fixtures::agent_keys()));
    let mut typing = agents(fixtures::agent_keys());
    typing.act(Action::NewKey);
    snap("agents_new_key_line", &typing);
    let mut shown = agents(fixtures::agent_keys());
    shown.update(Msg::KeyMade(Box::new(fixtures::new_key())));
    snap("agents_key_shown_once", &shown);
}
