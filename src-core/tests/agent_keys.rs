//! Agent keys on a real store (SQLite, or PostgreSQL when `HAEMA_TEST_POSTGRES` is set): made
//! once and shown once, kept only as a hash, checked, rotated, revoked and listed with when
//! each was last used; bad names, users and expiries refused in words.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use common::*;
use haema_core::{AgentAccess, ErrorKind, KeyCheck, ReviewPolicy};

fn valid(check: KeyCheck) -> haema_core::AgentKey {
    match check {
        KeyCheck::Valid(agent) => agent,
        other => panic!("expected a valid key, got {other:?}"),
    }
}

#[tokio::test]
async fn a_key_is_shown_once_checked_and_listed_without_its_secret() {
    let f = fixture_without_llm(ReviewPolicy::Guarded).await;
    let m = &f.memory;
    let made = m
        .create_agent_key("claude-laptop", AgentAccess::Propose, None, Some("30d"))
        .await
        .unwrap();
    assert!(made.key.starts_with(haema_core::AGENT_KEY_PREFIX), "{}", made.key);
    assert_eq!(made.key.len(), haema_core::AGENT_KEY_PREFIX.len() + 40);
    assert_eq!(made.agent.access, AgentAccess::Propose);
    assert!(made.agent.expires_at_ms.unwrap() > made.agent.created_at_ms);

    let agent = valid(m.check_agent_key(&format!("  {}\n", made.key)).await.unwrap());
    assert_eq!(agent.name, "claude-laptop");
    assert!(agent.last_used_ms.is_some(), "a use is recorded");

    let listed = m.agent_keys().await.unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].name, "claude-laptop");
    assert!(listed[0].last_used_ms.is_some(), "the list shows when it was last used");
    let json = serde_json::to_string(&listed).unwrap();
    assert!(
        !json.contains(&made.key[9..]),
        "a listed key never holds its secret: {json}"
    );

    for wrong in ["", "haema_ak_", "Bearer", &made.key[..made.key.len() - 1], "sk-abc"] {
        assert_eq!(m.check_agent_key(wrong).await.unwrap(), KeyCheck::Unknown, "{wrong:?}");
    }
}

#[tokio::test]
async fn the_store_keeps_only_a_hash_of_the_key() {
    let f = folder_fixture_without_llm(ReviewPolicy::Guarded).await;
    let made = f
        .memory
        .create_agent_key("ci-bot", AgentAccess::Read, None, None)
        .await
        .unwrap();
    f.memory.check_agent_key(&made.key).await.unwrap();
    drop(f.memory);
    for entry in std::fs::read_dir(f.dir.path()).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            let bytes = std::fs::read(&path).unwrap();
            let random = &made.key.as_bytes()[9..];
            assert!(
                !bytes.windows(random.len()).any(|w| w == random),
                "{} holds the key",
                path.display()
            );
        }
    }
}

#[tokio::test]
async fn rotating_ends_the_old_key_and_revoking_ends_the_key_but_keeps_it_listed() {
    let f = fixture_without_llm(ReviewPolicy::Guarded).await;
    let m = &f.memory;
    let first = m
        .create_agent_key("planner", AgentAccess::Write, Some("alice"), None)
        .await
        .unwrap();
    let second = m.rotate_agent_key("planner").await.unwrap();
    assert_ne!(first.key, second.key);
    assert_eq!(m.check_agent_key(&first.key).await.unwrap(), KeyCheck::Unknown);
    let agent = valid(m.check_agent_key(&second.key).await.unwrap());
    assert_eq!(
        (agent.access, agent.user_id.as_deref()),
        (AgentAccess::Write, Some("alice")),
        "access and user stay"
    );

    let revoked = m.revoke_agent_key("planner").await.unwrap();
    assert!(revoked.revoked_at_ms.is_some());
    assert_eq!(
        m.check_agent_key(&second.key).await.unwrap(),
        KeyCheck::Revoked("planner".into())
    );
    let again = m.revoke_agent_key("planner").await.unwrap();
    assert_eq!(
        again.revoked_at_ms, revoked.revoked_at_ms,
        "revoking twice changes nothing"
    );
    assert_eq!(m.agent_keys().await.unwrap().len(), 1, "a revoked key stays listed");

    let rotate = m.rotate_agent_key("planner").await.unwrap_err();
    assert_eq!(rotate.kind(), ErrorKind::InvalidState);
    assert!(rotate.to_string().contains("revoked"), "{rotate}");
    let reuse = m
        .create_agent_key("planner", AgentAccess::Read, None, None)
        .await
        .unwrap_err();
    assert!(reuse.to_string().contains("exists already"), "{reuse}");
    let missing = m.revoke_agent_key("nobody").await.unwrap_err();
    assert_eq!(missing.kind(), ErrorKind::NotFound);
    assert!(missing.to_string().contains("agent key named nobody"), "{missing}");
}

#[tokio::test]
async fn bad_names_users_and_expiries_are_refused_in_words() {
    let f = fixture_without_llm(ReviewPolicy::Guarded).await;
    let m = &f.memory;
    let cases: [(&str, Option<&str>, Option<&str>, &str); 5] = [
        ("two words", None, None, "holds ' '"),
        ("", None, None, "1 to 64 characters"),
        ("bot", Some(" "), None, "user is empty"),
        ("bot", None, Some("2001-01-01"), "already past"),
        ("bot", None, Some("next tuesday"), "no date or span"),
    ];
    for (name, user, expires, said) in cases {
        let error = m
            .create_agent_key(name, AgentAccess::Read, user, expires)
            .await
            .unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidArgument, "{error}");
        assert!(error.to_string().contains(said), "{error} should say {said:?}");
    }
    let token = m
        .create_agent_key(
            "bot",
            AgentAccess::Read,
            Some("ghp_16C7e42F292c6912E7710c838347Ae178B4a"),
            None,
        )
        .await
        .unwrap_err();
    assert!(token.to_string().contains("secret"), "{token}");
    assert!(m.agent_keys().await.unwrap().is_empty(), "nothing refused was stored");
}

#[tokio::test]
async fn a_handle_working_for_a_user_binds_its_keys_to_that_user() {
    let f = fixture_without_llm(ReviewPolicy::Guarded).await;
    let alice = f.memory.for_user("alice").unwrap();
    let made = alice
        .create_agent_key("alice-phone", AgentAccess::Propose, None, None)
        .await
        .unwrap();
    assert_eq!(made.agent.user_id.as_deref(), Some("alice"));
    let other = alice
        .create_agent_key("bob-phone", AgentAccess::Propose, Some("bob"), None)
        .await
        .unwrap_err();
    assert!(other.to_string().contains("bound to alice, not bob"), "{other}");
}

#[tokio::test]
async fn a_key_pasted_into_a_memory_is_replaced_before_it_is_stored() {
    let f = fixture_without_llm(ReviewPolicy::Auto).await;
    let made = f
        .memory
        .create_agent_key("pasted", AgentAccess::Read, None, None)
        .await
        .unwrap();
    f.memory
        .add(items(&[&format!("The MCP key for the laptop is {}", made.key)]))
        .await
        .unwrap();
    let stored = latest(&f.memory).await;
    assert_eq!(stored, ["The MCP key for the laptop is [secret: haema agent key]"]);
}
