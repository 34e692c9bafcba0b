//! Which store the real binary opens when it is told none: `--store` wins, then
//! `HAEMA_STORE`, then `store` in the user's `config.toml` (a name, a full path or a
//! PostgreSQL URL), then the default store; a wrong `store` line is told with the file's
//! name, and nothing is written anywhere else.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use common::{ok, stderr};

/// A machine of its own: home, configuration and data folders.
struct Machine {
    root: tempfile::TempDir,
}

impl Machine {
    fn new() -> Self {
        Self {
            root: tempfile::tempdir().unwrap(),
        }
    }

    fn data(&self) -> PathBuf {
        self.root.path().join("data/haema")
    }

    fn write_config(&self, text: &str) {
        let dir = self.root.path().join("config/haema");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("config.toml"), text).unwrap();
    }

    /// The binary with this machine's folders and `env`, and no `--store` unless `args`
    /// has one.
    fn run(&self, env: &[(&str, &str)], args: &[&str]) -> Output {
        let root = self.root.path();
        Command::new(env!("CARGO_BIN_EXE_haema"))
            .env_clear()
            .env("HOME", root)
            .env("XDG_CONFIG_HOME", root.join("config"))
            .env("XDG_DATA_HOME", root.join("data"))
            .env("HF_HUB_OFFLINE", "1")
            .envs(env.iter().copied())
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap()
    }

    fn add(&self, env: &[(&str, &str)], extra: &[&str], text: &str) {
        let mut args = extra.to_vec();
        args.extend(["add", "--items", text]);
        ok(&self.run(env, &args));
    }
}

fn has_memory(dir: &Path) -> bool {
    dir.join("memory.db").is_file()
}

#[test]
fn without_a_config_the_default_store_is_used() {
    let machine = Machine::new();
    machine.add(&[], &[], "Lands in the default store");
    assert!(has_memory(&machine.data().join("default")));
}

#[test]
fn config_store_names_the_store_and_the_variable_and_flag_win() {
    let machine = Machine::new();
    machine.write_config("store = \"work\"\n\n[tui]\nmouse = false\n");
    machine.add(&[], &[], "Lands in work");
    let work = machine.data().join("work");
    assert!(has_memory(&work) && !machine.data().join("default").exists());
    let status = ok(&machine.run(&[], &["status"]));
    assert!(status.contains(&work.display().to_string()), "{status}");

    let elsewhere = machine.root.path().join("elsewhere");
    machine.add(
        &[("HAEMA_STORE", elsewhere.to_str().unwrap())],
        &[],
        "Lands where HAEMA_STORE says",
    );
    assert!(has_memory(&elsewhere));
    let flagged = machine.root.path().join("flagged");
    machine.add(
        &[("HAEMA_STORE", elsewhere.to_str().unwrap())],
        &["--store", flagged.to_str().unwrap()],
        "Lands where --store says",
    );
    assert!(has_memory(&flagged));

    let absolute = machine.root.path().join("team memory");
    machine.write_config(&format!("store = {:?}\n", absolute.display().to_string()));
    machine.add(&[], &[], "Lands in a full path");
    let latest = ok(&machine.run(&[], &["latest"]));
    assert!(
        latest.contains("Lands in a full path") && !latest.contains("Lands in work"),
        "{latest}"
    );
    assert!(has_memory(&absolute));
}

#[test]
fn a_wrong_store_line_is_told_with_the_file_and_writes_nothing() {
    let machine = Machine::new();
    machine.write_config("store = \"a/b\"\n");
    let refused = machine.run(&[], &["add", "--items", "Nowhere"]);
    assert!(!refused.status.success());
    let message = stderr(&refused);
    assert!(message.contains("config.toml") && message.contains("a/b"), "{message}");
    assert!(!machine.data().exists(), "nothing was made");

    machine.write_config("store = 3\n");
    let message = stderr(&machine.run(&[], &["status"]));
    assert!(
        message.contains("config.toml") && message.contains("store"),
        "{message}"
    );

    machine.write_config("stores = \"work\"\n");
    let message = stderr(&machine.run(&[], &["status"]));
    assert!(
        message.contains("stores") && message.contains("config.toml"),
        "{message}"
    );
}

#[test]
fn store_cannot_be_written_into_a_stores_own_settings() {
    let machine = Machine::new();
    let dir = machine.root.path().join("s");
    let refused = machine.run(
        &[],
        &["--store", dir.to_str().unwrap(), "config", "set", "store", "work"],
    );
    assert!(!refused.status.success());
    assert!(stderr(&refused).contains("config.toml"), "{}", stderr(&refused));
}

#[test]
fn a_postgres_url_in_the_config_opens_the_shared_store() {
    let Ok(url) = std::env::var("HAEMA_TEST_PG_URL") else {
        eprintln!("SKIPPED: needs HAEMA_TEST_PG_URL (the PostgreSQL test server .ci/run starts)");
        return;
    };
    let bare = url.replacen(":haema-test@", "@", 1);
    let schema = format!("config_{}", std::process::id());
    let separator = if bare.contains('?') { '&' } else { '?' };
    let machine = Machine::new();
    machine.write_config(&format!("store = \"{bare}{separator}schema={schema}\"\n"));
    let password = [("PGPASSWORD", "haema-test")];
    machine.add(&password, &[], "Shared through config.toml");
    let status = ok(&machine.run(&password, &["status"]));
    assert!(status.contains("postgres://") && status.contains(&schema), "{status}");
    assert!(!status.contains("haema-test"), "no password shown: {status}");
    let link = std::fs::read_dir(machine.data())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.join("postgres.url").is_file())
        .expect("a link folder");
    assert!(
        !std::fs::read_to_string(link.join("postgres.url"))
            .unwrap()
            .contains("haema-test")
    );
}
