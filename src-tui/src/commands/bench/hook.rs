//! The hook figures: `haema hook claude-code` run as Claude Code runs it, a new process
//! for every event with its JSON on standard input, process start included.
//!
//! - `hook_recall`, warm: this bench process holds the store (and its model) open and
//!   answers through the store's recall socket, as `haema mcp`, the TUI or the desktop do;
//! - `hook_recall`, cold: no one holds the store; the hook opens it and loads the model
//!   (with `--embedder local` only: a synthetic store's vectors are no model's);
//! - `hook_capture`: a Stop event over a 500-turn transcript, which must return at once
//!   and capture in the background (no LLM here: the words wait for one, as they would).

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde_json::json;

use super::measure::Row;
use super::workload::Source;
use crate::cli::BenchEmbedder;

/// Hook processes per recall figure (the first is a warm-up).
const RECALLS: usize = 21;
/// Stop events per capture figure.
const CAPTURES: usize = 5;
/// Turns of the captured transcript.
const TURNS: usize = 500;

/// Every hook figure of the store of `n` memories in `dir`; `scratch` is a folder for the
/// hook's log and the capture's store and transcript.
pub async fn run(source: &Source, dir: &Path, n: usize, scratch: &Path) -> Result<Vec<Row>> {
    let log = scratch.join("hooks.log");
    let prompts = source.stored_queries(n, RECALLS);
    let mut rows = Vec::new();
    let memory = source.open(dir).await?;
    let serving = haema_core::recall_socket::Serving::spawn(move || Some(memory.clone()));
    wait_for_socket(dir, true).await?;
    let warm = recalls(dir, &prompts, &log).await?;
    let pid = std::process::id();
    if warm
        .sources
        .iter()
        .any(|s| *s != format!("by process {pid}, which holds the store"))
    {
        bail!("a warm hook did not reach this bench's process: {:?}", warm.sources);
    }
    rows.push(
        Row::new("hook_recall", n)
            .with("path", "warm")
            .with("held_by", "the bench process")
            .with("embedder", source.label())
            .timings(&warm.samples),
    );
    drop(serving);
    wait_for_socket(dir, false).await?;
    if source.kind == BenchEmbedder::Local {
        let cold = recalls(dir, &prompts, &log).await?;
        rows.push(
            Row::new("hook_recall", n)
                .with("path", "cold")
                .with("embedder", source.label())
                .timings(&cold.samples),
        );
    } else {
        rows.push(Row::new("hook_recall", n).with("path", "cold").with(
            "skipped",
            "needs --embedder local: a cold hook loads the store's real model",
        ));
    }
    rows.push(capture(scratch, &log).await?);
    Ok(rows)
}

/// Waits until the store's recall socket answers (`up`) or is gone.
async fn wait_for_socket(dir: &Path, up: bool) -> Result<()> {
    let path = haema_core::recall_socket::socket_path(dir).context("the store's folder has no socket path")?;
    for _ in 0..500 {
        if std::os::unix::net::UnixStream::connect(&path).is_ok() == up {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    bail!(
        "the recall socket {} did not {}",
        path.display(),
        if up { "open" } else { "close" }
    )
}

struct Recalls {
    samples: Vec<f64>,
    /// How each was answered, as the hook's log says.
    sources: Vec<String>,
}

/// Runs a UserPromptSubmit hook per prompt (the first untimed).
async fn recalls(dir: &Path, prompts: &[String], log: &Path) -> Result<Recalls> {
    let mut samples = Vec::new();
    let before = read_lines(log).len();
    for (k, prompt) in prompts.iter().enumerate() {
        let event = json!({
            "session_id": "bench", "transcript_path": "/nonexistent", "cwd": dir,
            "hook_event_name": "UserPromptSubmit", "prompt": prompt,
        });
        let (ms, stdout) = hook(dir, &event, log).await?;
        if !stdout.contains("additionalContext") {
            bail!(
                "the hook recalled nothing for {prompt:?}; its log says: {}",
                read_lines(log).last().map_or("nothing", String::as_str)
            );
        }
        if k > 0 {
            samples.push(ms);
        }
    }
    let sources = read_lines(log)[before..]
        .iter()
        .map(|l| l.split_once(" ms, ").map_or(l.as_str(), |(_, how)| how).to_owned())
        .collect();
    Ok(Recalls { samples, sources })
}

/// A Stop event over a transcript of [`TURNS`] turns: how long the hook takes to return,
/// and how long the capture it leaves in the background takes to finish.
async fn capture(scratch: &Path, log: &Path) -> Result<Row> {
    let store = scratch.join("capture-store");
    let mut returned = Vec::new();
    let mut finished = Vec::new();
    for run in 0..CAPTURES {
        let transcript = scratch.join(format!("transcript-{run}.jsonl"));
        std::fs::write(&transcript, transcript_of(TURNS))?;
        let event = json!({
            "session_id": format!("bench-capture-{run}"), "transcript_path": transcript,
            "cwd": scratch, "hook_event_name": "Stop",
        });
        let before = read_lines(log).len();
        let started = Instant::now();
        let (ms, _) = hook(&store, &event, log).await?;
        returned.push(ms);
        // The hook logs once when it has started the capture, once more when it is done.
        while read_lines(log).len() < before + 2 {
            if started.elapsed() > Duration::from_secs(120) {
                bail!(
                    "the background capture did not finish in 2 minutes; the hook's log: {}",
                    log.display()
                );
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        finished.push(started.elapsed().as_secs_f64() * 1000.0);
    }
    let (background, _) = super::measure::percentiles(&finished);
    Ok(Row::new("hook_capture", TURNS)
        .with("returns_in", "p50_ms")
        .with("background_p50_ms", super::measure::round(background))
        .with("llm", "none (the words wait for one)")
        .timings(&returned))
}

/// `haema --store DIR hook claude-code` with `event` on standard input: its time in ms and
/// its standard output.
async fn hook(dir: &Path, event: &serde_json::Value, log: &Path) -> Result<(f64, String)> {
    let exe = std::env::current_exe().context("cannot find the haema executable to start")?;
    let mut command = std::process::Command::new(&exe);
    command
        .arg("--store")
        .arg(dir)
        .args(["hook", "claude-code"])
        .env("HAEMA_HOOK_LOG", log)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null());
    let input = event.to_string();
    let (ms, output) = tokio::task::spawn_blocking(move || -> std::io::Result<(f64, std::process::Output)> {
        use std::io::Write;
        let started = Instant::now();
        let mut child = command.spawn()?;
        child
            .stdin
            .take()
            .map(|mut stdin| stdin.write_all(input.as_bytes()))
            .transpose()?;
        let output = child.wait_with_output()?;
        Ok((started.elapsed().as_secs_f64() * 1000.0, output))
    })
    .await?
    .with_context(|| format!("cannot run {} hook claude-code", exe.display()))?;
    Ok((ms, String::from_utf8_lossy(&output.stdout).into_owned()))
}

fn read_lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// A Claude Code transcript of `turns` prompts and answers, each with a tool call.
fn transcript_of(turns: usize) -> String {
    let mut out = String::new();
    for turn in 0..turns {
        let user = json!({"type": "user", "uuid": format!("u{turn}"), "sessionId": "bench",
            "message": {"role": "user", "content": format!("Turn {turn}: the build of service {turn} should use the blue pipeline and keep {} workers.", turn % 9 + 1)}});
        let assistant = json!({"type": "assistant", "uuid": format!("a{turn}"), "sessionId": "bench",
            "message": {"role": "assistant", "content": [
                {"type": "text", "text": format!("Noted: service {turn} builds on the blue pipeline with {} workers.", turn % 9 + 1)},
                {"type": "tool_use", "id": format!("t{turn}"), "name": "Bash", "input": {"command": "make build"}}]}});
        out.push_str(&format!("{user}\n{assistant}\n"));
    }
    out
}
