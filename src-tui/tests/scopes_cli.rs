//! Scopes through the real binary: a store with `scope = "per_user"` refuses every command
//! without `--user` / HAEMA_USER and never shows one user another's memories, from the CLI
//! and from the MCP server (per call `user_id`, or a server started for one user);
//! `haema purge-user` leaves none of the user's text in the store's files. In a store
//! without scopes `--user` is the attribute and filter it always was.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::path::Path;

use common::mcp::*;
use common::*;
use serde_json::json;

fn per_user_store(dir: &Path) -> std::path::PathBuf {
    let store = dir.join("team");
    std::fs::create_dir_all(&store).unwrap();
    std::fs::write(
        store.join("haema.toml"),
        "scope = \"per_user\"\nreview = \"auto\"\n[embedder]\nprovider = \"none\"\n",
    )
    .unwrap();
    store
}

fn add(store: &Path, user: &str, text: &str) -> String {
    let out = json_of(&haema(
        store,
        &[("HAEMA_USER", user)],
        &["add", "--items", text, "--json"],
        None,
    ));
    out["memory_ids"][0].as_str().unwrap().to_owned()
}

#[test]
fn the_command_line_keeps_users_apart_and_purges_one_for_good() {
    let dir = tempfile::tempdir().unwrap();
    let store = per_user_store(dir.path());
    let refused = haema(&store, &[], &["add", "Ann likes green tea"], None);
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    assert!(stderr(&refused).contains("--user"), "{}", stderr(&refused));
    for command in [
        &["latest"][..],
        &["search", "tea"],
        &["history"],
        &["status"],
        &["recall", "tea"],
    ] {
        let out = haema(&store, &[], command, None);
        assert_eq!(out.status.code(), Some(2), "{command:?}: {}", stderr(&out));
    }

    add(&store, "ann", "Ann likes quetzalcoatl tea");
    let bobs = add(&store, "bob", "Bob likes quetzalcoatl tea too");
    let found = json_of(&haema(
        &store,
        &[],
        &["--user", "ann", "search", "quetzalcoatl", "--json"],
        None,
    ));
    assert_eq!(contents(&found), vec!["Ann likes quetzalcoatl tea"]);
    let latest = json_of(&haema(&store, &[("HAEMA_USER", "bob")], &["latest", "--json"], None));
    assert_eq!(contents(&latest), vec!["Bob likes quetzalcoatl tea too"]);
    let status = json_of(&haema(&store, &[], &["--user", "ann", "status", "--json"], None));
    assert_eq!(
        (
            status["scope"].clone(),
            status["user"].clone(),
            status["active"].clone()
        ),
        (json!("per_user"), json!("ann"), json!(1))
    );
    let other = haema(&store, &[], &["--user", "ann", "delete", &bobs], None);
    assert!(!other.status.success(), "ann deleted bob's memory");
    let recall = ok(&haema(&store, &[], &["--user", "ann", "recall", "quetzalcoatl"], None));
    assert!(!recall.contains("Bob"), "{recall}");

    let asked = haema(&store, &[], &["purge-user", "ann"], None);
    assert_eq!(asked.status.code(), Some(2), "purging asks first: {}", stderr(&asked));
    let purged = json_of(&haema(&store, &[], &["purge-user", "ann", "--yes", "--json"], None));
    assert_eq!(purged["memories"], 1);
    let db = std::fs::read(store.join("memory.db")).unwrap();
    assert!(
        !db.windows(b"Ann likes".len()).any(|w| w == b"Ann likes"),
        "Ann's text is still in memory.db"
    );
    let latest = json_of(&haema(&store, &[], &["--user", "ann", "latest", "--json"], None));
    assert!(contents(&latest).is_empty());
    let latest = json_of(&haema(&store, &[], &["--user", "bob", "latest", "--json"], None));
    assert_eq!(contents(&latest), vec!["Bob likes quetzalcoatl tea too"]);
}

#[test]
fn the_mcp_server_scopes_each_call_by_its_user_id() {
    let dir = tempfile::tempdir().unwrap();
    let store = per_user_store(dir.path());
    let mut client = Client::start(&store, &[]);
    client.request(
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
    );
    client.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));

    let without = client.call("search_memory", json!({"query": "tea"}));
    assert_eq!(without["isError"], json!(true), "{without}");
    assert!(text(&without).contains("user_id"), "{}", text(&without));
    let ann = client.call("add_memory", json!({"items": ["Ann drinks oolong"], "user_id": "ann"}));
    structured(&ann);
    let bob = client.call("add_memory", json!({"items": ["Bob drinks oolong"], "user_id": "bob"}));
    let bob_changeset = structured(&bob)["changeset"].clone();
    let found = client.call(
        "search_memory",
        json!({"query": "oolong", "user_id": "ann", "mode": "lexical"}),
    );
    let rows = &structured(&found)["memories"];
    assert_eq!(contents(rows), vec!["Ann drinks oolong"]);
    let latest = client.call("latest_memories", json!({"user_id": "bob"}));
    assert_eq!(contents(&structured(&latest)["memories"]), vec!["Bob drinks oolong"]);
    let status = client.call(
        "changeset_status",
        json!({"changeset": bob_changeset, "user_id": "ann"}),
    );
    assert_eq!(status["isError"], json!(true), "ann sees bob's change: {status}");
    drop(client);

    // A server started for one user serves that user only.
    let mut client = Client::start(&store, &[("HAEMA_USER", "ann")]);
    client.request(
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
    );
    client.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    let mine = client.call("latest_memories", json!({}));
    assert_eq!(contents(&structured(&mine)["memories"]), vec!["Ann drinks oolong"]);
    let other = client.call("latest_memories", json!({"user_id": "bob"}));
    let rows = if other["isError"] == json!(true) {
        Vec::new()
    } else {
        contents(&structured(&other)["memories"])
    };
    assert!(rows.is_empty(), "a server for ann showed bob's memories: {other}");
}

#[test]
fn in_a_store_without_scopes_user_is_an_attribute_and_a_filter() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("shared");
    let env = [("HAEMA_EMBEDDER", "none")];
    ok(&haema(
        &store,
        &env,
        &["--user", "ann", "add", "--items", "Ann reads novels"],
        None,
    ));
    ok(&haema(&store, &env, &["add", "--items", "Someone reads poems"], None));
    let all = json_of(&haema(&store, &env, &["latest", "--json"], None));
    assert_eq!(all.as_array().unwrap().len(), 2);
    assert_eq!(all[1]["user_id"], "ann");
    let anns = json_of(&haema(&store, &env, &["--user", "ann", "latest", "--json"], None));
    assert_eq!(contents(&anns), vec!["Ann reads novels"]);
}
