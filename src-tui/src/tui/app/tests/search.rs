//! Search and History keep up with the store: stale answers are dropped, a refresh keeps
//! the selected hit, History pages its summaries.

use super::*;

#[test]
fn stale_search_answers_are_dropped() {
    let mut a = app();
    key(&mut a, KeyCode::Char('/'));
    chars(&mut a, "tea");
    key(&mut a, KeyCode::Enter);
    let old = a.search.generation;
    // Commands on the results need the focus there (tab).
    key(&mut a, KeyCode::Tab);
    key(&mut a, KeyCode::Char('m'));
    let results = |n| lexical_results(0..n);
    a.update(Msg::SearchDone {
        generation: old,
        results: results(3),
    });
    assert!(a.search.ran.is_none() && a.search.hits.items.is_empty());
    a.update(Msg::SearchDone {
        generation: a.search.generation,
        results: results(2),
    });
    assert_eq!(a.search.hits.items.len(), 2);
}

#[test]
fn background_progress_shows_in_the_status_line_without_reloading() {
    let mut a = app();
    let effects = a.update(Msg::Progress(
        "downloading the embedding model: model.safetensors 45%".into(),
    ));
    assert!(effects.is_empty(), "progress alone reloads nothing");
    let status = a.status.as_ref().unwrap();
    assert!(!status.error);
    assert_eq!(status.text, "downloading the embedding model: model.safetensors 45%");
}

#[test]
fn history_pages_summaries_and_enter_reads_the_changeset_whole() {
    let mut a = app();
    assert_eq!(
        key(&mut a, KeyCode::Char('5')),
        vec![Effect::LoadHistory {
            before: None,
            limit: PAGE
        }]
    );
    let summary = |id: i64| haema_core::ChangesetSummary::from(&fixtures::merge(id));
    a.update(Msg::History {
        append: false,
        page: (1..=i64::try_from(PAGE).unwrap()).rev().map(summary).collect(),
        limit: PAGE,
    });
    assert_eq!(
        key(&mut a, KeyCode::Char('G')),
        vec![Effect::LoadHistory {
            before: Some(ChangesetId::from(1)),
            limit: PAGE
        }]
    );
    a.update(Msg::Failed {
        what: "loading the history".into(),
        error: "disk".into(),
    });
    assert!(
        !a.history.loading,
        "a failure stops the wait, so the page can be asked again"
    );
    key(&mut a, KeyCode::Char('g'));
    assert_eq!(
        key(&mut a, KeyCode::Enter),
        vec![Effect::LoadChangeset(ChangesetId::from(200))]
    );
    assert!(a.overlay.is_none(), "the window opens when the changeset is read");
    a.update(Msg::Changeset(Box::new(fixtures::merge(200))));
    assert!(matches!(&a.overlay, Some(Overlay::Changeset { changeset, .. }) if changeset.id == ChangesetId::from(200)));
}

#[test]
fn a_refreshed_search_keeps_the_selected_hit_and_a_new_query_starts_at_the_top() {
    let mut a = app();
    key(&mut a, KeyCode::Char('/'));
    chars(&mut a, "tea");
    key(&mut a, KeyCode::Enter);
    let answer = |a: &mut App, ids: &[usize]| {
        let generation = a.search.generation;
        a.update(Msg::SearchDone {
            generation,
            results: lexical_results(ids.iter().copied()),
        });
    };
    answer(&mut a, &[1, 2, 3]);
    key(&mut a, KeyCode::Down);
    key(&mut a, KeyCode::Down);
    assert_eq!(a.search.selected().unwrap().memory.id, "m3");
    a.update(Msg::StoreChanged);
    answer(&mut a, &[0, 1, 2, 3]);
    assert_eq!(
        a.search.selected().unwrap().memory.id,
        "m3",
        "the same hit after a refresh"
    );
    key(&mut a, KeyCode::Char('/'));
    chars(&mut a, "s");
    key(&mut a, KeyCode::Enter);
    answer(&mut a, &[0, 1, 2, 3]);
    assert_eq!(a.search.hits.cursor.selected, 0, "another query starts at the top");
}
