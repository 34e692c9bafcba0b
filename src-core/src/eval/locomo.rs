//! Reading a LoCoMo split: `turns.jsonl` (one dialogue turn per line) and `queries.jsonl`
//! (one question per line with the ids of its evidence turns), as in
//! `shared/data/locomo-dev/`. Any number of conversations; a bad line is an error that
//! names the file and the line.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use crate::error::{Error, Result};

/// One dialogue turn.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Turn {
    /// Conversation id (`conv-26`).
    pub conv: String,
    /// Turn id within the conversation (`D1:3`), what queries name as evidence.
    pub dia_id: String,
    /// When the session took place, as LoCoMo writes it (`1:56 pm on 8 May, 2023`).
    pub session_date: String,
    /// Who speaks.
    pub speaker: String,
    /// What they say.
    pub text: String,
    /// The caption of an image shared in the turn, if any.
    #[serde(default)]
    pub image_caption: Option<String>,
}

impl Turn {
    /// The memory this turn becomes: `speaker: text`, an image's caption appended as
    /// `[shares …]`.
    ///
    /// ```
    /// let turn: haema_core::eval::Turn = serde_json::from_str(
    ///     r#"{"conv": "c1", "dia_id": "D1:1", "session_date": "1:56 pm on 8 May, 2023", "speaker": "Ana", "text": "Look!", "image_caption": "a cat"}"#,
    /// )?;
    /// assert_eq!(turn.memory_text(), "Ana: Look! [shares a cat]");
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    pub fn memory_text(&self) -> String {
        let mut text = format!("{}: {}", self.speaker.trim(), self.text.trim());
        if let Some(caption) = self.image_caption.as_deref().map(str::trim).filter(|c| !c.is_empty()) {
            text.push_str(&format!(" [shares {caption}]"));
        }
        text
    }
}

/// One question with its gold evidence.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Query {
    /// Conversation id.
    pub conv: String,
    /// Question id, if the file has one.
    #[serde(default)]
    pub qid: Option<String>,
    /// The question, used as the search query.
    pub question: String,
    /// LoCoMo's category: 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial.
    pub category: u8,
    /// The turn ids that hold the answer.
    #[serde(default)]
    pub evidence: Vec<String>,
}

/// One conversation: its turns in file order and its questions.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Conversation {
    /// Conversation id.
    pub id: String,
    /// Turns, in file order.
    pub turns: Vec<Turn>,
    /// Questions about it.
    pub queries: Vec<Query>,
}

/// A LoCoMo split: conversations sorted by id. [`run_locomo`](super::run_locomo) has an
/// example that parses one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Dataset {
    /// The conversations that have turns.
    pub conversations: Vec<Conversation>,
}

impl Dataset {
    /// Reads `turns.jsonl` and `queries.jsonl` from `dir`.
    pub fn read(dir: &Path) -> Result<Self> {
        let read = |name: &str| {
            let path = dir.join(name);
            std::fs::read_to_string(&path)
                .map(|text| (path.display().to_string(), text))
                .map_err(|e| Error::io("read", &path, e))
        };
        let (turns_name, turns) = read("turns.jsonl")?;
        let (queries_name, queries) = read("queries.jsonl")?;
        Self::parse(&turns_name, &turns, &queries_name, &queries)
    }

    /// Parses the two files' texts; the names are used in error messages.
    pub fn parse(turns_name: &str, turns: &str, queries_name: &str, queries: &str) -> Result<Self> {
        let mut conversations: BTreeMap<String, Conversation> = BTreeMap::new();
        for (line, turn) in parse_lines::<Turn>(turns_name, turns)? {
            if session_time_ms(&turn.session_date).is_none() {
                return Err(bad_line(
                    turns_name,
                    line,
                    &format!(
                        "the session date `{}` is not like `1:56 pm on 8 May, 2023`",
                        turn.session_date
                    ),
                ));
            }
            let conversation = conversations.entry(turn.conv.clone()).or_default();
            if conversation.turns.iter().any(|t| t.dia_id == turn.dia_id) {
                return Err(bad_line(
                    turns_name,
                    line,
                    &format!("turn `{}` of `{}` appears twice", turn.dia_id, turn.conv),
                ));
            }
            conversation.id.clone_from(&turn.conv);
            conversation.turns.push(turn);
        }
        for (line, query) in parse_lines::<Query>(queries_name, queries)? {
            let Some(conversation) = conversations.get_mut(&query.conv) else {
                return Err(bad_line(
                    queries_name,
                    line,
                    &format!("conversation `{}` has no turns in {turns_name}", query.conv),
                ));
            };
            if !(1..=5).contains(&query.category) {
                return Err(bad_line(
                    queries_name,
                    line,
                    &format!("category {} is not 1 to 5", query.category),
                ));
            }
            conversation.queries.push(query);
        }
        if conversations.is_empty() {
            return Err(Error::InvalidArgument(format!("{turns_name} holds no turns")));
        }
        Ok(Self {
            conversations: conversations.into_values().collect(),
        })
    }

    /// Number of questions in all conversations.
    pub fn query_count(&self) -> usize {
        self.conversations.iter().map(|c| c.queries.len()).sum()
    }
}

fn bad_line(file: &str, line: usize, why: &str) -> Error {
    Error::InvalidArgument(format!("{file}, line {line}: {why}"))
}

/// The non-blank lines of a JSONL text, each parsed, with its 1-based line number.
fn parse_lines<T: for<'de> Deserialize<'de>>(name: &str, text: &str) -> Result<Vec<(usize, T)>> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l)
                .map(|v| (i + 1, v))
                .map_err(|e| bad_line(name, i + 1, &e.to_string()))
        })
        .collect()
}

/// Unix ms (UTC) of a LoCoMo session date such as `1:56 pm on 8 May, 2023`.
///
/// ```
/// use haema_core::eval::locomo::session_time_ms;
/// assert_eq!(session_time_ms("1:56 pm on 8 May, 2023"), Some(1_683_554_160_000));
/// assert_eq!(session_time_ms("yesterday"), None);
/// ```
pub fn session_time_ms(text: &str) -> Option<i64> {
    let (clock, date) = text.trim().split_once(" on ")?;
    let (hm, half) = clock.trim().split_once(' ')?;
    let (h, m) = hm.split_once(':')?;
    let (mut h, m): (i64, i64) = (h.parse().ok()?, m.parse().ok()?);
    if !(1..=12).contains(&h) || !(0..60).contains(&m) {
        return None;
    }
    h %= 12;
    match half.to_ascii_lowercase().as_str() {
        "am" => {}
        "pm" => h += 12,
        _ => return None,
    }
    let mut parts = date.split([' ', ',']).filter(|p| !p.is_empty());
    let day: u32 = parts.next()?.parse().ok()?;
    let month = crate::search::time::month_number(parts.next()?)?;
    let year: i32 = parts.next()?.parse().ok()?;
    if parts.next().is_some() {
        return None;
    }
    let midnight = crate::types::parse_time(&format!("{year:04}-{month:02}-{day:02}"))?;
    Some(midnight + (h * 3600 + m * 60) * 1000)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TURNS: &str = r#"{"conv": "c1", "dia_id": "D1:1", "session": 1, "session_date": "1:56 pm on 8 May, 2023", "turn_idx": 0, "speaker": "Ana", "text": "I adopted a cat.", "image_caption": "a photo of a grey cat"}

{"conv": "c1", "dia_id": "D1:2", "session_date": "9:05 am on 1 January, 2024", "speaker": "Bo", "text": "Nice!", "image_caption": null}
{"conv": "c0", "dia_id": "D1:1", "session_date": "12:00 am on 29 February, 2024", "speaker": "Cy", "text": "Hi"}
"#;
    const QUERIES: &str = r#"{"conv": "c1", "qid": "q0", "question": "What did Ana adopt?", "category": 4, "evidence": ["D1:1"]}
{"conv": "c0", "question": "Who said hi?", "category": 5}
"#;

    #[test]
    fn turns_and_queries_are_grouped_by_conversation() {
        let data = Dataset::parse("turns.jsonl", TURNS, "queries.jsonl", QUERIES).unwrap();
        let ids: Vec<&str> = data.conversations.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["c0", "c1"]);
        let c1 = &data.conversations[1];
        assert_eq!(c1.turns.len(), 2);
        assert_eq!(
            c1.turns[0].memory_text(),
            "Ana: I adopted a cat. [shares a photo of a grey cat]"
        );
        assert_eq!(c1.turns[1].memory_text(), "Bo: Nice!");
        assert_eq!(c1.queries[0].evidence, ["D1:1"]);
        assert!(data.conversations[0].queries[0].evidence.is_empty());
        assert_eq!(data.query_count(), 2);
    }

    #[test]
    fn session_dates_parse() {
        assert_eq!(
            session_time_ms("1:56 pm on 8 May, 2023"),
            crate::types::parse_time("2023-05-08T13:56:00Z")
        );
        assert_eq!(
            session_time_ms("12:09 am on 13 September, 2023"),
            crate::types::parse_time("2023-09-13T00:09:00Z")
        );
        assert_eq!(
            session_time_ms("12:30 pm on 1 Jan, 2024"),
            crate::types::parse_time("2024-01-01T12:30:00Z")
        );
        for bad in [
            "",
            "yesterday",
            "13:00 pm on 8 May, 2023",
            "1:56 pm on 8 Maybe, 2023",
            "1:56 on 8 May, 2023",
        ] {
            assert_eq!(session_time_ms(bad), None, "{bad}");
        }
    }

    #[test]
    fn bad_input_names_the_file_and_line() {
        let err = |turns: &str, queries: &str| {
            Dataset::parse("t.jsonl", turns, "q.jsonl", queries)
                .unwrap_err()
                .to_string()
        };
        let broken = format!("{}\n{{\"conv\": \"c1\"", TURNS.lines().next().unwrap());
        let e = err(&broken, "");
        assert!(e.starts_with("t.jsonl, line 2:"), "{e}");
        let e = err(TURNS, "{\"conv\": \"c9\", \"question\": \"?\", \"category\": 1}\n");
        assert!(e.starts_with("q.jsonl, line 1:") && e.contains("c9"), "{e}");
        let e = err(TURNS, "\n{\"conv\": \"c1\", \"question\": \"?\", \"category\": 7}\n");
        assert!(e.starts_with("q.jsonl, line 2:") && e.contains("category 7"), "{e}");
        let e = err(&TURNS.replace("1:56 pm on 8 May, 2023", "someday"), "");
        assert!(e.starts_with("t.jsonl, line 1:") && e.contains("someday"), "{e}");
        let twice = format!("{TURNS}{}\n", TURNS.lines().next().unwrap());
        assert!(err(&twice, "").contains("twice"));
        assert!(err("\n", "").contains("no turns"));
    }
}
