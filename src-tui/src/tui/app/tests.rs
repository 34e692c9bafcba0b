//! The state machine without a terminal: keys → actions → effects, and results → state.

use std::time::{Duration, Instant};

use haema_core::{MemoryRecord, MemoryStatus};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::*;
use crate::tui::keymap::Keymap;

fn app() -> App {
    App::new("/stores/default".into(), Keymap::default(), Instant::now())
}

fn key(app: &mut App, code: KeyCode) -> Vec<Effect> {
    app.handle_event(Event::Key(KeyEvent::new(code, KeyModifiers::NONE)))
}

fn chars(app: &mut App, text: &str) -> Vec<Effect> {
    text.chars().flat_map(|c| key(app, KeyCode::Char(c))).collect()
}

fn record(i: usize) -> MemoryRecord {
    MemoryRecord {
        id: format!("m{i}"),
        content: format!("memory {i}"),
        timestamp_ms: 1_795_000_000_000 - i64::try_from(i).unwrap() * 1000,
        updated_at_ms: 0,
        status: MemoryStatus::Active,
        changeset_id: Some(1),
        superseded_by: None,
    }
}

#[test]
fn start_loads_info_and_the_first_page() {
    let mut a = app();
    assert_eq!(
        a.start(),
        vec![Effect::LoadInfo, Effect::LoadLatest { after: None, limit: PAGE }]
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
    let mut asked = Vec::new();
    for _ in 0..PAGE {
        asked.extend(key(&mut a, KeyCode::Char('j')));
    }
    assert_eq!(
        asked,
        vec![Effect::LoadLatest {
            after: Some(record(PAGE - 1)),
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
