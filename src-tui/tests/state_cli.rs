//! Agent state through the real binary: `haema state` (values read as JSON when they are
//! JSON, - from stdin, per agent, history, deletions) and the MCP tools get_agent_state /
//! set_agent_state / delete_agent_state on the same store.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use common::*;
use serde_json::{Value, json};

#[test]
fn haema_state_sets_gets_lists_and_keeps_history() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s");
    let set = json_of(&haema(
        &store,
        &[],
        &[
            "state",
            "set",
            "current_task",
            r#"{"step": 2}"#,
            "--agent",
            "planner",
            "--json",
        ],
        None,
    ));
    assert_eq!(set["value"], json!({"step": 2}), "JSON is read as JSON");
    ok(&haema(
        &store,
        &[],
        &["state", "set", "current_task", "pack the bags", "--agent", "planner"],
        None,
    ));
    ok(&haema(
        &store,
        &[],
        &["state", "set", "note", "-"],
        Some("from stdin\n"),
    ));

    let got = ok(&haema(
        &store,
        &[],
        &["state", "get", "current_task", "--agent", "planner"],
        None,
    ));
    assert_eq!(got, "pack the bags\n");
    let got = json_of(&haema(&store, &[], &["state", "get", "note", "--json"], None));
    assert_eq!(got["value"], "from stdin");
    assert_eq!(got["agent_id"], "default");
    let listed = ok(&haema(&store, &[], &["state", "list", "--agent", "planner"], None));
    assert!(listed.contains("current_task = pack the bags"), "{listed}");

    let missing = haema(&store, &[], &["state", "get", "nothing"], None);
    assert_eq!(missing.status.code(), Some(1));
    assert!(stderr(&missing).contains("is not set"), "{}", stderr(&missing));
    assert_eq!(
        json_of(&haema(&store, &[], &["state", "get", "nothing", "--json"], None)),
        Value::Null
    );

    ok(&haema(
        &store,
        &[],
        &["state", "delete", "current_task", "--agent", "planner"],
        None,
    ));
    let history = json_of(&haema(
        &store,
        &[],
        &["state", "history", "current_task", "--agent", "planner", "--json"],
        None,
    ));
    let values: Vec<Value> = history.as_array().unwrap().iter().map(|c| c["value"].clone()).collect();
    assert_eq!(values, [json!({"step": 2}), json!("pack the bags"), Value::Null]);
    assert_eq!(history[2]["deleted"], true);
    let never = ok(&haema(&store, &[], &["state", "history", "nothing"], None));
    assert!(never.contains("was never set"), "{never}");

    // Forgetting a phrase only the state holds: planned, asked for, blanked; JSON either way.
    ok(&haema(
        &store,
        &[],
        &["state", "set", "addr", "ship to Quokka Street"],
        None,
    ));
    let forgot = json_of(&haema(
        &store,
        &[],
        &["forget", "--mentioning", "quokka street", "--yes", "--json"],
        None,
    ));
    assert_eq!(forgot["receipt"]["agent_state"], 2, "{forgot}");
    let again = json_of(&haema(
        &store,
        &[],
        &["forget", "--mentioning", "quokka street", "--yes", "--json"],
        None,
    ));
    assert_eq!(again["status"], "noop", "{again}");
    let nameless = haema(&store, &[], &["state", "set", "k", "v", "--agent", " "], None);
    assert!(stderr(&nameless).contains("agent id is empty"), "{}", stderr(&nameless));

    let empty_key = haema(&store, &[], &["state", "set", " ", "x"], None);
    assert!(!empty_key.status.success());
    assert!(stderr(&empty_key).contains("key is empty"), "{}", stderr(&empty_key));
}

#[test]
fn an_agent_reads_and_writes_its_state_over_mcp() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s");
    ok(&haema(
        &store,
        &[],
        &["state", "set", "cursor", "41", "--agent", "scout"],
        None,
    ));
    // One server per call, its input kept open until the answer comes (a write still running
    // when the input closes finishes but cannot be answered any more).
    let call = |name: &str, arguments: Value| -> Value {
        let mut client = common::mcp::Client::start(&store, &[("HAEMA_EMBEDDER", "none")]);
        client.initialize();
        client.call(name, arguments)
    };
    let got = call("get_agent_state", json!({"key": "cursor", "agent_id": "scout"}));
    assert_eq!(got["structuredContent"]["value"], 41, "{got}");
    assert!(got["structuredContent"]["updated_at"].is_string());
    let set = call(
        "set_agent_state",
        json!({"key": "cursor", "value": 42, "agent_id": "scout"}),
    );
    assert_eq!(set["structuredContent"]["value"], 42);
    let missing = call("get_agent_state", json!({"key": "missing"}));
    assert_eq!(missing["structuredContent"]["value"], Value::Null);
    let refused = call("set_agent_state", json!({"key": "x", "value": 1, "colour": "red"}));
    assert_eq!(refused["isError"], true, "an unknown argument is refused");
    let deleted = call("delete_agent_state", json!({"key": "cursor", "agent_id": "scout"}));
    assert_eq!(deleted["structuredContent"]["deleted"], true);
    let history = json_of(&haema(
        &store,
        &[],
        &["state", "history", "cursor", "--agent", "scout", "--json"],
        None,
    ));
    assert_eq!(
        history.as_array().unwrap().len(),
        3,
        "set by the CLI, by the agent, deleted"
    );
}

/// A secret in a state value is replaced and the command says so; a secret as a key is
/// refused with the reason; `core set` says what it replaced too.
#[test]
fn state_and_core_writes_say_what_secrets_they_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s");
    let token = "ghp_16C7e42F292c6912E7710c838347Ae178B4a";
    let set = haema(&store, &[], &["state", "set", "creds", &format!("token {token}")], None);
    assert!(
        stderr(&set).contains("secrets were replaced by markers before anything was stored: 1 github token"),
        "{}",
        stderr(&set)
    );
    assert!(ok(&set).contains("creds = token [secret: github token]"));
    let refused = haema(&store, &[], &["state", "set", token, "1"], None);
    assert!(!refused.status.success());
    assert!(
        stderr(&refused).contains("the state key holds what looks like a secret (github token)"),
        "{}",
        stderr(&refused)
    );
    assert!(!stderr(&refused).contains(token), "{}", stderr(&refused));
    let core = haema(
        &store,
        &[],
        &["core", "set", "TOOLS", "--file", "-"],
        Some(&format!("- deploy with {token}\n")),
    );
    assert!(stderr(&core).contains("1 github token"), "{}", stderr(&core));
    assert!(ok(&core).contains("Section TOOLS saved"));
    let shown = ok(&haema(&store, &[], &["core", "show"], None));
    assert!(
        shown.contains("- deploy with [secret: github token]") && !shown.contains(token),
        "{shown}"
    );
}
