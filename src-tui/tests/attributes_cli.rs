//! Typed, weighted, attributed memories through the real binary: `haema add` flags, what
//! `latest` and `search` print, HAEMA's ISO timestamps, mem0's `user_id` / `agent_id` /
//! `run_id` / `metadata` kept on import, attributes kept through export and import, and bad
//! values refused with nothing stored.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use common::*;
use serde_json::{Value, json};

fn latest(store: &std::path::Path) -> Vec<Value> {
    json_of(&haema(store, &[], &["latest", "--json", "--count", "50"], None))
        .as_array()
        .unwrap()
        .clone()
}

fn by_content<'a>(rows: &'a [Value], content: &str) -> &'a Value {
    rows.iter()
        .find(|r| r["content"] == content)
        .unwrap_or_else(|| panic!("no {content:?} in {rows:#?}"))
}

#[test]
fn add_takes_attributes_and_every_view_shows_them() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s");
    ok(&haema(
        &store,
        &[],
        &[
            "add",
            "--items",
            "The user prefers window seats",
            "--type",
            "Preference",
            "--importance",
            "0.8",
            "--source",
            "chat",
            "--agent",
            "planner",
            "--session",
            "s-42",
            "--user",
            "ann",
            "--metadata",
            r#"{"project": "apollo", "tags": ["travel"]}"#,
            "--meta",
            "priority=3",
            "--meta",
            "note=plain words",
        ],
        None,
    ));
    ok(&haema(&store, &[], &["add", "--items", "The user lives in Oslo"], None));

    let rows = latest(&store);
    let seat = by_content(&rows, "The user prefers window seats");
    assert_eq!(
        seat["memory_type"], "preference",
        "the type is stored in lowercase: {seat}"
    );
    assert_eq!(seat["importance"], 0.8);
    assert_eq!(
        (
            &seat["source"],
            &seat["agent_id"],
            &seat["session_id"],
            &seat["user_id"]
        ),
        (&json!("chat"), &json!("planner"), &json!("s-42"), &json!("ann"))
    );
    assert_eq!(
        seat["metadata"],
        json!({"project": "apollo", "tags": ["travel"], "priority": 3, "note": "plain words"})
    );
    let timestamp = seat["timestamp"].as_str().unwrap();
    assert!(
        timestamp.ends_with('Z') && timestamp.len() == "2026-11-24T06:55:00.000Z".len(),
        "{timestamp}"
    );
    let oslo = by_content(&rows, "The user lives in Oslo");
    for key in ["memory_type", "importance", "source", "agent_id", "metadata"] {
        assert!(
            oslo.get(key).is_none(),
            "a memory without attributes has no {key}: {oslo}"
        );
    }

    let text = ok(&haema(&store, &[], &["latest"], None));
    assert!(
        text.contains("[preference · importance 0.8 · from chat · agent planner · session s-42 · user ann · note=plain words · priority=3 · project=apollo · tags=[\"travel\"]]"),
        "{text}"
    );
    let found = ok(&haema(
        &store,
        &[],
        &["search", "window seats", "--mode", "lexical"],
        None,
    ));
    assert!(found.contains("preference · importance 0.8"), "{found}");
    let found = json_of(&haema(
        &store,
        &[],
        &["search", "window seats", "--mode", "lexical", "--json"],
        None,
    ));
    assert_eq!(found[0]["memory_type"], "preference", "{found}");
}

#[test]
fn bad_attributes_are_refused_and_nothing_is_stored() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s");
    for (args, says) in [
        (vec!["--importance", "1.5"], "from 0 to 1"),
        (vec!["--type", "two words"], "not one word"),
        (vec!["--meta", "no-equals-sign"], "KEY=VALUE"),
        (vec!["--metadata", "[1, 2]"], "JSON object"),
        (vec!["--metadata", "{oops"], "not JSON"),
        (vec!["--user", ""], "`user_id` is empty"),
    ] {
        let mut all = vec!["add", "--items", "A fact"];
        all.extend(args.iter().copied());
        let out = haema(&store, &[], &all, None);
        assert!(!out.status.success(), "{args:?}");
        let err = stderr(&out);
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    assert!(latest(&store).is_empty());
}

#[test]
fn mem0_fields_and_haema_exports_keep_their_attributes() {
    let dir = tempfile::tempdir().unwrap();
    let mem0 = dir.path().join("mem0.json");
    std::fs::write(
        &mem0,
        json!({"results": [
            {"id": "m-1", "memory": "Likes hiking", "memory_type": "preference", "user_id": "alice", "agent_id": "coach", "run_id": "r-7",
             "metadata": {"mood": "happy"}, "categories": ["hobbies"], "created_at": "2024-07-20T01:23:45Z"},
            {"id": "m-2", "memory": "Plain one", "metadata": null, "user_id": null}
        ]})
        .to_string(),
    )
    .unwrap();
    let store = dir.path().join("s");
    ok(&haema(&store, &[], &["import", mem0.to_str().unwrap()], None));
    let rows = latest(&store);
    let hiking = by_content(&rows, "Likes hiking");
    assert_eq!(
        (&hiking["user_id"], &hiking["agent_id"], &hiking["session_id"]),
        (&json!("alice"), &json!("coach"), &json!("r-7"))
    );
    assert_eq!(hiking["metadata"], json!({"mood": "happy", "categories": ["hobbies"]}));
    assert_eq!(hiking["timestamp"], "2024-07-20T01:23:45.000Z");
    assert_eq!(hiking["memory_type"], "preference");
    assert!(by_content(&rows, "Plain one").get("user_id").is_none());

    // A bad item names itself and nothing of the file is stored.
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(
        &bad,
        "{\"content\": \"ok\"}\n{\"content\": \"x\", \"importance\": \"high\"}\n",
    )
    .unwrap();
    let out = haema(&dir.path().join("t"), &[], &["import", bad.to_str().unwrap()], None);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("line 2: `importance` should be a number"),
        "{}",
        stderr(&out)
    );

    // haema's own export keeps them.
    let export = dir.path().join("export.jsonl");
    ok(&haema(&store, &[], &["export", "-o", export.to_str().unwrap()], None));
    let copy = dir.path().join("copy");
    ok(&haema(&copy, &[], &["import", export.to_str().unwrap()], None));
    assert_eq!(by_content(&latest(&copy), "Likes hiking")["metadata"]["mood"], "happy");
    assert_eq!(by_content(&latest(&copy), "Likes hiking")["user_id"], "alice");
    assert_eq!(
        by_content(&latest(&copy), "Likes hiking")["memory_type"],
        "preference",
        "an export line's own `type` (the record's kind) and the memory's type do not collide"
    );
}

#[test]
fn search_latest_and_recall_take_filters() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s");
    let file = dir.path().join("items.jsonl");
    let lines: Vec<String> = [
        (
            "The user drinks green tea",
            "fact",
            0.9,
            "scout",
            "2026-01-05T10:00:00Z",
            json!({"project": "apollo"}),
        ),
        (
            "The user drinks black tea at work",
            "episode",
            0.2,
            "planner",
            "2026-02-05T10:00:00Z",
            json!({}),
        ),
        (
            "The user drinks mint tea at night",
            "preference",
            0.6,
            "scout",
            "2026-03-05T10:00:00Z",
            json!({"project": "gemini"}),
        ),
    ]
    .iter()
    .map(|(content, kind, importance, agent, at, metadata)| {
        json!({"content": content, "memory_type": kind, "importance": importance, "agent_id": agent,
               "created_at": at, "metadata": metadata})
        .to_string()
    })
    .collect();
    std::fs::write(&file, lines.join("\n")).unwrap();
    ok(&haema(&store, &[], &["import", file.to_str().unwrap()], None));

    let found = |args: &[&str]| -> Vec<String> {
        let mut all = vec!["search", "tea", "--json", "-n", "10"];
        all.extend_from_slice(args);
        contents(&json_of(&haema(&store, &[], &all, None)))
    };
    for mode in ["hybrid", "vector", "lexical"] {
        assert_eq!(
            found(&["--mode", mode, "--agent", "scout", "--min-importance", "0.7"]),
            vec!["The user drinks green tea"],
            "{mode}"
        );
    }
    assert_eq!(
        found(&["--meta", "project=gemini"]),
        vec!["The user drinks mint tea at night"]
    );
    assert_eq!(found(&["--type", "episode"]), vec!["The user drinks black tea at work"]);
    let mut between = found(&["--since", "2026-02-01", "--until", "2026-03-31"]);
    between.sort();
    assert_eq!(
        between,
        vec!["The user drinks black tea at work", "The user drinks mint tea at night"]
    );
    assert!(
        found(&["--since", "7d"]).is_empty(),
        "nothing was learned in the last week"
    );

    let latest = contents(&json_of(&haema(
        &store,
        &[],
        &["latest", "--json", "--agent", "scout"],
        None,
    )));
    assert_eq!(
        latest,
        vec!["The user drinks mint tea at night", "The user drinks green tea"]
    );
    let recall = json_of(&haema(
        &store,
        &[],
        &["recall", "tea", "--json", "--type", "fact"],
        None,
    ));
    let recalled: Vec<&str> = recall["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["reason"] != "core")
        .map(|i| i["content"].as_str().unwrap())
        .collect();
    assert_eq!(recalled, vec!["The user drinks green tea"], "{recall}");

    for (args, says) in [
        (vec!["--since", "last tuesday"], "a time ago"),
        (vec!["--min-importance", "2"], "from 0 to 1"),
        (vec!["--meta", "oops"], "KEY=VALUE"),
    ] {
        let mut all = vec!["search", "tea"];
        all.extend(args.iter().copied());
        let out = haema(&store, &[], &all, None);
        assert!(!out.status.success(), "{args:?}");
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
    }
}
