//! `haema state`: an agent's small key/value store.

use anyhow::Result;
use haema_core::Memory;
use serde_json::Value;

use super::read_source;
use crate::cli::StateCommand;
use crate::output::{self, one_line, print, utc};

pub async fn run(memory: &Memory, command: StateCommand) -> Result<()> {
    match command {
        StateCommand::Get { key, agent } => {
            let found = memory.get_agent_state(&agent.agent_id, &key).await?;
            match (found, agent.json) {
                (found, true) => output::json(&found),
                (Some(state), false) => print(&format!("{}\n", shown(&state.value))),
                (None, false) => anyhow::bail!("the state key “{key}” of agent “{}” is not set", agent.agent_id),
            }
        }
        StateCommand::Set { key, value, agent } => {
            let text = if value == "-" {
                read_source("-".as_ref())?.trim_end_matches('\n').to_owned()
            } else {
                value
            };
            let value = parse_value(text);
            let redacted = haema_core::secrets::redact_state(&key, &mut value.clone());
            let state = memory.set_agent_state(&agent.agent_id, &key, value).await?;
            if let Some(receipt) = haema_core::secrets::receipt(&redacted) {
                eprintln!("haema: warning: {receipt}");
            }
            if agent.json {
                return output::json(&state);
            }
            print(&format!("{} = {}\n", state.key, one_line(&shown(&state.value))))
        }
        StateCommand::List { agent } => {
            let states = memory.list_agent_state(&agent.agent_id).await?;
            if agent.json {
                return output::json(&states);
            }
            if states.is_empty() {
                return print(&format!("Agent “{}” has no state.\n", agent.agent_id));
            }
            let text: String = states
                .iter()
                .map(|s| format!("{}  {} = {}\n", utc(s.updated_at_ms), s.key, one_line(&shown(&s.value))))
                .collect();
            print(&text)
        }
        StateCommand::Delete { key, agent } => {
            let deleted = memory.delete_agent_state(&agent.agent_id, &key).await?;
            if agent.json {
                return output::json(&serde_json::json!({ "deleted": deleted }));
            }
            if deleted {
                print(&format!("Deleted “{key}”.\n"))
            } else {
                anyhow::bail!("the state key “{key}” of agent “{}” is not set", agent.agent_id)
            }
        }
        StateCommand::History { key, agent } => {
            let changes = memory.agent_state_history(&agent.agent_id, &key).await?;
            if agent.json {
                return output::json(&changes);
            }
            if changes.is_empty() {
                return print(&format!(
                    "The state key “{key}” of agent “{}” was never set.\n",
                    agent.agent_id
                ));
            }
            let text: String = changes
                .iter()
                .map(|c| match &c.value {
                    Some(v) => format!("{}  = {}\n", utc(c.at_ms), one_line(&shown(v))),
                    None => format!("{}  deleted\n", utc(c.at_ms)),
                })
                .collect();
            print(&text)
        }
    }
}

/// A value as people read it: text as it is, anything else as JSON.
fn shown(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A value given on the command line: JSON when it is JSON, else the text. JSON holding a
/// number that a JSON number cannot keep exactly (more digits than 64 bits hold:
/// `123456789012345678901234567890`, `0.10000000000000000001`) is kept as the text, so
/// that nothing is silently rounded, and a note says so.
fn parse_value(text: String) -> Value {
    match serde_json::from_str::<Value>(&text) {
        Ok(value) => match inexact_number(&text) {
            None => value,
            Some(number) => {
                eprintln!(
                    "haema: note: {number} has more digits than a JSON number keeps exactly, so the value is kept as text, unrounded"
                );
                Value::String(text)
            }
        },
        Err(_) => Value::String(text),
    }
}

/// The first number written in the JSON `text` that does not survive being read as one.
fn inexact_number(text: &str) -> Option<&str> {
    let bytes = text.as_bytes();
    let (mut i, mut in_string) = (0, false);
    while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            match b {
                b'\\' => i += 1,
                b'"' => in_string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        if b == b'"' {
            in_string = true;
            i += 1;
            continue;
        }
        if b == b'-' || b.is_ascii_digit() {
            let start = i;
            while i < bytes.len() && matches!(bytes[i], b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') {
                i += 1;
            }
            let literal = &text[start..i];
            let exact = match serde_json::from_str::<serde_json::Number>(literal) {
                Ok(n) => match n.as_f64().filter(|_| n.is_f64()) {
                    Some(float) => canonical(literal) == canonical(&format!("{float}")),
                    None => true,
                },
                Err(_) => true,
            };
            if !exact {
                return Some(literal);
            }
            continue;
        }
        i += 1;
    }
    None
}

/// A decimal number as (negative, significant digits, power of ten), one form per value.
fn canonical(number: &str) -> (bool, String, i64) {
    let (negative, rest) = match number.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, number),
    };
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(at) => (&rest[..at], rest[at + 1..].parse::<i64>().unwrap_or(0)),
        None => (rest, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{whole}{fraction}");
    // Saturating: an exponent such as e-9223372036854775808 is valid JSON.
    let mut power = exponent.saturating_sub(i64::try_from(fraction.len()).unwrap_or(i64::MAX));
    let trimmed = digits.trim_start_matches('0');
    let significant = trimmed.trim_end_matches('0');
    power = power.saturating_add(i64::try_from(trimmed.len() - significant.len()).unwrap_or(i64::MAX));
    if significant.is_empty() {
        return (false, String::new(), 0);
    }
    (negative, significant.to_owned(), power)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_kept_exactly_or_as_text() {
        for exact in [
            "12345678901234567890",
            "9007199254740993",
            "-9223372036854775808",
            "1.5",
            "1e3",
            "0",
            "0.1",
            "{\"a\": [1, 2.25, \"12345678901234567890123\"]}",
        ] {
            assert_eq!(inexact_number(exact), None, "{exact}");
            assert_ne!(
                parse_value(exact.to_owned()),
                Value::String(exact.to_owned()),
                "{exact}"
            );
        }
        for inexact in [
            "123456789012345678901234567890",
            "-18446744073709551616",
            "0.10000000000000000001",
            "{\"n\": 123456789012345678901234567890}",
        ] {
            assert!(inexact_number(inexact).is_some(), "{inexact}");
            assert_eq!(parse_value(inexact.to_owned()), Value::String(inexact.to_owned()));
        }
        // Exponents at the ends of 64 bits: kept as text, no overflow.
        for extreme in [
            "1.5e-9223372036854775808",
            "10e9223372036854775807",
            "0.5e-9223372036854775808",
        ] {
            assert_eq!(
                parse_value(extreme.to_owned()),
                Value::String(extreme.to_owned()),
                "{extreme}"
            );
        }
        assert_eq!(canonical("1.50e2"), canonical("150"));
        assert_eq!(canonical("-0.0"), canonical("0"));
    }
}
