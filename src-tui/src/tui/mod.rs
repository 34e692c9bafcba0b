//! The terminal UI that `haema` opens without a subcommand.
//!
//! Module map: [`app`] is the state machine (events and results in, effects out; no I/O),
//! [`views`] draws it, [`worker`] performs effects on `haema-core`, [`input`] reads the
//! terminal on its own thread, [`watch`] notices other writers, [`terminal`] owns raw
//! mode and the alternate screen, [`keymap`] and [`action`] hold the bindings. Each view
//! is an [`app::Pane`] with a [`views::Render`] half.

pub mod action;
pub mod app;
pub mod clock;
mod editor;
pub mod highlight;
mod input;
pub mod keymap;
mod terminal;
pub mod theme;
pub mod views;
mod watch;
mod worker;

use std::path::PathBuf;
use std::sync::{Arc, PoisonError, RwLock};
use std::time::Instant;

use anyhow::Result;
use haema_core::{LexicalReason, Memory, OpenOptions, OpenProgress, Settings};
use tokio::sync::mpsc;

use app::{App, Effect, Event, Msg};
use views::Ui;

/// What reaches the event loop.
pub enum Incoming {
    /// From the terminal.
    Event(Event),
    /// A result.
    Msg(Msg),
    /// A store opened for a switch (or why it could not be).
    Opened(PathBuf, Result<Memory, String>),
    /// The same store opened again with its embedding model ready (or why it is not).
    Upgraded(Result<Memory, String>),
}

/// Runs the TUI on an open store until the user quits.
pub async fn run(memory: Memory) -> Result<()> {
    let settings: Settings = memory.settings().clone();
    let keymap = keymap::Keymap::from_settings(&settings.tui).map_err(crate::UsageError)?;
    let ui = Ui {
        theme: theme::Theme::from_env(),
        clock: clock::Clock::Local,
        highlighter: highlight::Highlighter::start(),
    };
    let mut screen = terminal::Screen::enter(settings.tui.mouse)?;
    let (tx, mut rx) = mpsc::unbounded_channel::<Incoming>();
    let input = input::Input::spawn(tx.clone());
    let mut watcher = watch::Watcher::start(&memory, tx.clone());
    let mut memory = memory;
    // Claude Code's hooks are answered warm, with the model this TUI holds.
    let held = Arc::new(RwLock::new(memory.clone()));
    let _recalls = haema_core::recall_socket::Serving::spawn({
        let held = Arc::clone(&held);
        move || Some(held.read().unwrap_or_else(PoisonError::into_inner).clone())
    });
    let hold = |memory: &Memory| *held.write().unwrap_or_else(PoisonError::into_inner) = memory.clone();
    let mut app = App::new(memory.dir().to_path_buf(), keymap, Instant::now());
    let first = app.start();
    dispatch(&memory, first, &tx);
    upgrade_in_background(&memory, &tx);
    if !watcher.watches_files() {
        app.inform("core.md is not watched on this file system; edits from outside show on the next reload");
    }
    for note in memory.open_notes() {
        app.inform(note);
    }
    let mut dirty = true;
    loop {
        if dirty {
            screen.terminal().draw(|frame| views::draw(frame, &app, &ui))?;
        }
        let Some(incoming) = rx.recv().await else {
            break;
        };
        let before = (app.status.clone(), app.busy.is_some());
        let effects = match incoming {
            Incoming::Event(event) => {
                let tick = matches!(event, Event::Tick(_));
                let effects = app.handle_event(event);
                dirty = !tick
                    || app.busy.is_some()
                    || !effects.is_empty()
                    || before != (app.status.clone(), app.busy.is_some());
                effects
            }
            Incoming::Msg(msg) => {
                dirty = true;
                app.update(msg)
            }
            Incoming::Opened(dir, opened) => {
                dirty = true;
                match opened {
                    Ok(next) => {
                        memory = next;
                        for note in memory.open_notes() {
                            app.inform(note);
                        }
                        watcher.switch(&memory);
                        hold(&memory);
                        upgrade_in_background(&memory, &tx);
                        app.update(Msg::StoreSwitched { dir })
                    }
                    Err(error) => app.update(Msg::Failed {
                        what: format!("opening {}", dir.display()),
                        error,
                    }),
                }
            }
            Incoming::Upgraded(opened) => {
                dirty = true;
                match opened {
                    Ok(next) if next.dir() == memory.dir() => {
                        let line = crate::session::lexical_line(&next);
                        let ready = next.lexical_reason().is_none();
                        memory = next;
                        watcher.switch(&memory);
                        hold(&memory);
                        match (ready, line) {
                            (true, _) => app.update(Msg::Done(
                                "the embedding model is ready: search finds memories by meaning too".into(),
                            )),
                            (false, Some(line)) => {
                                app.inform(line);
                                Vec::new()
                            }
                            (false, None) => Vec::new(),
                        }
                    }
                    // The user switched stores meanwhile.
                    Ok(_) => Vec::new(),
                    Err(error) => app.update(Msg::Failed {
                        what: "getting the embedding model".into(),
                        error,
                    }),
                }
            }
        };
        for effect in effects {
            match effect {
                Effect::EditExternal { section, text } => {
                    input.pause();
                    screen.suspend();
                    let edited = editor::edit(section, &text);
                    let resumed = screen.resume();
                    input.resume();
                    resumed?;
                    dirty = true;
                    match edited {
                        Ok(new) if new.trim_end() != text.trim_end() => dispatch(
                            &memory,
                            vec![Effect::SaveSection {
                                section,
                                text: new.trim_end().to_owned(),
                            }],
                            &tx,
                        ),
                        Ok(_) => app.inform(format!("{section} unchanged")),
                        Err(e) => app.fail(format!("{e:#}")),
                    }
                }
                Effect::SwitchStore(dir) => {
                    let (tx, user) = (tx.clone(), memory.user().map(str::to_owned));
                    tokio::spawn(async move {
                        let opened = match Settings::load(&dir) {
                            Ok(settings) => Memory::open_with_options(&dir, settings, OpenOptions::quick())
                                .await
                                .map_err(anyhow::Error::from)
                                .and_then(|m| crate::session::as_user(m, user.as_deref()))
                                .map_err(|e| format!("{e:#}")),
                            Err(e) => Err(e.to_string()),
                        };
                        let _ = tx.send(Incoming::Opened(dir, opened));
                    });
                }
                other => dispatch(&memory, vec![other], &tx),
            }
        }
        if app.quit {
            break;
        }
    }
    drop(screen);
    Ok(())
}

/// When the store waits for its embedding model (or for vectors), gets them in the
/// background (progress in the status line) and hands over the store opened again.
fn upgrade_in_background(memory: &Memory, tx: &mpsc::UnboundedSender<Incoming>) {
    if !memory.lexical_reason().is_some_and(LexicalReason::waits_for_model) {
        return;
    }
    let (dir, settings, tx) = (memory.dir().to_path_buf(), memory.settings().clone(), tx.clone());
    let user = memory.user().map(str::to_owned);
    let progress_tx = tx.clone();
    let last = std::sync::Mutex::new(String::new());
    tokio::spawn(async move {
        let options = OpenOptions::full(move |p| {
            let text = match p {
                OpenProgress::Download(p) => format!(
                    "downloading the embedding model: {} {}",
                    p.file,
                    percent(p.bytes_done, p.bytes_total)
                ),
                OpenProgress::Vectors(p) => format!(
                    "making vectors for search by meaning: {}",
                    percent(p.done as u64, Some(p.total as u64))
                ),
            };
            let mut last = last.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            if *last != text {
                let _ = progress_tx.send(Incoming::Msg(Msg::Progress(text.clone())));
                *last = text;
            }
        });
        let opened = Memory::open_with_options(&dir, settings, options)
            .await
            .map_err(anyhow::Error::from)
            .and_then(|m| crate::session::as_user(m, user.as_deref()))
            .map_err(|e| format!("{e:#}"));
        let _ = tx.send(Incoming::Upgraded(opened));
    });
}

/// `45%`, or the bytes so far when the total is not known.
fn percent(done: u64, total: Option<u64>) -> String {
    match total.filter(|t| *t > 0) {
        Some(total) => format!("{}%", done.saturating_mul(100) / total),
        None => format!("{} kB", done / 1000),
    }
}

/// Runs effects on the runtime; their results come back as messages.
fn dispatch(memory: &Memory, effects: Vec<Effect>, tx: &mpsc::UnboundedSender<Incoming>) {
    for effect in effects {
        let memory = memory.clone();
        let tx = tx.clone();
        tokio::spawn(async move {
            for msg in worker::perform(&memory, effect).await {
                if tx.send(Incoming::Msg(msg)).is_err() {
                    break;
                }
            }
        });
    }
}
