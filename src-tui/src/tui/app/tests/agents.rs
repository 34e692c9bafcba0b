//! The Agents view: a key made from one typed line and shown once in a window only a
//! deliberate key closes (never in the status line or its log); revoke, rotate and undo
//! each asked first.

use haema_core::AgentAccess;
use ratatui::crossterm::event::KeyCode;

use super::*;

fn on_agents() -> App {
    let mut a = app();
    assert_eq!(key(&mut a, KeyCode::Char('7')), vec![Effect::ListAgentKeys]);
    a.update(Msg::AgentKeys(fixtures::agent_keys()));
    a
}

#[test]
fn a_key_is_made_from_one_line_and_a_wrong_line_stays_to_be_fixed() {
    let mut a = on_agents();
    key(&mut a, KeyCode::Char('N'));
    chars(&mut a, "laptop-ux maybe");
    assert!(key(&mut a, KeyCode::Enter).is_empty());
    let said = a.status.as_ref().unwrap();
    assert!(said.error && said.text.contains("`maybe` is no access"), "{said:?}");
    assert_eq!(
        a.agents.new_key.as_ref().unwrap().text(),
        "laptop-ux maybe",
        "the line stays"
    );
    for _ in 0.."maybe".len() {
        key(&mut a, KeyCode::Backspace);
    }
    chars(&mut a, "propose 30d");
    assert_eq!(
        key(&mut a, KeyCode::Enter),
        vec![Effect::CreateAgentKey {
            name: "laptop-ux".into(),
            access: AgentAccess::Propose,
            expires: Some("30d".into()),
        }]
    );
    assert!(a.agents.new_key.is_none());
    // Letters typed into the line never reach the bindings: its `u` and `x` asked nothing.
    assert!(a.overlay.is_none());
}

#[test]
fn a_new_key_is_shown_once_in_a_window_and_never_in_the_messages() {
    let mut a = on_agents();
    let made = fixtures::new_key();
    let secret = made.key.clone();
    assert_eq!(a.update(Msg::KeyMade(Box::new(made))), vec![Effect::ListAgentKeys]);
    assert!(matches!(a.overlay, Some(Overlay::NewKey(_))));
    // An answer that arrives now (a changeset's details asked for before) waits.
    a.update(Msg::Changeset(Box::new(fixtures::merge(3))));
    assert!(
        matches!(a.overlay, Some(Overlay::NewKey(_))),
        "the key's window is not replaced"
    );
    key(&mut a, KeyCode::Char('q'));
    key(&mut a, KeyCode::Char('y'));
    assert!(
        matches!(a.overlay, Some(Overlay::NewKey(_))),
        "a stray key does not hide it"
    );
    assert!(!a.quit, "q did not quit under the window");
    key(&mut a, KeyCode::Esc);
    assert!(a.overlay.is_none());
    assert!(
        a.messages.iter().all(|m| !m.text.contains(&secret)),
        "the key is in no message"
    );
}

#[test]
fn revoking_rotating_and_undoing_ask_first() {
    let mut a = on_agents();
    assert!(key(&mut a, KeyCode::Char('x')).is_empty());
    match &a.overlay {
        Some(Overlay::Confirm { question, effects, .. }) => {
            assert!(question.contains("Revoke claude-laptop's key"), "{question}");
            assert_eq!(effects, &vec![Effect::RevokeAgentKey("claude-laptop".into())]);
        }
        _ => panic!("revoking asks first"),
    }
    key(&mut a, KeyCode::Char('n'));
    assert!(a.overlay.is_none(), "no is no");

    key(&mut a, KeyCode::Char('u'));
    match &a.overlay {
        Some(Overlay::Confirm { question, .. }) => {
            assert!(question.contains("Its key still works"), "{question}");
        }
        _ => panic!("undoing asks first"),
    }
    assert_eq!(
        key(&mut a, KeyCode::Char('y')),
        vec![Effect::UndoAgentKey("claude-laptop".into())]
    );

    key(&mut a, KeyCode::Char('G'));
    assert_eq!(a.agents.selected().unwrap().name, "old-agent");
    key(&mut a, KeyCode::Char('x'));
    assert!(a.overlay.is_none(), "a revoked key is not asked about again");
    assert!(a.status.as_ref().unwrap().text.contains("revoked"));
    key(&mut a, KeyCode::Char('R'));
    assert!(a.status.as_ref().unwrap().text.contains("make a new key instead"));
    key(&mut a, KeyCode::Char('u'));
    match &a.overlay {
        Some(Overlay::Confirm { question, .. }) => assert!(!question.contains("still works"), "{question}"),
        _ => panic!("undoing a revoked key's changes asks too"),
    }
}
