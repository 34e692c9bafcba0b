//! The terminal: raw mode and the alternate screen, restored on every exit path (drop,
//! error, panic), and suspended while `$EDITOR` runs.

use std::io::{Stdout, Write, stdout};
use std::sync::Once;

use anyhow::{Context, Result};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture};
use ratatui::crossterm::terminal::{EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode};
use ratatui::crossterm::{cursor, execute};

/// The TUI's terminal. Dropping it gives the terminal back as it was.
pub struct Screen {
    terminal: Terminal<CrosstermBackend<Stdout>>,
    mouse: bool,
}

/// Leaves raw mode and the alternate screen; safe to call more than once.
fn restore(mouse: bool) {
    let _ = disable_raw_mode();
    let mut out = stdout();
    if mouse {
        let _ = execute!(out, DisableMouseCapture);
    }
    let _ = execute!(out, DisableBracketedPaste, LeaveAlternateScreen, cursor::Show);
    let _ = out.flush();
}

fn install_panic_hook() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            // Mouse capture may or may not be on; turning it off twice is harmless.
            restore(true);
            previous(info);
        }));
    });
}

fn enter(mouse: bool) -> Result<()> {
    enable_raw_mode().context("cannot switch the terminal to raw mode")?;
    let mut out = stdout();
    execute!(out, EnterAlternateScreen, EnableBracketedPaste, cursor::Hide)
        .context("cannot open the alternate screen")?;
    if mouse {
        execute!(out, EnableMouseCapture).context("cannot capture the mouse")?;
    }
    Ok(())
}

impl Screen {
    /// Takes over the terminal.
    pub fn enter(mouse: bool) -> Result<Self> {
        install_panic_hook();
        if let Err(e) = enter(mouse) {
            restore(mouse);
            return Err(e);
        }
        let terminal = match Terminal::new(CrosstermBackend::new(stdout())) {
            Ok(t) => t,
            Err(e) => {
                restore(mouse);
                return Err(e).context("cannot draw on the terminal");
            }
        };
        Ok(Self { terminal, mouse })
    }

    /// The ratatui terminal.
    pub fn terminal(&mut self) -> &mut Terminal<CrosstermBackend<Stdout>> {
        &mut self.terminal
    }

    /// Gives the terminal to another program (the editor) until [`Screen::resume`].
    pub fn suspend(&mut self) {
        restore(self.mouse);
    }

    /// Takes the terminal back and redraws everything.
    pub fn resume(&mut self) -> Result<()> {
        enter(self.mouse)?;
        self.terminal.clear().context("cannot redraw the terminal")?;
        Ok(())
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        restore(self.mouse);
    }
}
