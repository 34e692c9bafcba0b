//! Running the real `haema` binary in tests.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

pub mod mcp;
pub mod mcp_http;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

#[allow(unused_imports, reason = "each test binary uses what it needs of this module")]
pub use haema_tests::openai_env;
use serde_json::Value;

/// Runs `haema --store DIR ARGS` with only the given environment. Tests never reach the
/// Hugging Face Hub: `HF_HUB_OFFLINE=1` unless the environment names a Hub (`HF_ENDPOINT`) or
/// says otherwise.
pub fn haema(store: &Path, env: &[(&str, &str)], args: &[&str], stdin: Option<&str>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_haema"));
    cmd.env_clear();
    if !env.iter().any(|(k, _)| *k == "HF_ENDPOINT" || *k == "HF_HUB_OFFLINE") {
        cmd.env("HF_HUB_OFFLINE", "1");
    }
    cmd.arg("--store").arg(store).args(args).envs(env.iter().copied());
    cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.unwrap_or("").as_bytes()).unwrap();
    drop(input);
    child.wait_with_output().unwrap()
}

pub fn ok(output: &Output) -> String {
    assert!(
        output.status.success(),
        "exit {:?}\nstdout: {}\nstderr: {}",
        output.status.code(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).unwrap()
}

pub fn json_of(output: &Output) -> Value {
    serde_json::from_str(&ok(output)).unwrap()
}

/// The `content` of every row of a JSON array.
pub fn contents(rows: &Value) -> Vec<String> {
    rows.as_array()
        .unwrap()
        .iter()
        .map(|r| r["content"].as_str().unwrap().to_owned())
        .collect()
}

/// The line of setting `key` in `haema config --json`'s report.
pub fn setting_line(report: &Value, key: &str) -> Value {
    report["settings"]
        .as_array()
        .and_then(|lines| lines.iter().find(|l| l["key"] == key))
        .cloned()
        .expect("`haema config --json` lists every setting")
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

pub fn refs<'a>(env: &'a [(&'static str, String)]) -> Vec<(&'static str, &'a str)> {
    env.iter().map(|(k, v)| (*k, v.as_str())).collect()
}

/// A machine of a shared PostgreSQL store: its own home, data and configuration folders,
/// and the test server's password, as environment variables.
pub fn machine(root: &Path, name: &str) -> Vec<(&'static str, String)> {
    let home = root.join(name);
    vec![
        ("HOME", home.display().to_string()),
        ("XDG_DATA_HOME", home.join("data").display().to_string()),
        ("XDG_CONFIG_HOME", home.join("config").display().to_string()),
        ("PGPASSWORD", "haema-test".to_owned()),
    ]
}

/// `env` borrowed, with `more` variables after it.
pub fn with<'a>(env: &'a [(&'static str, String)], more: &[(&'static str, &'a str)]) -> Vec<(&'static str, &'a str)> {
    let mut all: Vec<(&'static str, &'a str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    all.extend_from_slice(more);
    all
}
