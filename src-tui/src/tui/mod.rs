//! The terminal UI that `haema` opens without a subcommand.
//!
//! Module map: [`app`] is the state machine (events and results in, effects out; no I/O),
//! [`views`] draws it, [`worker`] performs effects on `haema-core`, [`input`] reads the
//! terminal on its own thread, [`watch`] notices other writers, [`terminal`] owns raw
//! mode and the alternate screen, [`keymap`] and [`action`] hold the bindings.

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
use std::time::Instant;

use anyhow::Result;
use haema_core::{Memory, Settings};
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
    let mut app = App::new(memory.dir().to_path_buf(), keymap, Instant::now());
    let first = app.start();
    dispatch(&memory, first, &tx);
    if !watcher.watches_files() {
        app.inform("core.md is not watched on this file system; edits from outside show on the next reload");
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
                        watcher.switch(&memory);
                        app.update(Msg::StoreSwitched { dir })
                    }
                    Err(error) => app.update(Msg::Failed {
                        what: format!("opening {}", dir.display()),
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
                    let tx = tx.clone();
                    tokio::spawn(async move {
                        let opened = match Settings::load(&dir) {
                            Ok(settings) => Memory::open(&dir, settings).await.map_err(|e| e.to_string()),
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
