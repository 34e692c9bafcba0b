//! A person's direct edits through the real binary: `add --json` tells the new ids,
//! `delete`, `update` (alias `edit`, text from stdin too), `pin` / `unpin`, each a change
//! `revert` undoes; bad ids and texts are refused with nothing changed; and an agent's
//! `delete_memory` / `update_memory` over MCP wait for a person under the default policy.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use common::*;
use serde_json::Value;

fn add(store: &std::path::Path, text: &str) -> String {
    let added = json_of(&haema(store, &[], &["add", "--items", text, "--json"], None));
    assert_eq!(added["status"], "committed", "{added}");
    added["memory_ids"][0].as_str().unwrap().to_owned()
}

fn latest(store: &std::path::Path) -> Vec<String> {
    contents(&json_of(&haema(store, &[], &["latest", "--json"], None)))
}

#[test]
fn delete_update_and_pin_are_changes_a_revert_undoes() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s");
    let locker = add(&store, "The user's locker number is 4417");
    let car = add(&store, "The user drives a blue car");

    let out = haema(&store, &[], &["delete", &locker], None);
    let said = ok(&out);
    assert!(
        said.contains("Deleted “The user's locker number is 4417”") && said.contains("haema revert 3"),
        "{said}"
    );
    assert_eq!(latest(&store), ["The user drives a blue car"]);

    let updated = json_of(&haema(
        &store,
        &[],
        &["edit", &car, "-", "--json"],
        Some("The user drives a red car\n"),
    ));
    assert_eq!(updated["status"], "committed", "{updated}");
    let red = updated["memory_ids"][0].as_str().unwrap().to_owned();
    assert_ne!(red, car);
    assert_eq!(latest(&store), ["The user drives a red car"]);

    let pinned = json_of(&haema(&store, &[], &["pin", &red, "--json"], None));
    assert_eq!(pinned["pinned"], true);
    let rows = json_of(&haema(&store, &[], &["latest", "--json"], None));
    assert_eq!(rows[0]["pinned"], true, "latest shows the pin");
    let said = ok(&haema(&store, &[], &["unpin", &red], None));
    assert!(said.starts_with("Unpinned"), "{said}");

    // History lists both changes; a revert brings the deleted memory back.
    let history = ok(&haema(&store, &[], &["history"], None));
    assert!(
        history.contains("  delete ") && history.contains("  edit "),
        "{history}"
    );
    ok(&haema(&store, &[], &["revert", "3"], None));
    let mut now = latest(&store);
    now.sort();
    assert_eq!(now, ["The user drives a red car", "The user's locker number is 4417"]);
}

#[test]
fn bad_ids_and_texts_are_refused_with_nothing_changed() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s");
    let id = add(&store, "The user plays the cello");
    for (args, says) in [
        (vec!["delete", "no-such-id"], "no memory with id"),
        (vec!["update", &id, "   "], "delete it"),
        (vec!["pin", "no-such-id"], "no memory with id"),
    ] {
        let out = haema(&store, &[], &args, None);
        assert!(!out.status.success(), "{args:?}");
        let err = stderr(&out);
        assert!(err.contains(says), "{args:?}: {err}");
    }
    ok(&haema(&store, &[], &["delete", &id], None));
    let out = haema(&store, &[], &["delete", &id], None);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("not active"), "{}", stderr(&out));
    assert!(latest(&store).is_empty());
}

#[test]
fn an_agents_delete_and_update_wait_for_a_person_under_guarded() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s");
    let id = add(&store, "The user lives in Lyon");
    // The client keeps its input open until it has its answers: a write still running when the
    // input closes finishes but cannot be answered any more.
    let mut client = common::mcp::Client::start(&store, &[("HAEMA_EMBEDDER", "none")]);
    client.initialize();
    let update = client.call(
        "update_memory",
        serde_json::json!({"memory_id": id, "content": "The user lives in Paris"}),
    );
    let refused = client.call("delete_memory", serde_json::json!({"memory_id": id, "why": "x"}));
    drop(client);
    let update = &update["structuredContent"];
    assert_eq!(update["status"], "pending", "{update}");
    assert!(update["message"].as_str().unwrap().contains("review"), "{update}");
    assert_eq!(refused["isError"], true, "an unknown argument is refused: {refused}");
    assert_eq!(
        latest(&store),
        ["The user lives in Lyon"],
        "nothing changed before review"
    );
    let changeset = update["changeset"].as_i64().unwrap().to_string();
    ok(&haema(&store, &[], &["review", "approve", &changeset], None));
    assert_eq!(latest(&store), ["The user lives in Paris"]);
}

#[test]
fn update_changes_attributes_flag_by_flag_and_a_revert_brings_the_old_ones_back() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s");
    let added = json_of(&haema(
        &store,
        &[],
        &[
            "add",
            "--items",
            "The user lives in Oslo",
            "--type",
            "fact",
            "--meta",
            "city=Oslo",
            "--json",
        ],
        None,
    ));
    let id = added["memory_ids"][0].as_str().unwrap().to_owned();
    let changed = json_of(&haema(
        &store,
        &[],
        &[
            "update",
            &id,
            "--importance",
            "0.9",
            "--meta",
            "country=Norway",
            "--json",
        ],
        None,
    ));
    let changeset = changed["changeset"].as_i64().unwrap().to_string();
    let rows = json_of(&haema(&store, &[], &["latest", "--json"], None));
    let row = &rows[0];
    assert_eq!(row["content"], "The user lives in Oslo", "the text stays");
    assert_eq!(row["memory_type"], "fact", "an attribute not given stays");
    assert_eq!(row["importance"], 0.9);
    assert_eq!(
        row["metadata"],
        serde_json::json!({"city": "Oslo", "country": "Norway"})
    );
    assert_ne!(row["id"], id.as_str(), "a new memory replaces it");

    let bad = haema(
        &store,
        &[],
        &["update", row["id"].as_str().unwrap(), "--importance", "7"],
        None,
    );
    assert_eq!(bad.status.code(), Some(2), "{}", stderr(&bad));
    assert!(stderr(&bad).contains("from 0 to 1"), "{}", stderr(&bad));
    let missing = haema(&store, &[], &["update", &id], None);
    assert_eq!(missing.status.code(), Some(2), "a text or an attribute is needed");

    ok(&haema(&store, &[], &["revert", &changeset], None));
    let rows = json_of(&haema(&store, &[], &["latest", "--json"], None));
    assert_eq!(rows[0]["importance"], Value::Null);
    assert_eq!(rows[0]["metadata"], serde_json::json!({"city": "Oslo"}));
}
