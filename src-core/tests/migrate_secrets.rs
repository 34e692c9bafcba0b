//! `migrate_store` is a write into a new store: secrets the source stored before the secret
//! screen existed are replaced in the copy (its memories, changesets, core versions, agent
//! state and core.md), the vectors made from them are made again, the check compares the
//! copy with the source's export with the same secrets replaced, and the report says how
//! many records of the source still hold them. A clean store is copied byte for byte.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use common::*;
use haema_core::secrets::SecretKind;
use haema_core::{Memory, ReviewPolicy, Section};
use serde_json::json;

const AWS: &str = "AKIAIOSFODNN7EXAMPLE";
const GITHUB: &str = "ghp_16C7e42F292c6912E7710c838347Ae178B4a";

async fn open(dir: &std::path::Path) -> Memory {
    let embedder = std::sync::Arc::new(haema_core::fake::HashEmbedder::new(DIMS));
    Memory::open_with(dir, settings(ReviewPolicy::Auto), None, Some(embedder))
        .await
        .unwrap()
}

async fn export_text(memory: &Memory) -> String {
    let mut out = Vec::new();
    memory.export_jsonl(&mut out).await.unwrap();
    String::from_utf8(out).unwrap()
}

/// A store folder with a memory, core.md and an agent's state; with `secrets`, their texts
/// then hold an AWS key and a GitHub token, written into the files as a store made before
/// the secret screen would hold them.
async fn source_store(secrets: bool) -> tempfile::TempDir {
    let Fixture { dir, memory, .. } = folder_fixture_without_llm(ReviewPolicy::Auto).await;
    memory
        .add(items(&["The user lives in Lyon.", "The deploy key is PLANTEDAWS."]))
        .await
        .unwrap();
    memory
        .set_core_section(Section::Tools, "- the CI token is PLANTEDGH")
        .await
        .unwrap();
    memory
        .set_agent_state("planner", "creds", json!({"token": "PLANTEDGH"}))
        .await
        .unwrap();
    drop(memory);
    if secrets {
        let conn = rusqlite::Connection::open(dir.path().join("memory.db")).unwrap();
        for (table, column) in [
            ("memories", "content"),
            ("changeset_items", "content"),
            ("changesets", "inputs"),
            ("changesets", "raw_input"),
            ("core_versions", "content"),
            ("agent_state", "value"),
            ("agent_state_history", "value"),
        ] {
            conn.execute(
                &format!("UPDATE {table} SET {column} = replace(replace({column}, 'PLANTEDAWS', ?1), 'PLANTEDGH', ?2)"),
                [AWS, GITHUB],
            )
            .unwrap();
        }
        let core = dir.path().join("core.md");
        let text = std::fs::read_to_string(&core).unwrap().replace("PLANTEDGH", GITHUB);
        std::fs::write(&core, text).unwrap();
        assert!(!files_holding(dir.path(), &[AWS, GITHUB]).is_empty());
    }
    dir
}

#[tokio::test]
async fn secrets_stored_before_the_screen_are_replaced_in_the_copy_and_counted() {
    let source = source_store(true).await;
    let target = tempfile::tempdir().unwrap();
    let copy_dir = target.path().join("copy");
    let report = haema_core::migrate_store(source.path(), &copy_dir).unwrap();
    let kinds: Vec<SecretKind> = report.secrets.kinds().into_iter().map(|(k, _)| k).collect();
    assert_eq!(kinds, [SecretKind::AwsAccessKey, SecretKind::GithubToken], "{report:?}");
    // The memory, the changeset that made it, the core version and the agent state change.
    assert_eq!(report.records_with_secrets, 4, "{report:?}");
    assert_eq!((report.memories, report.vectors, report.vectors_to_remake), (2, 1, 1));
    // The copy holds no secret; the source, only read, still does.
    assert_eq!(files_holding(&copy_dir, &[AWS, GITHUB]), Vec::<(String, String)>::new());
    assert!(!files_holding(source.path(), &[AWS, GITHUB]).is_empty());
    let copy = open(&copy_dir).await;
    // The report's checksum is the copy's export.
    let exported = export_text(&copy).await;
    let body = exported.split_once('\n').unwrap().1;
    assert_eq!(report.checksum, sha256(body));
    let mut now = latest(&copy).await;
    now.sort();
    assert_eq!(
        now,
        ["The deploy key is [secret: aws access key].", "The user lives in Lyon."]
    );
    assert!(
        copy.get_core()
            .await
            .unwrap()
            .contains("the CI token is [secret: github token]")
    );
    let state = copy.get_agent_state("planner", "creds").await.unwrap().unwrap();
    assert_eq!(state.value, json!({"token": "[secret: github token]"}));
    // The vector made from the text with the secret was not copied: it is made again.
    let redacted = copy
        .get_latest_records(1, 10)
        .await
        .unwrap()
        .into_iter()
        .find(|m| m.content.contains("[secret:"))
        .unwrap();
    assert!(!redacted.has_embedding);
    assert_eq!(copy.catch_up_embeddings(|_| {}).await.unwrap(), 1);
    assert!(copy.memory(&redacted.id).await.unwrap().has_embedding);
}

#[tokio::test]
async fn a_store_without_secrets_is_copied_byte_for_byte() {
    let source = source_store(false).await;
    let target = tempfile::tempdir().unwrap();
    let copy_dir = target.path().join("copy");
    let report = haema_core::migrate_store(source.path(), &copy_dir).unwrap();
    assert_eq!((report.records_with_secrets, report.vectors_to_remake), (0, 0));
    assert!(report.secrets.is_empty());
    let (original, copy) = (open(source.path()).await, open(&copy_dir).await);
    assert_eq!(export_text(&copy).await, export_text(&original).await);
}

fn sha256(text: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
