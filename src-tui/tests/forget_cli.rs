//! `haema forget` as a person uses it (asks first, `--yes` for scripts, by id, by search, by
//! phrase), and forgetting killed at any moment: afterwards the store is either as before
//! or forgotten for good, bytes included.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use common::*;
use serde_json::Value;

/// Every file in `dir` that holds `needle`, letter case ignored.
fn files_containing(dir: &Path, needle: &str) -> Vec<String> {
    let needle = needle.to_lowercase().into_bytes();
    let mut found: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_file())
        .filter(|e| {
            let bytes = std::fs::read(e.path()).unwrap().to_ascii_lowercase();
            bytes.windows(needle.len()).any(|w| w == needle.as_slice())
        })
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    found.sort();
    found
}

fn latest(store: &Path) -> Value {
    json_of(&haema(store, &[], &["latest", "--count", "1000", "--json"], None))
}

fn forgets_in_history(store: &Path) -> usize {
    let history = json_of(&haema(store, &[], &["history", "--json"], None));
    history
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["kind"] == "forget" && c["status"] == "committed")
        .count()
}

#[test]
fn forget_asks_first_and_forgets_by_id_search_and_phrase() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path();
    ok(&haema(
        store,
        &[],
        &[
            "add",
            "--items",
            "The user lives at 9 Brumwhistle Road",
            "The user's sister is called Ondrelia",
            "The user's doctor is Dr Faxenby",
            "The user likes rye bread",
        ],
        None,
    ));
    let rows = latest(store);
    let id_of = |text: &str| {
        rows.as_array().unwrap().iter().find(|r| r["content"] == text).unwrap()["id"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let road = id_of("The user lives at 9 Brumwhistle Road");

    // Without --yes and without a terminal to ask on, nothing happens.
    let refused = haema(store, &[], &["forget", &road], None);
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    assert!(
        stderr(&refused).contains("9 Brumwhistle Road"),
        "shows what it would forget"
    );
    assert!(stderr(&refused).contains("--yes"));
    assert_eq!(contents(&latest(store)).len(), 4);

    let receipt = json_of(&haema(store, &[], &["forget", &road, "--yes", "--json"], None));
    assert_eq!(receipt["status"], "committed");
    assert_eq!(receipt["memories"], serde_json::json!([road]));
    assert_eq!(receipt["receipt"]["memories"], 1);
    assert_eq!(files_containing(store, "brumwhistle"), Vec::<String>::new());

    let text = ok(&haema(
        store,
        &[],
        &["forget", "--search", "doctor Faxenby", "-n", "1", "--yes"],
        None,
    ));
    assert!(text.starts_with("Forgot 1 memories"), "{text}");
    assert_eq!(files_containing(store, "faxenby"), Vec::<String>::new());

    ok(&haema(
        store,
        &[],
        &["forget", "--mentioning", "ONDRELIA", "--yes"],
        None,
    ));
    assert_eq!(files_containing(store, "ondrelia"), Vec::<String>::new());
    assert_eq!(contents(&latest(store)), vec!["The user likes rye bread"]);
    assert_eq!(forgets_in_history(store), 3);

    let nothing = ok(&haema(
        store,
        &[],
        &["forget", "--mentioning", "no such words", "--yes"],
        None,
    ));
    assert!(nothing.starts_with("Nothing to forget"), "{nothing}");
    let usage = haema(store, &[], &["forget"], None);
    assert_eq!(usage.status.code(), Some(2));
    assert!(stderr(&usage).contains("--mentioning"), "{}", stderr(&usage));
}

/// Kills `haema forget` at a spread of moments. After the next command opens the store it
/// is either untouched (no receipt, every memory there) or forgotten for good (a receipt,
/// no memory and no byte of the text left in any file).
#[test]
fn forgetting_killed_at_any_moment_is_all_or_nothing_and_leaves_no_bytes_once_done() {
    let template = tempfile::tempdir().unwrap();
    let marker = "Klabbernook";
    let facts: Vec<String> = (0..150)
        .map(|i| format!("Fact {i}: the {marker} project note number {i}"))
        .collect();
    let mut args = vec!["add", "--items"];
    args.extend(facts.iter().map(String::as_str));
    ok(&haema(template.path(), &[], &args, None));
    ok(&haema(
        template.path(),
        &[],
        &["add", "--items", "The user likes rye bread"],
        None,
    ));
    let (mut untouched, mut forgotten) = (0, 0);
    // The last run is never killed: it finishes however slow the machine is today.
    for delay_ms in [0u64, 5, 10, 20, 30, 45, 60, 80, 110, 150, 200, 400, u64::MAX] {
        let run = tempfile::tempdir().unwrap();
        for entry in std::fs::read_dir(template.path()).unwrap().flatten() {
            std::fs::copy(entry.path(), run.path().join(entry.file_name())).unwrap();
        }
        let mut child = Command::new(env!("CARGO_BIN_EXE_haema"))
            .env_clear()
            .env("HF_HUB_OFFLINE", "1")
            .arg("--store")
            .arg(run.path())
            .args(["forget", "--mentioning", marker, "--yes"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        if delay_ms != u64::MAX {
            std::thread::sleep(Duration::from_millis(delay_ms));
            // SIGKILL: no destructor, no flush.
            let _ = child.kill();
        }
        let _ = child.wait();
        let rows = contents(&latest(run.path()));
        if forgets_in_history(run.path()) == 1 {
            forgotten += 1;
            assert_eq!(rows, vec!["The user likes rye bread"], "killed after {delay_ms} ms");
            assert_eq!(
                files_containing(run.path(), marker),
                Vec::<String>::new(),
                "after {delay_ms} ms"
            );
        } else {
            untouched += 1;
            assert_eq!(rows.len(), 151, "killed after {delay_ms} ms: all or nothing");
        }
    }
    eprintln!("killed runs: {untouched} left untouched, {forgotten} forgotten");
    assert!(forgotten > 0, "the run left alone finishes");
}

/// An agent's forget request (MCP `forget_memory`, under review) shows what approving it
/// does before it is approved: in `review list`, `review show` and the question `review
/// approve` asks (refused without --yes), the phrase and the agent state it removes.
#[test]
fn an_agents_forget_request_shows_what_approving_it_removes() {
    use common::mcp::{Client, structured};
    use serde_json::json;

    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("agent");
    let env = [("HAEMA_EMBEDDER", "none"), ("HAEMA_REVIEW", "guarded")];
    ok(&haema(&store, &env, &["state", "set", "task", "ship v2"], None));
    ok(&haema(&store, &env, &["state", "set", "cursor", "42"], None));
    let mut client = Client::start(&store, &env);
    client.request(
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test-client", "version": "1.0"}}),
    );
    client.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    let asked = structured(&client.call("forget_memory", json!({"mentioning": "default"}))).clone();
    assert_eq!(asked["status"], "pending", "{asked}");
    // The agent is told what approving it would remove, before anything goes.
    assert_eq!(asked["removes"]["memories"], 0, "{asked}");
    assert_eq!(
        asked["removes"]["agent_state_keys_removed"],
        json!([{"agent_id": "default", "key": "task"}, {"agent_id": "default", "key": "cursor"}])
    );
    drop(client.input.take());
    client.child.wait().unwrap();
    let id = asked["changeset"].as_i64().unwrap().to_string();

    let list = ok(&haema(&store, &env, &["review", "list"], None));
    assert!(
        list.contains("forget “default”: 0 memories, 2 agent-state keys removed"),
        "{list}"
    );
    let listed = json_of(&haema(&store, &env, &["review", "list", "--json"], None));
    assert_eq!(
        listed[0]["pending_forget"]["plan"]["agent_state_removed"],
        json!([{"agent_id": "default", "key": "task"}, {"agent_id": "default", "key": "cursor"}])
    );
    let show = ok(&haema(&store, &env, &["review", "show", &id], None));
    for expected in [
        "“default”",
        "agent default  key task",
        "agent default  key cursor",
        "haema export",
    ] {
        assert!(show.contains(expected), "{expected:?} missing from:\n{show}");
    }

    let refused = haema(&store, &env, &["review", "approve", &id], None);
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    let said = stderr(&refused);
    for expected in [
        "“default”",
        "2 agent-state keys removed",
        "agent default  key task",
        "--yes",
    ] {
        assert!(said.contains(expected), "{expected:?} missing from:\n{said}");
    }
    let state = ok(&haema(&store, &env, &["state", "list"], None));
    assert!(state.contains("ship v2"), "nothing was approved: {state}");

    let approved = ok(&haema(&store, &env, &["review", "approve", &id, "--yes"], None));
    assert!(
        approved.contains(&format!("The receipt is changeset {id}")),
        "{approved}"
    );
    let state = ok(&haema(&store, &env, &["state", "list"], None));
    assert!(!state.contains("ship v2"), "{state}");
}
