//! `haema agent-key` through the real binary: a key printed once, listed without it,
//! rotated, revoked, bound with --user (also in a per_user store, where the command needs
//! no user), and bad input told in words with exit 2 or 1.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use common::*;

#[test]
fn agent_keys_are_made_listed_rotated_and_revoked() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s");
    let made = ok(&haema(
        &store,
        &[],
        &[
            "agent-key",
            "create",
            "claude-laptop",
            "--access",
            "propose",
            "--expires",
            "30d",
        ],
        None,
    ));
    let key = made
        .split_whitespace()
        .find(|w| w.starts_with("haema_ak_"))
        .unwrap_or_else(|| panic!("no key printed: {made}"))
        .to_owned();
    assert!(made.contains("cannot show it again"), "{made}");
    assert!(made.contains("propose access, any user, active, expires"), "{made}");

    let bound = json_of(&haema(
        &store,
        &[],
        &[
            "--user",
            "alice",
            "agent-key",
            "create",
            "alice-bot",
            "--access",
            "read",
            "--json",
        ],
        None,
    ));
    assert_eq!(bound["agent"]["user_id"], "alice");
    assert!(bound["key"].as_str().unwrap().starts_with("haema_ak_"));

    let listed = ok(&haema(&store, &[], &["agent-key", "list"], None));
    assert!(
        listed.contains("claude-laptop") && listed.contains("alice-bot"),
        "{listed}"
    );
    assert!(listed.contains("never"), "never used yet: {listed}");
    assert!(!listed.contains(&key), "the list never shows a key: {listed}");
    let json = ok(&haema(&store, &[], &["agent-key", "list", "--json"], None));
    assert!(!json.contains(&key[9..]), "{json}");

    let rotated = ok(&haema(&store, &[], &["agent-key", "rotate", "claude-laptop"], None));
    assert!(rotated.contains("old key no longer works"), "{rotated}");
    assert!(!rotated.contains(&key), "{rotated}");

    let revoked = ok(&haema(&store, &[], &["agent-key", "revoke", "claude-laptop"], None));
    assert!(revoked.contains("is revoked"), "{revoked}");
    let listed = ok(&haema(&store, &[], &["agent-key", "list"], None));
    assert!(listed.contains("revoked"), "a revoked key stays listed: {listed}");

    let again = haema(&store, &[], &["agent-key", "rotate", "claude-laptop"], None);
    assert_eq!(again.status.code(), Some(1), "{}", stderr(&again));
    assert!(stderr(&again).contains("revoked"), "{}", stderr(&again));
    let missing = haema(&store, &[], &["agent-key", "revoke", "nobody"], None);
    assert!(
        stderr(&missing).contains("agent key named nobody"),
        "{}",
        stderr(&missing)
    );
    let access = haema(&store, &[], &["agent-key", "create", "x", "--access", "admin"], None);
    assert_eq!(access.status.code(), Some(2), "{}", stderr(&access));
    assert!(stderr(&access).contains("read, propose, write"), "{}", stderr(&access));
    let expiry = haema(
        &store,
        &[],
        &["agent-key", "create", "x", "--access", "read", "--expires", "soon"],
        None,
    );
    assert!(stderr(&expiry).contains("2027-01-31, 30d"), "{}", stderr(&expiry));
}

#[test]
fn a_per_user_store_manages_keys_without_a_user_and_binds_with_one() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("team");
    std::fs::create_dir_all(&store).unwrap();
    std::fs::write(
        store.join("haema.toml"),
        "scope = \"per_user\"\n[embedder]\nprovider = \"none\"\n",
    )
    .unwrap();
    let env = [];
    ok(&haema(
        &store,
        &env,
        &["--user", "bob", "agent-key", "create", "bob-bot", "--access", "write"],
        None,
    ));
    let listed = json_of(&haema(&store, &env, &["agent-key", "list", "--json"], None));
    assert_eq!(listed[0]["name"], "bob-bot");
    assert_eq!(listed[0]["user_id"], "bob");
    // Ann revokes Bob's agent: it is revoked, and she is told why its changes are not hers
    // to see, not an error after the fact.
    let said = ok(&haema(
        &store,
        &env,
        &["--user", "ann", "agent-key", "revoke", "bob-bot"],
        None,
    ));
    assert!(said.contains("no longer works"), "{said}");
    assert!(said.contains("works for user `bob`, not `ann`"), "{said}");
}
