//! Questions on the terminal for `haema setup`: a numbered choice, a line with a default,
//! yes or no, and a secret read without showing it. Without a terminal the answers are read
//! a line each from standard input, so a script (or a test) can answer.

use std::io::{BufRead, IsTerminal, Write};

use anyhow::{Result, bail};

/// Asks `question`; an empty answer is `default`.
pub fn line(question: &str, default: Option<&str>) -> Result<String> {
    match default.filter(|d| !d.is_empty()) {
        Some(d) => eprint!("{question} [{d}]: "),
        None => eprint!("{question}: "),
    }
    let answer = read_line()?;
    Ok(match (answer.trim(), default) {
        ("", Some(d)) => d.to_owned(),
        (a, _) => a.to_owned(),
    })
}

/// Shows `options` numbered from 1 and asks for one; an empty answer is `default`.
pub fn choose(question: &str, options: &[String], default: usize) -> Result<usize> {
    eprintln!("{question}");
    for (i, option) in options.iter().enumerate() {
        eprintln!("  {}) {option}", i + 1);
    }
    for _ in 0..5 {
        let answer = line("Choose a number", Some(&(default + 1).to_string()))?;
        match answer.parse::<usize>() {
            Ok(n) if (1..=options.len()).contains(&n) => return Ok(n - 1),
            _ => eprintln!("Type a number from 1 to {}.", options.len()),
        }
    }
    bail!("no choice was made; run `haema setup` again")
}

/// Asks a yes-or-no question; an empty answer is `default`.
pub fn yes(question: &str, default: bool) -> Result<bool> {
    let hint = if default { "Y/n" } else { "y/N" };
    eprint!("{question} [{hint}] ");
    let answer = read_line()?.trim().to_lowercase();
    Ok(match answer.as_str() {
        "" => default,
        a => matches!(a, "y" | "yes"),
    })
}

/// Asks for a secret: on a terminal nothing of it is shown as it is typed or pasted.
pub fn secret(question: &str) -> Result<String> {
    eprint!("{question}: ");
    std::io::stderr().flush()?;
    if !std::io::stdin().is_terminal() {
        return read_line().map(|l| l.trim().to_owned());
    }
    let typed = read_hidden();
    eprintln!();
    typed.map(|t| t.trim().to_owned())
}

fn read_line() -> Result<String> {
    std::io::stderr().flush()?;
    let mut answer = String::new();
    if std::io::stdin().lock().read_line(&mut answer)? == 0 {
        bail!("standard input ended before setup was finished; nothing more was changed");
    }
    Ok(answer)
}

/// Reads keys in raw mode until Enter, echoing nothing; Ctrl-C stops setup.
fn read_hidden() -> Result<String> {
    use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
    use ratatui::crossterm::terminal;
    terminal::enable_raw_mode()?;
    let mut typed = String::new();
    let outcome = loop {
        match event::read() {
            Ok(Event::Key(key)) if key.kind != KeyEventKind::Release => match key.code {
                KeyCode::Enter => break Ok(()),
                KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => {
                    break Err(anyhow::anyhow!("setup stopped; nothing more was changed"));
                }
                KeyCode::Char('u') if key.modifiers.contains(KeyModifiers::CONTROL) => typed.clear(),
                KeyCode::Backspace => {
                    typed.pop();
                }
                KeyCode::Char(c) => typed.push(c),
                _ => {}
            },
            Ok(Event::Paste(text)) => typed.push_str(&text),
            Ok(_) => {}
            Err(e) => break Err(e.into()),
        }
    };
    terminal::disable_raw_mode()?;
    outcome.map(|()| typed)
}
