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
/// was replaced: it is read from its start.
pub fn read_from(path: &Path, offset: u64) -> std::io::Result<Tail> {
    let mut file = std::fs::File::open(path)?;
    let len = file.metadata()?.len();
    let start = if offset > len { 0 } else { offset };
    file.seek(SeekFrom::Start(start))?;
    let mut bytes = Vec::new();
    file.take(MAX_READ).read_to_end(&mut bytes)?;
    let whole = bytes.iter().rposition(|b| *b == b'\n').map_or(0, |at| at + 1);
    let turns = String::from_utf8_lossy(&bytes[..whole])
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter_map(|entry| turn(&entry))
        .collect();
    Ok(Tail {
        turns,
        end: start + whole as u64,
    })
}

/// The words of one entry, when it is a person's or the assistant's.
pub fn turn(entry: &Value) -> Option<Turn> {
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
    let text = cleaned(&said);
    let noise = [
        "<command-name>",
        "<command-message>",
        "<local-command-stdout>",
        "<local-command-stderr>",
        "[Request interrupted",
        "This session is being continued from a previous conversation",
    ];
    if text.is_empty() || role == Role::User && noise.iter().any(|n| text.starts_with(n)) {
        return None;
    }
    Some(Turn { role, text })
}

/// `text` without what is never captured: `<private>` blocks, haema's recall blocks and
/// Claude Code's `<system-reminder>` notes. A block left open runs to the end of the text,
/// so a private block cut short is still left out.
pub fn cleaned(text: &str) -> String {
    let text = haema_core::without_recall_blocks(text);
    let text = without_blocks(&text, "private");
    without_blocks(&text, "system-reminder").trim().to_owned()
}

/// `text` without every `<tag …>…</tag>`, the tag in any case.
fn without_blocks(text: &str, tag: &str) -> String {
    let lower = text.to_ascii_lowercase();
    let (open, close) = (format!("<{tag}"), format!("</{tag}>"));
    let mut kept = String::with_capacity(text.len());
    let mut at = 0;
    while let Some(found) = lower[at..].find(&open) {
        let start = at + found;
        // `<privateer>` is no private block: the tag ends at `>` or a space.
        let next = lower[start + open.len()..].chars().next();
        if !matches!(next, Some('>' | ' ' | '\t' | '\n')) {
            kept.push_str(&text[at..start + open.len()]);
            at = start + open.len();
            continue;
        }
        kept.push_str(&text[at..start]);
        at = lower[start..]
            .find(&close)
            .map_or(text.len(), |end| start + end + close.len());
    }
    kept.push_str(&text[at..]);
    kept
}

/// The turns as one text for the memory to read: "User: …" and "Assistant: …".
pub fn as_text(turns: &[Turn]) -> String {
    turns
        .iter()
        .map(|t| {
            let who = match t.role {
                Role::User => "User",
                Role::Assistant => "Assistant",
            };
            format!("{who}: {}\n", t.text)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn private_recall_and_reminder_blocks_are_left_out_in_any_case_and_when_left_open() {
        let said = "I live in Porto. <PRIVATE>my therapist is Dr. Lee</PRIVATE> I like tea.";
        assert_eq!(cleaned(said), "I live in Porto.  I like tea.");
        assert_eq!(cleaned("Start <private note=\"x\">secret plans"), "Start");
        assert_eq!(cleaned("a <privateer> ship"), "a <privateer> ship");
        let reminder = "<system-reminder>\nhook output\n</system-reminder>\nHello";
        assert_eq!(cleaned(reminder), "Hello");
        let block = format!("{}- Ana lives in Lyon.\n</memory>\nThanks", haema_core::RECALL_HEADER);
        assert_eq!(cleaned(&block), "Thanks");
    }

    #[test]
    fn only_the_words_of_people_and_the_assistant_are_turns() {
        let user = json!({"type": "user", "message": {"role": "user", "content": "I moved to Porto."}});
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
