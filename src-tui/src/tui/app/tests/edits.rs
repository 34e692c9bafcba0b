//! A person's direct edits of the selected memory, in Latest and Search: delete asks
//! first, change opens an editor whose ctrl-s replaces the text, P pins and unpins.

use ratatui::crossterm::event::KeyCode;

use super::*;

fn with_latest(records: Vec<MemoryRecord>) -> App {
    let mut a = app();
    a.update(Msg::Latest {
        append: false,
        records,
        limit: PAGE,
    });
    a
}

#[test]
fn delete_asks_first_and_only_yes_deletes() {
    let mut a = with_latest(vec![record(1), record(2)]);
    key(&mut a, KeyCode::Down);
    assert!(key(&mut a, KeyCode::Char('d')).is_empty());
    match &a.overlay {
        Some(Overlay::Confirm { question, .. }) => {
            assert!(
                question.contains("memory 2") && question.contains("brings it back"),
                "{question}"
            );
        }
        other => panic!("expected a question, got {:?}", other.is_some()),
    }
    assert!(key(&mut a, KeyCode::Char('n')).is_empty());
    assert!(a.overlay.is_none());
    key(&mut a, KeyCode::Char('d'));
    assert_eq!(key(&mut a, KeyCode::Char('y')), vec![Effect::DeleteMemory("m2".into())]);
}

#[test]
fn change_opens_the_text_and_ctrl_s_replaces_it() {
    let mut a = with_latest(vec![record(1)]);
    assert!(key(&mut a, KeyCode::Char('c')).is_empty());
    assert!(matches!(a.overlay, Some(Overlay::Editor { .. })));
    chars(&mut a, " and more");
    assert_eq!(
        ctrl(&mut a, 's'),
        vec![Effect::UpdateMemory {
            id: "m1".into(),
            text: "memory 1 and more".into(),
        }]
    );

    // An emptied text is refused, with the way to remove the memory.
    key(&mut a, KeyCode::Char('c'));
    for _ in 0.."memory 1".len() {
        key(&mut a, KeyCode::Backspace);
    }
    assert!(ctrl(&mut a, 's').is_empty());
    let status = a.status.as_ref().map(|s| s.text.clone()).unwrap_or_default();
    assert!(status.contains("delete it (d)"), "{status}");
}

#[test]
fn p_pins_and_unpins_the_selected_memory() {
    let mut pinned = record(2);
    pinned.pinned = true;
    let mut a = with_latest(vec![record(1), pinned]);
    assert_eq!(
        key(&mut a, KeyCode::Char('P')),
        vec![Effect::SetPinned {
            id: "m1".into(),
            pinned: true
        }]
    );
    key(&mut a, KeyCode::Down);
    assert_eq!(
        key(&mut a, KeyCode::Char('P')),
        vec![Effect::SetPinned {
            id: "m2".into(),
            pinned: false
        }]
    );
}

#[test]
fn attributes_open_as_json_and_ctrl_s_replaces_them() {
    let mut a = with_latest(vec![record(1)]);
    assert!(key(&mut a, KeyCode::Char('A')).is_empty());
    // Every attribute is there to fill in, unset ones as null.
    match &a.overlay {
        Some(Overlay::Editor { area, .. }) => {
            let text = area.lines().join("\n");
            for key in [
                "\"memory_type\": null",
                "\"importance\": null",
                "\"metadata\": {}",
                "\"user_id\": null",
            ] {
                assert!(text.contains(key), "{key} missing from {text}");
            }
        }
        _ => panic!("no editor"),
    }
    clear_editor(&mut a);
    chars(
        &mut a,
        r#"{"memory_type": "Fact", "importance": 0.8, "metadata": {"project": "apollo"}}"#,
    );
    let expected = haema_core::MemoryAttributes {
        memory_type: Some("fact".into()),
        importance: Some(0.8),
        metadata: [("project".to_owned(), serde_json::json!("apollo"))].into(),
        ..Default::default()
    };
    assert_eq!(
        ctrl(&mut a, 's'),
        vec![Effect::UpdateAttributes {
            id: "m1".into(),
            attributes: expected,
        }]
    );

    // A key that is no attribute, or a value out of range, is refused in words.
    for (bad, says) in [
        (r#"{"importanse": 0.8}"#, "not an attribute"),
        (r#"{"importance": 3}"#, "from 0 to 1"),
        ("not json", "not JSON"),
    ] {
        let mut a = with_latest(vec![record(1)]);
        key(&mut a, KeyCode::Char('A'));
        clear_editor(&mut a);
        chars(&mut a, bad);
        assert!(ctrl(&mut a, 's').is_empty(), "{bad}");
        let status = a.status.as_ref().map(|s| s.text.clone()).unwrap_or_default();
        assert!(status.contains(says), "{bad}: {status}");
        assert!(
            matches!(a.overlay, Some(Overlay::Editor { .. })),
            "the text stays to be fixed"
        );
    }
}

/// Empties the open editor.
fn clear_editor(a: &mut App) {
    if let Some(Overlay::Editor { area, .. }) = &mut a.overlay {
        area.select_all();
        area.cut();
    }
}
