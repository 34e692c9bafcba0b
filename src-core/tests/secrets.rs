//! The secret screen on a real store: whatever path a secret comes in by (an add, an LLM's
//! answer, an edit, core.md, agent state, an import), no file of the store folder holds
//! its bytes afterwards, and the receipt says what was replaced.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use common::*;
use haema_core::secrets::SecretPolicy;
use haema_core::{AddStatus, Memory, ReviewPolicy, Section, Settings};
use serde_json::json;

/// A text of each format, and its secret (the bytes that must not reach the disk).
const SECRETS: &[(&str, &str)] = &[
    ("My AWS access key is AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"),
    (
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    ),
    (
        "Maps key AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe",
        "AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe",
    ),
    (
        "GitHub token ghp_16C7e42F292c6912E7710c838347Ae178B4a",
        "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
    ),
    (
        "fine-grained github_pat_11ABCDEFG0abcdefghijkl_mnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456",
        "github_pat_11ABCDEFG0abcdefghijkl",
    ),
    ("GitLab glpat-xYz12AbCdEfGhIjKlMnO", "glpat-xYz12AbCdEfGhIjKlMnO"),
    (
        "Slack bot xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
        "xoxb-123456789012-1234567890123",
    ),
    (
        "Slack hook https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
        "T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
    ),
    (
        "Discord bot MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB",
        "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe",
    ),
    (
        "Telegram bot 123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1",
        "AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1",
    ),
    (
        "OpenAI key sk-proj-AbCdEf0123456789_ghIJklMNopQRstUV-wxYZ",
        "AbCdEf0123456789_ghIJklMNopQRstUV",
    ),
    (
        "Anthropic key sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AA",
        "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
    ),
    ("Stripe sk_live_4eC39HqLyjWDarjtT1zdp7dc", "4eC39HqLyjWDarjtT1zdp7dc"),
    (
        "JWT eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    ),
    (
        "Key:\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU\n-----END OPENSSH PRIVATE KEY-----",
        "b3BlbnNzaC1rZXktdjEAAAAABG5vbmU",
    ),
    ("The database password=Hunter2Secret!", "Hunter2Secret"),
    (
        "Prod DB postgres://ana:s3cretPw77@db.example.com:5432/app",
        "s3cretPw77",
    ),
    ("Cache redis://:r3disPass99@cache:6379/0", "r3disPass99"),
    (
        "Unknown service key Zx9Qm2Lp7Rt4Vw8Ks3Hd6Jf1Nb5Gc0Ya",
        "Zx9Qm2Lp7Rt4Vw8Ks3Hd6Jf1Nb5Gc0Ya",
    ),
];

/// Secrets only an LLM's answer, an edit, core.md, agent state or an import brings.
const LLM_ECHO: &str = "ghp_LLMechoedTOKEN0123456789abcdefghijkl";
const CORE_SECRET: &str = "glpat-C0reSectionT0ken12345";
const EDIT_SECRET: &str = "sk_live_Ed1tedMemoryKey9876543";
const STATE_SECRET: &str = "AKIAJSTATEVALUE12345";
const IMPORT_SECRET: &str = "xoxp-1111111111-2222222222-ImportedSlack";
const LLM_CORE: &str = "AIzaSyLLMcoreUpdate_0123456789abcdefghij";

#[tokio::test]
async fn no_file_of_the_store_holds_a_secret_whatever_path_it_came_by() {
    let f = folder_fixture(ReviewPolicy::Auto).await;
    // One text through the LLM pipeline (split, reconstruct, core update), which echoes a
    // token of its own into a memory and one into core.md.
    f.llm.push(
        "reconstruct",
        json!({"memories": ["My AWS access key is AKIAIOSFODNN7EXAMPLE", format!("Echoed {LLM_ECHO}")], "coverage": "complete"}),
    );
    f.llm.push(
        "core_update",
        json!({"should_update": true, "core_markdown": format!("# SOUL\n\n# TOOLS\n- maps key {LLM_CORE}\n\n# RULE\n\n# USER\n")}),
    );
    let first = f
        .memory
        .add("My AWS access key is AKIAIOSFODNN7EXAMPLE and I like tea.")
        .await
        .unwrap();
    assert!(
        first
            .warnings
            .iter()
            .any(|w| w.contains("secrets were replaced") && w.contains("aws access key")),
        "the receipt says what was replaced: {:?}",
        first.warnings
    );
    assert!(first.warnings.iter().all(|w| !w.contains("AKIAIOSFODNN7EXAMPLE")));
    let stored = f.memory.memory(&first.memory_ids[0]).await.unwrap();
    assert!(
        stored.content.contains("[secret: aws access key]"),
        "{}",
        stored.content
    );
    // Each format as an item of its own.
    let texts: Vec<String> = SECRETS.iter().map(|(t, _)| (*t).to_owned()).collect();
    let outcome = f.memory.add(texts).await.unwrap();
    assert_eq!(outcome.status, AddStatus::Committed, "{outcome:?}");
    // A person's edit, core.md, an agent's state, an import.
    let id = outcome.memory_ids[0].clone();
    f.memory
        .update_memory(&id, &format!("New key {EDIT_SECRET}"))
        .await
        .unwrap();
    f.memory
        .set_core_section(Section::Rule, &format!("- deploy with {CORE_SECRET}"))
        .await
        .unwrap();
    f.memory
        .set_agent_state("planner", "creds", json!({"aws": STATE_SECRET, "list": [STATE_SECRET]}))
        .await
        .unwrap();
    let jsonl = format!(
        "{{\"content\": \"Slack user token {IMPORT_SECRET}\", \"metadata\": {{\"k\": \"{IMPORT_SECRET}\"}}}}\n"
    );
    let imported = f.memory.import_text("notes.jsonl", &jsonl, |_, _| {}).await.unwrap();
    assert_eq!(imported.summary().added, 1);

    let mut needles: Vec<&str> = SECRETS.iter().map(|(_, s)| *s).collect();
    needles.extend([
        LLM_ECHO,
        CORE_SECRET,
        EDIT_SECRET,
        STATE_SECRET,
        IMPORT_SECRET,
        LLM_CORE,
    ]);
    // While the store is open (its -wal holds the newest pages), and after it is closed.
    assert_eq!(files_holding(f.dir.path(), &needles), Vec::<(String, String)>::new());
    let core = f.memory.get_core().await.unwrap();
    assert!(
        core.contains("[secret: gitlab token]") && core.contains("[secret: google api key]"),
        "{core}"
    );
    drop(f.memory);
    assert_eq!(files_holding(f.dir.path(), &needles), Vec::<(String, String)>::new());
}

#[tokio::test]
async fn every_write_path_redacts_on_both_backends() {
    let f = fixture(ReviewPolicy::Auto).await;
    let outcome = f
        .memory
        .add(items(&["token ghp_16C7e42F292c6912E7710c838347Ae178B4a"]))
        .await
        .unwrap();
    let memory = f.memory.memory(&outcome.memory_ids[0]).await.unwrap();
    assert_eq!(memory.content, "token [secret: github token]");
    let changeset = f.memory.changeset(outcome.changeset.unwrap()).await.unwrap();
    let whole = serde_json::to_string(&changeset).unwrap();
    assert!(!whole.contains("ghp_16C7"), "{whole}");
    let state = f
        .memory
        .set_agent_state("a", "k", json!("pwd=Sup3rSecret"))
        .await
        .unwrap();
    assert_eq!(state.value, json!("pwd=[secret: password]"));
    let edited = f
        .memory
        .update_memory(&outcome.memory_ids[0], "key AKIAIOSFODNN7EXAMPLE")
        .await
        .unwrap();
    assert!(
        edited.warnings.iter().any(|w| w.contains("1 aws access key")),
        "{edited:?}"
    );
    let now = f.memory.memory(&edited.memory_ids[0]).await.unwrap();
    assert_eq!(now.content, "key [secret: aws access key]");
}

#[tokio::test]
async fn the_hold_policy_sends_a_secret_to_review_with_the_secret_masked() {
    let dir = store_dir();
    let settings = Settings {
        secrets: haema_core::config::SecretSettings {
            policy: SecretPolicy::Hold,
        },
        ..settings(ReviewPolicy::Auto)
    };
    let memory = Memory::open_with(dir.path(), settings, None, None).await.unwrap();
    let plain = memory.add(items(&["The user likes tea."])).await.unwrap();
    assert_eq!(plain.status, AddStatus::Committed, "no secret, no review");
    let outcome = memory
        .add(items(&["The deploy key is AKIAIOSFODNN7EXAMPLE"]))
        .await
        .unwrap();
    assert_eq!(outcome.status, AddStatus::Pending);
    assert!(
        outcome.warnings.iter().any(|w| w.contains("secrets.policy = hold")),
        "{:?}",
        outcome.warnings
    );
    let changeset = memory.changeset(outcome.changeset.unwrap()).await.unwrap();
    assert_eq!(
        changeset.proposed[0].content,
        "The deploy key is [secret: aws access key]"
    );
    memory.approve(changeset.id).await.unwrap();
    assert!(
        memory
            .get_latest(1, 10)
            .await
            .unwrap()
            .contains(&"The deploy key is [secret: aws access key]".to_owned())
    );
    // An import under `hold`: the item with a secret waits, the rest is committed.
    let imported = memory
        .import_items(
            haema_core::parse_items(
                "\"Ana lives in Lyon.\"\n\"Ana's token ghp_16C7e42F292c6912E7710c838347Ae178B4a\"\n",
            )
            .unwrap(),
            "notes.jsonl",
        )
        .await
        .unwrap();
    assert_eq!((imported.added, imported.held), (1, 1), "{imported:?}");
    let held = memory.changeset(imported.pending.unwrap()).await.unwrap();
    assert_eq!(held.proposed[0].content, "Ana's token [secret: github token]");
}

/// A secret typed into core.md by hand (with the store open, and before it is opened):
/// no prompt sent to the LLM and no recall holds it, and once the edit is recorded (at the
/// next change of core.md, or the next open, which says what was replaced) no version of
/// core.md and not core.md itself keeps it.
#[tokio::test]
async fn a_secret_typed_into_core_md_by_hand_is_replaced_and_never_sent() {
    const HAND: &str = "glpat-HandTyped0Token99887";
    const LATER: &str = "sk_live_HandTypedWhileClosed42";
    let f = folder_fixture(ReviewPolicy::Auto).await;
    let core_path = f.dir.path().join("core.md");
    let core = std::fs::read_to_string(&core_path).unwrap();
    std::fs::write(
        &core_path,
        core.replace("# TOOLS\n", &format!("# TOOLS\n\n- deploy with {HAND}\n")),
    )
    .unwrap();
    // Recall hands core.md to an agent: the secret is not in it.
    let recall = f.memory.recall("deploy", 800).await.unwrap();
    assert!(
        recall.text.contains("[secret: gitlab token]") && !recall.text.contains(HAND),
        "{}",
        recall.text
    );
    let marked = haema_core::mark_core(&f.memory.get_core().await.unwrap());
    assert!(
        marked.content.contains("[secret: gitlab token]") && marked.sanitized,
        "{marked:?}"
    );
    // An add sends core.md and the related memories to the LLM.
    f.llm.push(
        "reconstruct",
        json!({"memories": ["Ana deploys on Fridays."], "coverage": "complete"}),
    );
    f.llm.push("core_update", json!({"should_update": false}));
    f.memory.add("Ana deploys on Fridays.").await.unwrap();
    let calls = f.llm.calls();
    assert!(!calls.is_empty());
    for call in &calls {
        assert!(!call.user.contains(HAND), "{}: {}", call.name, call.user);
    }
    assert!(
        calls.iter().any(|c| c.user.contains("[secret: gitlab token]")),
        "{calls:?}"
    );
    // The next change of core.md records the hand edit, its secret replaced, in core.md too.
    f.memory.set_core_section(Section::Soul, "Be brief.").await.unwrap();
    assert_eq!(files_holding(f.dir.path(), &[HAND]), Vec::<(String, String)>::new());
    let core = std::fs::read_to_string(&core_path).unwrap();
    assert!(core.contains("- deploy with [secret: gitlab token]"), "{core}");

    // An edit made while no one has the store open: the next open replaces it and says so.
    drop(f.memory);
    std::fs::write(
        &core_path,
        core.replace("# USER\n", &format!("# USER\n\nStripe: {LATER}\n")),
    )
    .unwrap();
    let memory = Memory::open_with(
        f.dir.path(),
        settings(ReviewPolicy::Auto),
        None,
        Some(f.embedder.clone()),
    )
    .await
    .unwrap();
    let notes = memory.open_notes();
    assert!(
        notes
            .iter()
            .any(|n| n.contains("core.md was edited outside haema") && n.contains("1 stripe key")),
        "{notes:?}"
    );
    assert!(notes.iter().all(|n| !n.contains(LATER)), "{notes:?}");
    assert_eq!(
        files_holding(f.dir.path(), &[HAND, LATER]),
        Vec::<(String, String)>::new()
    );
    let versions = memory.core_versions().await.unwrap();
    assert!(versions.iter().all(|v| !v.content.contains(LATER)));
}

/// Names (ids, state keys) are matched and shown as they are: one holding a credential is
/// refused with the reason; metadata keys are free text and are redacted like values.
#[tokio::test]
async fn a_secret_in_a_name_is_refused_and_in_a_metadata_key_replaced() {
    let f = fixture(ReviewPolicy::Auto).await;
    let token = "ghp_16C7e42F292c6912E7710c838347Ae178B4a";
    let refused = f
        .memory
        .add_with(
            items(&["Ana likes tea."]),
            haema_core::MemoryAttributes {
                agent_id: Some(token.to_owned()),
                ..Default::default()
            },
        )
        .await
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains("`agent_id` holds what looks like a secret (github token)"),
        "{refused}"
    );
    assert!(!refused.contains(token), "{refused}");
    let key = f
        .memory
        .set_agent_state("planner", token, json!(1))
        .await
        .unwrap_err()
        .to_string();
    assert!(key.contains("the state key holds what looks like a secret"), "{key}");
    let agent = f
        .memory
        .set_agent_state(token, "k", json!(1))
        .await
        .unwrap_err()
        .to_string();
    assert!(agent.contains("the agent id holds what looks like a secret"), "{agent}");
    // A random-looking session id is a name, not a secret.
    let session = "sess_9fQ2xL7mRt4Vw8Ks3Hd6Jf1Nb5Gc0YaPz";
    let kept = f
        .memory
        .add_with(
            items(&["Ana likes green tea."]),
            haema_core::MemoryAttributes {
                session_id: Some(session.to_owned()),
                metadata: [(format!("key {token}"), json!("v"))].into_iter().collect(),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    let stored = f.memory.memory(&kept.memory_ids[0]).await.unwrap();
    assert_eq!(stored.attributes.session_id.as_deref(), Some(session));
    let keys: Vec<&String> = stored.attributes.metadata.keys().collect();
    assert_eq!(keys, ["key [secret: github token]"]);
    // An edit of the attributes is screened like an add, and changes nothing when refused.
    let edited = f
        .memory
        .update_attributes(
            &kept.memory_ids[0],
            haema_core::MemoryAttributes {
                user_id: Some(token.to_owned()),
                ..stored.attributes.clone()
            },
        )
        .await
        .unwrap_err()
        .to_string();
    assert!(
        edited.contains("`user_id` holds what looks like a secret (github token)"),
        "{edited}"
    );
    let after = f.memory.memory(&kept.memory_ids[0]).await.unwrap();
    assert_eq!(after.attributes, stored.attributes);
}
