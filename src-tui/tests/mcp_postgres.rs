//! Agents on two machines writing through MCP to one PostgreSQL store: agent A's proposal
//! waits for review, a person on machine B approves it with the CLI, agent A sees it
//! committed and agent B finds it; what agent B adds, agent A reads. Each machine has its
//! own home, data and configuration folders (its own link folder and settings). Needs the
//! PostgreSQL test server (`HAEMA_TEST_PG_URL`, which `.ci/run` sets); elsewhere it says why
//! it did not run.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use common::mcp::{Client, structured};
use common::{machine, ok, with};
use serde_json::json;

fn initialized(mut client: Client) -> Client {
    client.initialize();
    client
}

fn contents(result: &serde_json::Value, key: &str) -> Vec<String> {
    structured(result)[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["content"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn agents_on_two_machines_share_one_postgres_store_through_mcp() {
    let Ok(url) = std::env::var("HAEMA_TEST_PG_URL") else {
        eprintln!("SKIPPED: needs HAEMA_TEST_PG_URL (the PostgreSQL test server .ci/run starts)");
        return;
    };
    let bare = url.replacen(":haema-test@", "@", 1);
    let store = std::path::PathBuf::from(format!("{bare}?schema=mcp_{}", std::process::id()));
    let root = tempfile::tempdir().unwrap();
    let (a, b) = (machine(root.path(), "a"), machine(root.path(), "b"));

    let mut agent_a = initialized(Client::start(&store, &with(&a, &[("HAEMA_REVIEW", "review")])));
    let mut agent_b = initialized(Client::start(&store, &with(&b, &[("HAEMA_REVIEW", "auto")])));

    let added = agent_a.call(
        "add_memory",
        json!({"items": ["The staging cluster is rebuilt every Tuesday night."]}),
    );
    let added = structured(&added).clone();
    assert_eq!(added["status"], "pending", "{added}");
    let changeset = added["changeset"].as_i64().unwrap().to_string();

    // A person on machine B approves it with the CLI.
    let approve = std::process::Command::new(env!("CARGO_BIN_EXE_haema"))
        .env_clear()
        .env("HF_HUB_OFFLINE", "1")
        .envs(with(&b, &[]))
        .arg("--store")
        .arg(&store)
        .args(["review", "approve", &changeset])
        .output()
        .unwrap();
    ok(&approve);

    let status = agent_a.call("changeset_status", json!({"changeset": added["changeset"]}));
    assert_eq!(structured(&status)["status"], "committed", "{status}");
    let found = agent_b.call(
        "search_memory",
        json!({"query": "staging cluster Tuesday", "limit": 3, "mode": "lexical"}),
    );
    assert_eq!(
        contents(&found, "memories"),
        ["The staging cluster is rebuilt every Tuesday night."]
    );

    let from_b = agent_b.call(
        "add_memory",
        json!({"items": ["Deploys freeze on Fridays after 15:00."]}),
    );
    assert_eq!(structured(&from_b)["status"], "committed", "{from_b}");
    let latest = agent_a.call("latest_memories", json!({"count": 5}));
    let newest = contents(&latest, "memories");
    assert!(
        newest.contains(&"Deploys freeze on Fridays after 15:00.".to_owned()),
        "{newest:?}"
    );
    assert!(newest.contains(&"The staging cluster is rebuilt every Tuesday night.".to_owned()));

    // Each machine keeps its link folder, without the password.
    for env in [&a, &b] {
        let data = std::path::PathBuf::from(&env[1].1).join("haema");
        let link = std::fs::read_dir(&data)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.join("postgres.url").is_file())
            .unwrap_or_else(|| panic!("no link folder in {}", data.display()));
        assert!(
            !std::fs::read_to_string(link.join("postgres.url"))
                .unwrap()
                .contains("haema-test")
        );
    }
    for mut agent in [agent_a, agent_b] {
        drop(agent.input.take());
        let status = agent.child.wait().unwrap();
        assert!(status.success(), "the server ended cleanly");
    }
}
