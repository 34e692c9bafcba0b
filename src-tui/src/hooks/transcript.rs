//! A Claude Code transcript (JSONL, one entry per line, appended as the session goes): the
//! user's and the assistant's words since a byte offset, without tool calls and their
//! results, thinking, Claude Code's own notes, haema's recall blocks and anything inside
//! `<private>…</private>`.

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use serde_json::Value;

/// The most read in one capture: a longer tail is read by the next one.
const MAX_READ: u64 = 32 * 1024 * 1024;

/// Who said a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    User,
    Assistant,
}

/// One turn's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Turn {
    pub role: Role,
    pub text: String,
}

/// What was read: the turns, and the offset after the last whole line (where the next read
/// starts; a line still being written is left for it).
#[derive(Debug, Default)]
pub struct Tail {
    pub turns: Vec<Turn>,
    pub end: u64,
}

/// Reads the transcript at `path` from byte `offset`. A file now shorter than `offset`
/// was replaced: it is read from its start. A `<private>` block open at the end of one
/// turn goes on into the next ones until it is closed; one still open at the end of
/// what was read hides the rest of it (words are left out rather than let through).
pub fn read_from(path: &Path, offset: u64) -> std::io::Result<Tail> {
    let mut file = std::fs::File::open(path)?;
    let len = file.metadata()?.len();
    let start = if offset > len { 0 } else { offset };
    file.seek(SeekFrom::Start(start))?;
    let mut bytes = Vec::new();
    (&mut file).take(MAX_READ).read_to_end(&mut bytes)?;
    let Some(last) = bytes.iter().rposition(|b| *b == b'\n') else {
        // One line longer than a read (a big file's contents in a tool's result): skipped.
        let end = if bytes.len() as u64 == MAX_READ {
            start + MAX_READ + next_line(&mut file)?
        } else {
            start
        };
        return Ok(Tail { turns: Vec::new(), end });
    };
    let whole = last + 1;
    let mut private = 0;
    let turns = String::from_utf8_lossy(&bytes[..whole])
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter_map(|entry| turn(&entry, &mut private))
        .collect();
    Ok(Tail {
        turns,
        end: start + whole as u64,
    })
}

/// Bytes from where `file` stands to just after its next line break (to its end when
/// there is none).
fn next_line(file: &mut std::fs::File) -> std::io::Result<u64> {
    let mut skipped = 0;
    let mut chunk = vec![0; 64 * 1024];
    loop {
        let read = file.read(&mut chunk)?;
        if read == 0 {
            return Ok(skipped);
        }
        if let Some(at) = chunk[..read].iter().position(|b| *b == b'\n') {
            return Ok(skipped + at as u64 + 1);
        }
        skipped += read as u64;
    }
}

/// The words of one entry, when it is a person's or the assistant's; `private` is how
/// deep inside `<private>` blocks the turns before left off, and is updated.
pub fn turn(entry: &Value, private: &mut usize) -> Option<Turn> {
    let role = match entry.get("type").and_then(Value::as_str)? {
        "user" => Role::User,
        "assistant" => Role::Assistant,
        _ => return None,
    };
    // A subagent's work, Claude Code's own notes, and the summary a compaction writes.
    let flag = |name: &str| entry.get(name).and_then(Value::as_bool).unwrap_or(false);
    if flag("isSidechain") || flag("isMeta") || flag("isCompactSummary") {
        return None;
    }
    let content = entry.get("message")?.get("content")?;
    let said = match content {
        Value::String(text) => text.clone(),
        // Text blocks only: tool calls, their results, thinking and images are left out.
        Value::Array(blocks) => blocks
            .iter()
            .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => return None,
    };
    let text = cleaned(&said, private);
    let noise = [
        "<command-name>",
        "<command-message>",
        "<local-command-stdout>",
        "<local-command-stderr>",
        "[Request interrupted",
        "This session is being continued from a previous conversation",
        "<task-notification>",
    ];
    if text.is_empty() || role == Role::User && noise.iter().any(|n| text.starts_with(n)) {
        return None;
    }
    Some(Turn { role, text })
}

/// Blocks that are never captured: Claude Code's notes to the model and the shell's
/// input and output typed with `!` (a `.env` printed there is no fact about the user).
const NOT_CAPTURED: &[&str] = &[
    "system-reminder",
    "bash-input",
    "bash-stdout",
    "bash-stderr",
    "task-notification",
    "local-command-stdout",
    "local-command-stderr",
];

/// `text` without what is never captured: haema's recall blocks, [`NOT_CAPTURED`] blocks
/// and what is inside `<private>` blocks, nested or not, in any case. `private` is how deep
/// inside private blocks the text starts (a block opened in an earlier turn), and is
/// left as deep as it ends; a `</private>` with none open hides what came before it.
pub fn cleaned(text: &str, private: &mut usize) -> String {
    let mut text = haema_core::without_recall_blocks(text);
    for tag in NOT_CAPTURED {
        text = without_blocks(&text, tag);
    }
    without_private(&text, private).trim().to_owned()
}

/// Where the next tag named `name` opens (`<name` then a character that ends a tag name)
/// or closes (`</name>`) in `lower`, from byte `from`: its byte, its length, and whether
/// it closes.
fn next_tag(lower: &str, name: &str, from: usize) -> Option<(usize, usize, bool)> {
    let (open, close) = (format!("<{name}"), format!("</{name}>"));
    let mut at = from;
    loop {
        let found = at + lower[at..].find('<')?;
        let rest = &lower[found..];
        if rest.starts_with(&close) {
            return Some((found, close.len(), true));
        }
        if rest.starts_with(&open)
            && !rest[open.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '-' || c == '_')
        {
            let end = rest.find('>').map_or(rest.len(), |e| e + 1);
            return Some((found, end, false));
        }
        at = found + 1;
    }
}

/// `text` without what is inside `<private>` blocks (see [`cleaned`]).
fn without_private(text: &str, depth: &mut usize) -> String {
    let lower = text.to_lowercase();
    // Lower-casing can change lengths (`İ`): then the text is read as it is written.
    let lower = if lower.len() == text.len() {
        lower
    } else {
        text.to_owned()
    };
    let mut kept = String::with_capacity(text.len());
    let mut at = 0;
    while let Some((found, len, closes)) = next_tag(&lower, "private", at) {
        if *depth == 0 {
            if closes {
                // A block opened before what was read: what came before its end is private.
                kept.clear();
            } else {
                kept.push_str(&text[at..found]);
            }
        }
        *depth = if closes { depth.saturating_sub(1) } else { *depth + 1 };
        at = found + len;
    }
    if *depth == 0 {
        kept.push_str(&text[at..]);
    }
    kept
}

/// `text` without every `<tag …>…</tag>`, the tag in any case; one left open runs to the
/// end of the text.
fn without_blocks(text: &str, tag: &str) -> String {
    let lower = text.to_ascii_lowercase();
    let mut kept = String::with_capacity(text.len());
    let mut at = 0;
    while let Some((found, len, closes)) = next_tag(&lower, tag, at) {
        if closes {
            kept.push_str(&text[at..found + len]);
            at = found + len;
            continue;
        }
        kept.push_str(&text[at..found]);
        at = match next_tag(&lower, tag, found + len) {
            Some((end, end_len, true)) => end + end_len,
            Some((next, _, false)) => next,
            None => text.len(),
        };
    }
    kept.push_str(&text[at..]);
    kept
}

/// The turns as one text for the memory to read: "The user said: …" and "The assistant
/// said: …" (a bare "User:" reads as a role label, which the injection screen holds).
pub fn as_text(turns: &[Turn]) -> String {
    turns
        .iter()
        .map(|t| {
            let who = match t.role {
                Role::User => "The user",
                Role::Assistant => "The assistant",
            };
            format!("{who} said: {}\n", t.text)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn clean(text: &str) -> String {
        cleaned(text, &mut 0)
    }

    #[test]
    fn private_recall_and_reminder_blocks_are_left_out_in_any_case_and_when_left_open() {
        let said = "I live in Porto. <PRIVATE>my therapist is Dr. Lee</PRIVATE> I like tea.";
        assert_eq!(clean(said), "I live in Porto.  I like tea.");
        assert_eq!(clean("Start <private note=\"x\">secret plans"), "Start");
        assert_eq!(clean("a <privateer> ship"), "a <privateer> ship");
        assert_eq!(
            clean("A <private>outer <private>inner</private> LEAK</private> B"),
            "A  B"
        );
        assert_eq!(clean("A <private\r>x</private\r> B <private\x0c>y"), "A");
        let reminder = "<system-reminder>\nhook output\n</system-reminder>\nHello";
        assert_eq!(clean(reminder), "Hello");
        assert_eq!(
            clean("<bash-input>cat .env</bash-input><bash-stdout>DB=x</bash-stdout>ok"),
            "ok"
        );
        let block = format!("{}- Ana lives in Lyon.\n</memory>\nThanks", haema_core::RECALL_HEADER);
        assert_eq!(clean(&block), "Thanks");
    }

    #[test]
    fn a_private_block_goes_on_across_turns_and_a_lone_end_hides_what_came_before() {
        let mut depth = 0;
        assert_eq!(cleaned("first <private>my diagnosis is", &mut depth), "first");
        assert_eq!(depth, 1);
        assert_eq!(cleaned("still private", &mut depth), "");
        assert_eq!(cleaned("LEAK bipolar</private> rest", &mut depth), "rest");
        assert_eq!(depth, 0);
        assert_eq!(clean("was private</private> then said"), "then said");
    }

    #[test]
    fn only_the_words_of_people_and_the_assistant_are_turns() {
        let user = json!({"type": "user", "message": {"role": "user", "content": "I moved to Porto."}});
        let turn = |entry: &Value| turn(entry, &mut 0);
        assert_eq!(turn(&user).map(|t| t.text).as_deref(), Some("I moved to Porto."));
        let tool_result = json!({"type": "user", "message": {"content": [{"type": "tool_result", "tool_use_id": "t", "content": "file text"}]}});
        assert_eq!(turn(&tool_result), None);
        let assistant = json!({"type": "assistant", "message": {"content": [
            {"type": "thinking", "thinking": "hmm"},
            {"type": "text", "text": "Noted: Porto."},
            {"type": "tool_use", "id": "t", "name": "Bash", "input": {"command": "ls"}}
        ]}});
        assert_eq!(turn(&assistant).map(|t| t.text).as_deref(), Some("Noted: Porto."));
        let meta = json!({"type": "user", "isMeta": true, "message": {"content": "Caveat: …"}});
        assert_eq!(turn(&meta), None);
        let command = json!({"type": "user", "message": {"content": "<command-name>/clear</command-name>"}});
        assert_eq!(turn(&command), None);
        let sidechain =
            json!({"type": "assistant", "isSidechain": true, "message": {"content": [{"type": "text", "text": "x"}]}});
        assert_eq!(turn(&sidechain), None);
        assert_eq!(turn(&json!({"type": "summary", "summary": "s"})), None);
        assert_eq!(turn(&json!({"type": "user", "message": {"content": 3}})), None);
    }

    #[test]
    fn a_line_longer_than_one_read_is_skipped_and_what_follows_it_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.jsonl");
        let huge = format!(
            "{{\"type\":\"user\",\"message\":{{\"content\":\"{}\"}}}}\n",
            "a".repeat(MAX_READ as usize)
        );
        let next = format!(
            "{}\n",
            json!({"type": "user", "message": {"content": "my flight is on 9 June"}})
        );
        std::fs::write(&path, format!("{huge}{next}")).unwrap();
        let skipped = read_from(&path, 0).unwrap();
        assert!(skipped.turns.is_empty());
        assert_eq!(skipped.end, huge.len() as u64);
        let after = read_from(&path, skipped.end).unwrap();
        assert_eq!(after.turns[0].text, "my flight is on 9 June");
    }

    #[test]
    fn a_line_still_being_written_is_left_for_the_next_read_and_a_replaced_file_is_read_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.jsonl");
        let line = |text: &str| format!("{}\n", json!({"type": "user", "message": {"content": text}}));
        std::fs::write(&path, format!("{}{}{{\"type\":\"us", line("one"), line("two"))).unwrap();
        let tail = read_from(&path, 0).unwrap();
        assert_eq!(tail.turns.len(), 2);
        let rest = read_from(&path, tail.end).unwrap();
        assert!(rest.turns.is_empty());
        assert_eq!(rest.end, tail.end);
        std::fs::write(&path, line("three")).unwrap();
        let again = read_from(&path, tail.end).unwrap();
        assert_eq!(again.turns[0].text, "three");
    }
}
