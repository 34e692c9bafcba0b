//! `haema pg password` through the real binary, a real Secret Service and a real server: a
//! wrong password is refused and not kept; a right one is kept in the keyring, and a store
//! URL without a password then opens; removing it works. Needs the PostgreSQL test server
//! (`HAEMA_TEST_PG_URL`) and the keyring session of tools/with-keyring.sh
//! (`HAEMA_TEST_KEYRING=1`); `.ci/run` gives both. Elsewhere it says why it did not run.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use common::*;

#[test]
fn a_postgres_password_kept_in_the_keyring_opens_the_store() {
    let (Ok(url), Ok("1")) = (
        std::env::var("HAEMA_TEST_PG_URL"),
        std::env::var("HAEMA_TEST_KEYRING").as_deref(),
    ) else {
        eprintln!("SKIPPED: needs HAEMA_TEST_PG_URL and HAEMA_TEST_KEYRING=1 (.ci/run gives both)");
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let mut env: Vec<(&str, String)> = vec![("HOME", home.path().display().to_string())];
    for name in ["DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"] {
        if let Ok(value) = std::env::var(name) {
            env.push((name, value));
        }
    }
    let bare = url.replacen(":haema-test@", "@", 1);
    assert_ne!(bare, url, "the test server's URL has a password: {url}");
    let run = |args: &[&str], stdin: Option<&str>| {
        haema(std::path::Path::new("/nonexistent-unused"), &refs(&env), args, stdin)
    };
    let wrong = run(&["pg", "password", &bare], Some("not-it\n"));
    assert!(!wrong.status.success());
    assert!(stderr(&wrong).contains("password"), "{}", stderr(&wrong));

    let store = std::path::PathBuf::from(format!("{bare}?schema=kept_{}", std::process::id()));
    let before = haema(&store, &refs(&env), &["status"], None);
    assert!(!before.status.success(), "without a password the store does not open");

    ok(&run(&["pg", "password", &bare], Some("haema-test\n")));
    ok(&haema(
        &store,
        &refs(&env),
        &["add", "--items", "Opened with the keyring's password"],
        None,
    ));
    let latest = contents(&json_of(&haema(&store, &refs(&env), &["latest", "--json"], None)));
    assert_eq!(latest, ["Opened with the keyring's password"]);
    let removed = ok(&run(&["pg", "password", &bare, "--remove"], None));
    assert!(removed.contains("removed"), "{removed}");
    assert!(!haema(&store, &refs(&env), &["status"], None).status.success());
}
