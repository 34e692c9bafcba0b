//! Printing: JSON for scripts, plain text for people. A closed pipe is not an error.

use std::io::Write;

use anyhow::Result;
use serde::Serialize;

/// Writes `text` to standard output for people: each control character (stored text may
/// hold escape sequences or a carriage return) prints as `�` ([`haema_core::printable`]);
/// a reader that went away (`| head`) is fine.
pub fn print(text: &str) -> Result<()> {
    print_exact(&haema_core::printable(text))
}

/// Writes `text` to standard output exactly as it is (a file's contents, for a pipe or a
/// redirection); a reader that went away is fine.
pub fn print_exact(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}

/// [`print`] for `println!`: an error writing (a closed pipe) is dropped, as the text has
/// nowhere to go.
pub fn to_stdout(text: &str) {
    let _ = print(text);
}

/// Writes `text` to standard error for people (control characters as `�`); a closed or
/// broken stderr is ignored rather than a panic (std's `eprintln!` panics).
pub fn to_stderr(text: &str) {
    to_stderr_exact(&haema_core::printable(text));
}

/// Writes `text` to standard error as it is (a progress line that returns to its start
/// with `\r`); a closed or broken stderr is ignored.
pub fn to_stderr_exact(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(text.as_bytes()).and_then(|()| err.flush());
}

/// Prints a value as pretty JSON with a trailing newline. JSON escapes C0 controls; DEL
/// and the C1 controls (which some terminals obey) are escaped too, so the text is safe on
/// a terminal and decodes to the same value.
pub fn json<T: Serialize + ?Sized>(value: &T) -> Result<()> {
    print_exact(&format!("{}\n", escape_controls(&serde_json::to_string_pretty(value)?)))
}

/// JSON text with DEL and C1 controls as `\u` escapes (they can only be in its strings).
pub fn escape_controls(json: &str) -> String {
    if !json.contains(haema_core::is_unprintable) {
        return json.to_owned();
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if haema_core::is_unprintable(c) && !matches!(c, '\n' | '\r') {
            out.push_str(&format!("\\u{:04x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

pub use haema_core::format_utc as utc;

/// A score with four significant digits, however small.
pub fn score(value: f64) -> String {
    if value != 0.0 && value.abs() < 0.001 {
        format!("{value:.3e}")
    } else {
        format!("{value:.4}")
    }
}

/// One line of a memory for a list: newlines shown as ⏎, control characters as `�`.
pub fn one_line(text: &str) -> String {
    printable(text).replace('\n', " ⏎ ")
}

/// Text safe to print on a terminal: a control character (an escape sequence could retitle
/// or clear the terminal, a carriage return show other text) is shown as `�`; tabs and
/// line ends stay. [`haema_core::printable`], which every surface uses.
pub fn printable(text: &str) -> String {
    haema_core::printable(text).into_owned()
}

/// How many of a changeset's inputs a list line shows; [`haema_core::ChangesetSummary`]
/// carries as many.
pub const SHOWN_INPUTS: usize = 3;

/// The inputs of a changeset on one line: the first [`SHOWN_INPUTS`] of them (`first`) and
/// how many more of the `total` there are.
pub fn inputs_line(first: &[String], total: usize) -> String {
    let mut line = first.iter().take(SHOWN_INPUTS).cloned().collect::<Vec<_>>().join(" · ");
    if total > SHOWN_INPUTS {
        line.push_str(&format!(" · (+{} more)", total - SHOWN_INPUTS));
    }
    line
}

/// A progress bar on standard error for embedding `what` (hidden when stderr is not a
/// terminal, as indicatif does).
pub fn progress(what: &str) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template(&format!(
            "{{spinner}} embedding {what} {{bar:30}} {{pos}}/{{len}} ({{per_sec}}, {{eta}} left)"
        ))
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}

/// The `(done, total)` callback that moves `bar`.
pub fn advance(bar: &indicatif::ProgressBar) -> impl FnMut(usize, usize) + Send + use<> {
    let bar = bar.clone();
    move |done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    }
}

/// A byte progress bar on standard error for downloading `model` (hidden when stderr is not
/// a terminal).
pub fn download_progress(model: &str) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template(&format!(
            "{{spinner}} downloading {model} {{bar:30}} {{bytes}}/{{total_bytes}} ({{bytes_per_sec}}, {{eta}} left) {{msg}}"
        ))
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar
}

/// Moves a download bar: the bytes of the file in flight, and its name.
pub fn show_download(bar: &indicatif::ProgressBar, p: &haema_core::provider::hub::FetchProgress) {
    bar.set_message(format!(
        "{} ({}/{})",
        p.file,
        (p.files_done + 1).min(p.files_total),
        p.files_total
    ));
    bar.set_length(p.bytes_total.unwrap_or(0));
    bar.set_position(p.bytes_done);
}

/// A memory's attributes on one line for people (`preference · importance 0.8 · from chat ·
/// agent planner · project=apollo`); empty when it has none.
pub fn attributes_line(attributes: &haema_core::MemoryAttributes) -> String {
    let mut parts: Vec<String> = Vec::new();
    if let Some(t) = &attributes.memory_type {
        parts.push(t.clone());
    }
    if let Some(i) = attributes.importance {
        parts.push(format!("importance {i}"));
    }
    for (label, value) in [
        ("from", &attributes.source),
        ("agent", &attributes.agent_id),
        ("session", &attributes.session_id),
        ("user", &attributes.user_id),
    ] {
        if let Some(v) = value {
            parts.push(format!("{label} {}", one_line(v)));
        }
    }
    for (key, value) in &attributes.metadata {
        let shown = match value {
            serde_json::Value::String(s) => one_line(s),
            other => other.to_string(),
        };
        parts.push(format!("{key}={shown}"));
    }
    parts.join(" · ")
}

#[cfg(test)]
mod tests {
    use super::inputs_line;

    #[test]
    fn an_inputs_line_shows_three_and_counts_the_rest() {
        let inputs: Vec<String> = (1..=5).map(|i| format!("fact {i}")).collect();
        assert_eq!(inputs_line(&inputs[..2], 2), "fact 1 · fact 2");
        assert_eq!(inputs_line(&inputs[..3], 3), "fact 1 · fact 2 · fact 3");
        assert_eq!(inputs_line(&inputs, 5), "fact 1 · fact 2 · fact 3 · (+2 more)");
        assert_eq!(inputs_line(&inputs[..3], 40), "fact 1 · fact 2 · fact 3 · (+37 more)");
        assert_eq!(inputs_line(&[], 0), "");
    }
}
