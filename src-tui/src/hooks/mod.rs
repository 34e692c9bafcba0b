//! Recall and capture inside other agents: `haema hook claude-code` answers Claude Code's
//! hook events, `haema hooks install|status` puts those hooks into its settings.

mod capture;
mod log;
mod recall;
pub mod settings_file;
pub mod transcript;

use std::io::{Read, Write};
use std::path::PathBuf;

use anyhow::{Context, Result};
use serde::Deserialize;

use crate::cli::{HookCommand, HooksCommand, HooksInstallArgs};

/// The agent id haema's Claude Code hooks write as, and keep their cursors under.
pub const CLAUDE_CODE: &str = "claude-code";

/// The most read of one event on standard input.
const MAX_EVENT_BYTES: u64 = 16 * 1024 * 1024;

/// One hook event as Claude Code sends it (the fields haema reads).
#[derive(Debug, Default, Deserialize)]
pub struct HookEvent {
    #[serde(default)]
    pub session_id: String,
    pub transcript_path: Option<PathBuf>,
    pub cwd: Option<PathBuf>,
    #[serde(default)]
    pub hook_event_name: String,
    pub prompt: Option<String>,
}

/// Where the hook works: the store and user given to `haema` (or its environment).
#[derive(Debug, Clone, Default)]
pub struct Target {
    pub store: Option<PathBuf>,
    pub user: Option<String>,
}

/// `haema hook claude-code`: reads one event and answers it. It never fails and never
/// holds the prompt up: what goes wrong is logged ([`log`]) and the process exits 0 at
/// once, even while a hung provider still runs.
pub async fn run(command: HookCommand, target: Target) -> ! {
    let started = std::time::Instant::now();
    let HookCommand::ClaudeCode(args) = command;
    let mut raw = String::new();
    let read = std::io::stdin().take(MAX_EVENT_BYTES).read_to_string(&mut raw);
    let event: Result<HookEvent> = read
        .context("cannot read the event on standard input")
        .and_then(|_| serde_json::from_str(&raw).context("the event on standard input is not Claude Code's hook JSON"));
    match event {
        Err(e) => log::line("?", "?", &format!("{e:#}")),
        Ok(event) => answer(&event, &raw, &target, args.foreground, started).await,
    }
    let _ = std::io::stdout().flush();
    std::process::exit(0)
}

async fn answer(event: &HookEvent, raw: &str, target: &Target, foreground: bool, started: std::time::Instant) {
    let name = event.hook_event_name.as_str();
    match name {
        "SessionStart" | "UserPromptSubmit" => match recall::answer(event, target, started).await {
            Ok((context, source)) => {
                if let Some(context) = &context {
                    let answer = serde_json::json!({
                        "hookSpecificOutput": {"hookEventName": name, "additionalContext": context}
                    });
                    println!("{answer}");
                }
                let what = if context.is_some() {
                    "recalled"
                } else {
                    "nothing to recall"
                };
                let took = started.elapsed().as_millis();
                match source {
                    recall::Source::Warm(pid) => log::ours(
                        name,
                        &event.session_id,
                        &format!("{what} in {took} ms, by process {pid}, which holds the store"),
                    ),
                    // Why it was cold may quote an error.
                    recall::Source::Cold(why) => {
                        log::line(name, &event.session_id, &format!("{what} in {took} ms, cold ({why})"))
                    }
                }
            }
            Err(e) => log::line(name, &event.session_id, &format!("no recall: {e:#}")),
        },
        "Stop" | "PreCompact" | "SessionEnd" => {
            let done = if foreground {
                capture::run(event, target).await
            } else {
                capture::in_background(raw, target)
            };
            match done {
                // Claude Code waits for this one: haema's own words, unscreened.
                Ok(what) if !foreground => log::ours(name, &event.session_id, &what),
                Ok(what) => log::line(name, &event.session_id, &what),
                Err(e) => log::line(name, &event.session_id, &format!("nothing captured: {e:#}")),
            }
        }
        other => log::line(other, &event.session_id, "not an event haema answers; nothing done"),
    }
}

/// A store's error for the hook's log, with what to do when the store needs a user.
fn with_remedy(e: haema_core::Error) -> anyhow::Error {
    match e {
        haema_core::Error::UserRequired => {
            anyhow::anyhow!("{e}: install the hooks with --user ID (or set HAEMA_USER)")
        }
        e => e.into(),
    }
}

/// `haema hooks install|status`.
pub fn manage(command: HooksCommand, target: &Target) -> Result<()> {
    match command {
        HooksCommand::Install(args) => install(&args, target),
        HooksCommand::Status(args) => status(args.project),
    }
}

fn project_dir(project: Option<PathBuf>) -> Result<PathBuf> {
    match project {
        Some(dir) => Ok(dir),
        None => std::env::current_dir().context("cannot read the current folder: give --project DIR"),
    }
}

fn install(args: &HooksInstallArgs, target: &Target) -> Result<()> {
    let project = project_dir(args.project.clone())?;
    let path = settings_file::path(args.scope, &project)?;
    let settings = settings_file::read(&path)?;
    if args.uninstall {
        let had = settings_file::installed(&settings).len();
        if had == 0 {
            println!("No haema hooks in {}: nothing to remove.", path.display());
            return Ok(());
        }
        settings_file::write(&path, &settings_file::without_hooks(settings)?)?;
        println!(
            "Removed haema's {had} hooks from {}; every other setting is kept.",
            path.display()
        );
        return Ok(());
    }
    let haema = program()?;
    let store = match &target.store {
        Some(store) => Some(crate::store_path::resolve(Some(store.clone()))?),
        None => None,
    };
    let command = settings_file::command(&haema, store.as_deref(), target.user.as_deref());
    let before = settings_file::installed(&settings);
    let after = settings_file::with_hooks(settings, &command)?;
    if before == settings_file::installed(&after) {
        println!("haema's hooks are already in {}: nothing changed.", path.display());
        return Ok(());
    }
    settings_file::write(&path, &after)?;
    println!(
        "haema's hooks are in {} ({}): Claude Code recalls at the start of a session and on each prompt, and captures after each answer.",
        path.display(),
        settings_file::EVENTS.join(", ")
    );
    println!("They run: {command}");
    if args.scope == settings_file::Scope::Project {
        println!(
            "This file is the project's, shared with whoever works on it; for hooks of this machine alone, use --scope local."
        );
    }
    println!("Remove them with `haema hooks install claude-code --uninstall` (same --scope).");
    Ok(())
}

/// This haema as the hooks should run it: `haema` when that is the `haema` the PATH finds
/// (an upgrade in place keeps working, and a shared settings file holds no path of this
/// machine), else its full path.
fn program() -> Result<PathBuf> {
    let this = std::env::current_exe().context("cannot find this haema program's path")?;
    let same = |p: &std::path::Path| std::fs::canonicalize(p).ok() == std::fs::canonicalize(&this).ok();
    let on_path = std::env::var_os("PATH")
        .map(|paths| {
            std::env::split_paths(&paths)
                .map(|dir| dir.join("haema"))
                .any(|p| p.is_file() && same(&p))
        })
        .unwrap_or(false);
    Ok(if on_path { PathBuf::from("haema") } else { this })
}

fn status(project: Option<PathBuf>) -> Result<()> {
    let project = project_dir(project)?;
    let scopes = [
        settings_file::Scope::Project,
        settings_file::Scope::Local,
        settings_file::Scope::User,
    ];
    for scope in scopes {
        let Ok(path) = settings_file::path(scope, &project) else {
            continue;
        };
        let line = match settings_file::read(&path) {
            Err(e) => format!("cannot be read: {e:#}"),
            Ok(settings) => {
                let found = settings_file::installed(&settings);
                if found.is_empty() {
                    "no haema hooks".to_owned()
                } else {
                    let events: Vec<&str> = found.iter().map(|(e, _)| e.as_str()).collect();
                    format!("haema hooks on {} — {}", events.join(", "), found[0].1)
                }
            }
        };
        println!("{:<8} {}: {line}", format!("{scope:?}").to_lowercase(), path.display());
    }
    match log::path() {
        Some(path) => println!("log      {}", path.display()),
        None => println!("log      none (no home folder; set HAEMA_HOOK_LOG)"),
    }
    Ok(())
}
