//! Terminal input on its own thread: key, paste, mouse and resize events, and a tick about
//! ten times a second, sent to the event loop. It can be paused while `$EDITOR` owns the
//! terminal.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use ratatui::crossterm::event::{self, Event as TermEvent, KeyEventKind};
use tokio::sync::mpsc::UnboundedSender;

use super::Incoming;
use super::app::Event;

const TICK: Duration = Duration::from_millis(100);

/// The input thread's switch.
#[derive(Clone)]
pub struct Input {
    paused: Arc<AtomicBool>,
}

impl Input {
    /// Starts reading.
    pub fn spawn(tx: UnboundedSender<Incoming>) -> Self {
        let paused = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&paused);
        let spawned = std::thread::Builder::new().name("haema-input".into()).spawn(move || {
            let mut last_tick = Instant::now();
            loop {
                if flag.load(Ordering::Acquire) {
                    std::thread::sleep(Duration::from_millis(20));
                    continue;
                }
                let event = match event::poll(TICK) {
                    Ok(true) if !flag.load(Ordering::Acquire) => match event::read() {
                        Ok(TermEvent::Key(k)) if k.kind != KeyEventKind::Release => Some(Event::Key(k)),
                        Ok(TermEvent::Paste(text)) => Some(Event::Paste(text)),
                        Ok(TermEvent::Mouse(m)) => Some(Event::Mouse(m)),
                        Ok(TermEvent::Resize(..)) => Some(Event::Resize),
                        Ok(_) => None,
                        Err(_) => break,
                    },
                    Ok(_) => None,
                    Err(_) => break,
                };
                if let Some(event) = event
                    && tx.send(Incoming::Event(event)).is_err()
                {
                    break;
                }
                if last_tick.elapsed() >= TICK {
                    last_tick = Instant::now();
                    if tx.send(Incoming::Event(Event::Tick(last_tick))).is_err() {
                        break;
                    }
                }
            }
        });
        if spawned.is_err() {
            paused.store(true, Ordering::Release);
        }
        Self { paused }
    }

    /// Stops reading (the thread finishes its current wait first).
    pub fn pause(&self) {
        self.paused.store(true, Ordering::Release);
        std::thread::sleep(TICK + Duration::from_millis(20));
    }

    /// Reads again.
    pub fn resume(&self) {
        self.paused.store(false, Ordering::Release);
    }
}
