//! API keys through a real Secret Service: saved, read back by the settings as every front
//! end reads them, beaten by the environment, deleted; and never written to the store.
//!
//! Runs when `HAEMA_TEST_KEYRING=1`: `.ci/run` sets it inside `dbus-run-session` with
//! `gnome-keyring-daemon` unlocked (see `tools/with-keyring.sh`). Elsewhere it says why it
//! did not run.
#![cfg(feature = "keyring")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use haema_core::config::ProviderKind;
use haema_core::keys::{KeyStore, SystemKeyring, account_for};
use haema_core::{Memory, Settings};

fn keyring_here() -> bool {
    if std::env::var("HAEMA_TEST_KEYRING").as_deref() == Ok("1") {
        return true;
    }
    eprintln!("SKIPPED: no Secret Service for this test; run it through tools/with-keyring.sh (HAEMA_TEST_KEYRING=1)");
    false
}

fn every_file_under(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(every_file_under(&path));
        } else {
            out.push(path);
        }
    }
    out
}

#[tokio::test]
async fn a_saved_key_is_read_by_the_settings_and_nowhere_on_disk() {
    if !keyring_here() {
        return;
    }
    let store = tempfile::tempdir().unwrap();
    let base = format!("http://127.0.0.1:9/v1/keyring-test-{}", std::process::id());
    let account = account_for(ProviderKind::Openai, Some(&base));
    let key = format!("sk-planted-{}-abcdefghijkl", std::process::id());
    let keyring = SystemKeyring;
    keyring.set(&account, &key).unwrap();
    assert_eq!(keyring.get(&account).unwrap().as_deref(), Some(key.as_str()));

    Settings::write_setting(store.path(), "llm.provider", Some("openai")).unwrap();
    Settings::write_setting(store.path(), "llm.base_url", Some(&base)).unwrap();
    let settings = Settings::load_with_keys(store.path(), None, |_| None, &keyring).unwrap();
    assert_eq!(settings.llm.api_key.as_deref(), Some(key.as_str()));
    let lines = Settings::explain_with_keys(store.path(), None, |_| None, &keyring).unwrap();
    let shown = lines.iter().find(|l| l.key == "llm.api_key").unwrap();
    assert_eq!(shown.source, haema_core::config::Source::Keyring);
    assert!(
        !shown.value.contains(&key) && shown.value.ends_with("ijkl"),
        "{}",
        shown.value
    );

    let env = |name: &str| (name == "HAEMA_LLM_API_KEY").then(|| "sk-from-the-environment".to_owned());
    let settings = Settings::load_with_keys(store.path(), None, env, &keyring).unwrap();
    assert_eq!(settings.llm.api_key.as_deref(), Some("sk-from-the-environment"));

    // The store opened with the key, used and closed: the key is in none of its files.
    let memory = Memory::open(store.path(), Settings::default()).await.unwrap();
    memory.add(vec!["The user keeps bees.".into()]).await.unwrap();
    drop(memory);
    for file in every_file_under(store.path()) {
        let bytes = std::fs::read(&file).unwrap();
        assert!(
            !bytes.windows(key.len()).any(|w| w == key.as_bytes()),
            "the key is in {}",
            file.display()
        );
    }

    assert!(keyring.delete(&account).unwrap());
    assert_eq!(keyring.get(&account).unwrap(), None);
    assert!(!keyring.delete(&account).unwrap());
}
