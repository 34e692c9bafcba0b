//! Questions before what cannot be undone: forgetting, and approving a change that only
//! sets memories aside.

use ratatui::crossterm::event::KeyCode;

use super::*;

#[test]
fn forget_shows_what_goes_asks_and_only_then_forgets() {
    let mut a = app();
    a.update(Msg::Latest {
        append: false,
        records: vec![record(1), record(2)],
        limit: PAGE,
    });
    key(&mut a, KeyCode::Down);
    assert_eq!(key(&mut a, KeyCode::Char('F')), vec![Effect::PlanForget("m2".into())]);
    assert!(a.overlay.is_none(), "nothing is asked before the plan is known");
    a.update(Msg::ForgetPlan {
        id: "m2".into(),
        plan: Box::new(haema_core::ForgetPlan {
            memories: vec![record(2)],
            changesets: 1,
            core_versions: 0,
            agent_state: 0,
            agent_state_removed: Vec::new(),
        }),
    });
    match &a.overlay {
        Some(Overlay::Confirm { question, .. }) => {
            assert!(question.contains("«memory 2»"), "{question}");
            assert!(question.contains("cannot be undone"), "{question}");
        }
        other => panic!("expected a question, got {:?}", other.is_some()),
    }
    assert_eq!(key(&mut a, KeyCode::Char('n')), Vec::<Effect>::new());
    assert!(a.overlay.is_none());
    key(&mut a, KeyCode::Char('F'));
    a.update(Msg::ForgetPlan {
        id: "m2".into(),
        plan: Box::new(haema_core::ForgetPlan {
            memories: vec![record(2)],
            changesets: 1,
            core_versions: 0,
            agent_state: 0,
            agent_state_removed: Vec::new(),
        }),
    });
    assert_eq!(key(&mut a, KeyCode::Char('y')), vec![Effect::Forget("m2".into())]);
}

#[test]
fn a_forget_in_history_cannot_be_reverted() {
    let mut a = app();
    key(&mut a, KeyCode::Char('5'));
    let mut forget = haema_core::ChangesetSummary::from(&fixtures::history()[0]);
    forget.kind = haema_core::ChangesetKind::Forget;
    forget.status = haema_core::ChangesetStatus::Committed;
    a.update(Msg::History {
        append: false,
        page: vec![forget],
        limit: PAGE,
    });
    assert_eq!(key(&mut a, KeyCode::Char('u')), Vec::<Effect>::new());
    assert!(
        a.status
            .as_ref()
            .is_some_and(|s| s.error && s.text.contains("cannot come back"))
    );
}

#[test]
fn approving_a_change_that_only_sets_memories_aside_asks_first() {
    let mut a = app();
    key(&mut a, KeyCode::Char('4'));
    let mut removal = fixtures::history()[0].clone();
    removal.status = haema_core::ChangesetStatus::Pending;
    removal.kind = haema_core::ChangesetKind::Add;
    removal.proposed.clear();
    removal.related = vec![haema_core::RelatedItem {
        memory_id: "m1".into(),
        content: "memory 1".into(),
        distance: Some(0.1),
        kept: false,
    }];
    let id = removal.id;
    a.update(Msg::Review(vec![removal], Vec::new()));
    assert_eq!(key(&mut a, KeyCode::Char('y')), Vec::<Effect>::new());
    match &a.overlay {
        Some(Overlay::Confirm { question, .. }) => assert!(question.contains("adds nothing"), "{question}"),
        _ => panic!("expected a question"),
    }
    assert_eq!(key(&mut a, KeyCode::Char('y')), vec![Effect::Approve(id)]);
}

#[test]
fn approving_an_agents_forget_request_says_what_goes_first() {
    let mut a = app();
    key(&mut a, KeyCode::Char('4'));
    let (request, pending) = fixtures::forget_request(11);
    // Until what it removes is known, nothing is approved.
    a.update(Msg::Review(vec![request.clone()], Vec::new()));
    assert_eq!(key(&mut a, KeyCode::Char('y')), Vec::<Effect>::new());
    assert!(a.overlay.is_none());
    a.update(Msg::Review(vec![request], vec![pending]));
    assert_eq!(key(&mut a, KeyCode::Char('y')), Vec::<Effect>::new());
    match &a.overlay {
        Some(Overlay::Confirm { question, .. }) => {
            for expected in [
                "“default”",
                "1 memory",
                "2 agent-state keys removed",
                "default/task, default/cursor",
                "exports",
                "cannot be undone",
            ] {
                assert!(question.contains(expected), "{expected:?} missing from {question}");
            }
        }
        _ => panic!("expected a question"),
    }
    assert_eq!(key(&mut a, KeyCode::Char('y')), vec![Effect::Approve(11.into())]);
    // Never among the changesets approved all at once.
    let (request, pending) = fixtures::forget_request(11);
    a.update(Msg::Review(vec![request, fixtures::merge(7)], vec![pending]));
    key(&mut a, KeyCode::Char('Y'));
    match &a.overlay {
        Some(Overlay::Confirm { effects, .. }) => assert_eq!(effects, &vec![Effect::ApproveAll(vec![7.into()])]),
        _ => panic!("expected a question"),
    }
}

#[test]
fn forgetting_a_memory_names_the_agent_state_it_touches_and_copies_outside() {
    let mut a = app();
    a.update(Msg::Latest {
        append: false,
        records: vec![record(1)],
        limit: PAGE,
    });
    key(&mut a, KeyCode::Char('F'));
    let (_, pending) = fixtures::forget_request(11);
    a.update(Msg::ForgetPlan {
        id: "m1".into(),
        plan: Box::new(pending.plan),
    });
    match &a.overlay {
        Some(Overlay::Confirm { question, .. }) => {
            for expected in ["4 agent state entries", "default/task", "exports"] {
                assert!(question.contains(expected), "{expected:?} missing from {question}");
            }
        }
        _ => panic!("expected a question"),
    }
}
