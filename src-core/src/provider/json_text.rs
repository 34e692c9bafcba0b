//! Finding the JSON object in a model's text: bare, fenced in ``` blocks, or inside chatter.

use serde_json::Value;

/// The first JSON object in `text`: the whole text, else a fenced block, else the first
/// balanced `{...}` that parses.
pub(crate) fn extract_object(text: &str) -> Option<Value> {
    let trimmed = text.trim();
    if let Ok(value @ Value::Object(_)) = serde_json::from_str(trimmed) {
        return Some(value);
    }
    let mut rest = trimmed;
    while let Some(start) = rest.find("```") {
        let after = &rest[start + 3..];
        let body_start = after.find('\n').map_or(0, |i| i + 1);
        let Some(end) = after[body_start..].find("```") else {
            break;
        };
        if let Ok(value @ Value::Object(_)) = serde_json::from_str(after[body_start..body_start + end].trim()) {
            return Some(value);
        }
        rest = &after[body_start + end + 3..];
    }
    let bytes = trimmed.as_bytes();
    let mut from = 0;
    while let Some(offset) = trimmed[from..].find('{') {
        let start = from + offset;
        if let Some(end) = balanced_end(&bytes[start..])
            && let Ok(value @ Value::Object(_)) = serde_json::from_str(&trimmed[start..start + end])
        {
            return Some(value);
        }
        from = start + 1;
    }
    None
}

/// Length of the balanced `{...}` at the start of `bytes`, honouring JSON strings.
fn balanced_end(bytes: &[u8]) -> Option<usize> {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (i, &b) in bytes.iter().enumerate() {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' => depth += 1,
            b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn finds_objects_in_the_shapes_small_models_answer_with() {
        assert_eq!(extract_object(r#"{"a": 1}"#), Some(json!({"a": 1})));
        assert_eq!(
            extract_object("Sure!\n```json\n{\"a\": [1, 2]}\n```\nAnything else?"),
            Some(json!({"a": [1, 2]}))
        );
        assert_eq!(
            extract_object("Here you go: {\"a\": \"x } y\", \"b\": {\"c\": 2}} hope it helps"),
            Some(json!({"a": "x } y", "b": {"c": 2}}))
        );
        assert_eq!(
            extract_object("```\nnot json\n```\n{\"ok\": true}"),
            Some(json!({"ok": true}))
        );
        assert_eq!(extract_object("no json here {broken"), None);
        assert_eq!(extract_object("[1, 2]"), None, "only objects are answers");
        assert_eq!(extract_object(""), None);
    }
}
