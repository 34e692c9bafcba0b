//! No keystroke loses a memory: what a person types by habit or by mistake (a word typed
//! into the wrong place, Enter on a question, q with a draft open) never forgets, adds or
//! drops anything on its own.

use ratatui::crossterm::event::KeyCode;

use super::*;

fn plan(id: usize) -> Msg {
    Msg::ForgetPlan {
        id: format!("m{id}").into(),
        plan: Box::new(haema_core::ForgetPlan {
            memories: vec![record(id)],
            changesets: 1,
            core_versions: 0,
            agent_state: 0,
            agent_state_removed: Vec::new(),
        }),
    }
}

fn search_hits(a: &mut App, n: usize) {
    a.update(Msg::SearchDone {
        generation: a.search.generation,
        results: lexical_results(0..n),
    });
}

fn forgets(effects: &[Effect]) -> bool {
    effects.iter().any(|e| matches!(e, Effect::Forget(_)))
}

/// "Fish⏎" typed on the results: F asks, i is no, and the rest (s, h, Enter) never
/// answers a question that is no longer open.
#[test]
fn typing_a_word_on_the_results_never_forgets() {
    let mut a = app();
    key(&mut a, KeyCode::Char('2'));
    key(&mut a, KeyCode::Tab);
    search_hits(&mut a, 3);
    let mut effects = key(&mut a, KeyCode::Char('F'));
    assert_eq!(effects, vec![Effect::PlanForget("m0".into())]);
    a.update(plan(0));
    assert!(matches!(a.overlay, Some(Overlay::Confirm { .. })));
    for code in [
        KeyCode::Char('i'),
        KeyCode::Char('s'),
        KeyCode::Char('h'),
        KeyCode::Enter,
    ] {
        effects.extend(key(&mut a, code));
    }
    assert!(!forgets(&effects), "{effects:?}");
    // Enter alone on the question is no too, in Latest (F⏎).
    let mut a = app();
    a.update(Msg::Latest {
        append: false,
        records: vec![record(1)],
        limit: PAGE,
    });
    key(&mut a, KeyCode::Char('F'));
    a.update(plan(1));
    assert!(!forgets(&key(&mut a, KeyCode::Enter)));
    assert!(a.overlay.is_none(), "enter closed the question as no");
    // Only y answers yes, and the question says so.
    key(&mut a, KeyCode::Char('F'));
    a.update(plan(1));
    match &a.overlay {
        Some(Overlay::Confirm { yes, .. }) => assert_eq!(yes, "forget for good"),
        _ => panic!("no question"),
    }
    assert!(forgets(&key(&mut a, KeyCode::Char('y'))));
}

/// `2` opens Search with the focus on the query: every letter and digit typed goes there,
/// none is a command (a would open the add window, and Enter store the rest).
#[test]
fn search_takes_typing_at_once() {
    let mut a = app();
    key(&mut a, KeyCode::Char('2'));
    assert_eq!(a.view, View::Search);
    let effects = chars(&mut a, "food allergy 1 q");
    assert!(effects.is_empty(), "{effects:?}");
    assert_eq!(a.search.query.text(), "food allergy 1 q");
    assert!(a.overlay.is_none() && !a.quit && a.view == View::Search);
    // The arrows choose a result while the query keeps the focus; Enter opens it.
    search_hits(&mut a, 3);
    a.search.due = None;
    key(&mut a, KeyCode::Down);
    assert!(a.search.editing);
    assert_eq!(key(&mut a, KeyCode::Enter), vec![Effect::LoadLineage("m1".into())]);
}

/// From the results, up from the first one and Esc go back to the query; `/` starts a new
/// query (the first character replaces the old one); Esc in the query leaves the view.
#[test]
fn the_query_and_the_results_trade_the_focus_plainly() {
    let mut a = app();
    key(&mut a, KeyCode::Char('2'));
    chars(&mut a, "tea");
    key(&mut a, KeyCode::Tab);
    search_hits(&mut a, 2);
    assert!(!a.search.editing);
    key(&mut a, KeyCode::Up);
    assert!(a.search.editing, "up from the first result returns to the query");
    key(&mut a, KeyCode::Tab);
    key(&mut a, KeyCode::Esc);
    assert!(a.search.editing, "esc on the results returns to the query");
    key(&mut a, KeyCode::Tab);
    key(&mut a, KeyCode::Char('/'));
    chars(&mut a, "coffee");
    assert_eq!(a.search.query.text(), "coffee", "/ starts a new query");
    key(&mut a, KeyCode::Esc);
    assert_eq!(a.view, View::Latest, "esc in the query leaves the view");
}

/// q with a draft in the add window asks; Enter (or any key but y) keeps the draft.
#[test]
fn quitting_never_drops_a_draft_without_asking() {
    let mut a = app();
    key(&mut a, KeyCode::Char('a'));
    chars(&mut a, "The user likes figs");
    key(&mut a, KeyCode::Esc);
    assert_eq!(a.add_draft, "The user likes figs");
    key(&mut a, KeyCode::Char('q'));
    assert!(!a.quit);
    match &a.overlay {
        Some(Overlay::Confirm { question, .. }) => assert!(question.contains("The user likes figs"), "{question}"),
        _ => panic!("q quit with a draft open"),
    }
    key(&mut a, KeyCode::Enter);
    assert!(!a.quit && a.add_draft == "The user likes figs");
    key(&mut a, KeyCode::Char('q'));
    key(&mut a, KeyCode::Char('y'));
    assert!(a.quit);
    // With no draft, q quits at once.
    let mut b = app();
    key(&mut b, KeyCode::Char('q'));
    assert!(b.quit);
}

/// Help opens over the view it was asked from and can be filtered; the message log keeps
/// what the status line showed.
#[test]
fn help_filters_and_the_message_log_keeps_every_message() {
    let mut a = app();
    key(&mut a, KeyCode::Char('4'));
    key(&mut a, KeyCode::Char('?'));
    for c in "/appr".chars() {
        key(&mut a, KeyCode::Char(c));
    }
    key(&mut a, KeyCode::Enter);
    match &a.overlay {
        Some(Overlay::Help { filter, filtering, .. }) => assert_eq!((filter.as_str(), *filtering), ("appr", false)),
        _ => panic!("help closed"),
    }
    // G goes to the end, and a scroll stops there (as last drawn).
    a.overlay_max_scroll.set(7);
    key(&mut a, KeyCode::Char('G'));
    assert!(matches!(a.overlay, Some(Overlay::Help { scroll: 7, .. })));
    key(&mut a, KeyCode::Esc);
    assert!(
        matches!(&a.overlay, Some(Overlay::Help { filter, .. }) if filter.is_empty()),
        "esc drops the filter first"
    );
    key(&mut a, KeyCode::Esc);
    assert!(a.overlay.is_none());

    a.inform("first message");
    a.fail("a long failure that the status line cuts at a word");
    key(&mut a, KeyCode::Char('M'));
    assert!(matches!(a.overlay, Some(Overlay::Messages { .. })));
    let texts: Vec<&str> = a.messages.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(
        texts,
        ["a long failure that the status line cuts at a word", "first message"]
    );
}
