//! Every surface takes its recall defaults, its "0 is no time limit" and its page caps from
//! the core (`haema_core::limits`, `RecallOptions`): the CLI's recall budget had drifted to
//! 1000, and MCP capped a search at 50 and a page of the newest at 100 where the desktop
//! took 100 and 500.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use common::mcp::*;
use common::*;
use haema_core::limits::{MAX_LATEST_PAGE, MAX_RECALL_MEMORIES, MAX_SEARCH_HITS, RECALL_BUDGET};
use haema_core::{DEFAULT_RECALL_BUDGET, DEFAULT_RECALL_MEMORIES};
use serde_json::{Value, json};

const ENV: [(&str, &str); 2] = [("HAEMA_EMBEDDER", "none"), ("HAEMA_REVIEW", "auto")];

#[test]
fn the_cli_and_mcp_recall_with_the_core_s_defaults() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s");
    ok(&haema(
        &store,
        &ENV,
        &["add", "--items", "The user drinks green tea"],
        None,
    ));
    let out = ok(&haema(
        &store,
        &ENV,
        &["recall", "what does the user drink", "--json"],
        None,
    ));
    let recall: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(recall["budget"], json!(DEFAULT_RECALL_BUDGET), "{recall}");

    let mut client = Client::start(&store, &ENV);
    client.initialize();
    let tools = client.request("tools/list", json!({}));
    let description = |name: &str| {
        tools["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == name)
            .unwrap()["description"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let recall = description("recall");
    for said in [
        format!(
            "(default {DEFAULT_RECALL_BUDGET}, from {} to {})",
            RECALL_BUDGET.start(),
            RECALL_BUDGET.end()
        ),
        format!("(default {DEFAULT_RECALL_MEMORIES}, at most {MAX_RECALL_MEMORIES})"),
    ] {
        assert!(recall.contains(&said), "{said}: {recall}");
    }
    assert!(description("search_memory").contains(&format!("at most {MAX_SEARCH_HITS})")));
    assert!(description("latest_memories").contains(&format!("at most {MAX_LATEST_PAGE})")));
    // 0 is no limit: the search is waited for.
    let block = client.call("recall", json!({"query": "green tea", "timeout_ms": 0}));
    assert!(!block.to_string().contains("took longer"), "{block}");
}

#[test]
fn an_agent_gets_as_many_as_the_core_s_caps_allow() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s");
    let texts: Vec<String> = (0..MAX_SEARCH_HITS + 20)
        .map(|i| format!("Note {i}: the user visited harbour number {i}"))
        .collect();
    let mut args = vec!["add"];
    for text in &texts {
        args.extend(["--items", text.as_str()]);
    }
    ok(&haema(&store, &ENV, &args, None));
    let mut client = Client::start(&store, &ENV);
    client.initialize();
    let found = client.call(
        "search_memory",
        json!({"query": "harbour", "mode": "lexical", "limit": MAX_SEARCH_HITS + 50}),
    );
    assert_eq!(
        structured(&found)["memories"].as_array().unwrap().len(),
        MAX_SEARCH_HITS
    );
    let latest = client.call("latest_memories", json!({"count": MAX_LATEST_PAGE + 1}));
    assert_eq!(structured(&latest)["memories"].as_array().unwrap().len(), texts.len());
}
