//! The answer types of the three LLM stages: JSON schemas and validation.

use serde::Deserialize;
use serde_json::{Value, json};

/// Trims items, drops empty ones and exact duplicates (first wins, order kept).
pub(crate) fn normalize(items: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    items
        .into_iter()
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty() && seen.insert(s.clone()))
        .collect()
}

/// `{contents: [string]}`.
#[derive(Debug, Deserialize)]
pub(crate) struct PreSplit {
    pub contents: Vec<String>,
}

/// Whether the reconstruction covers everything.
#[derive(Debug, Deserialize, PartialEq, Eq, Clone, Copy)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Coverage {
    Complete,
    Incomplete,
}

/// `{memories: [string], coverage: "complete" | "incomplete"}`.
#[derive(Debug, Deserialize)]
pub(crate) struct Reconstruction {
    pub memories: Vec<String>,
    pub coverage: Coverage,
}

/// `{should_update: bool, core_markdown: string | null}`.
#[derive(Debug, Deserialize)]
pub(crate) struct CoreUpdate {
    pub should_update: bool,
    pub core_markdown: Option<String>,
}

pub(crate) fn pre_split_schema() -> Value {
    json!({
        "type": "object",
        "properties": {"contents": {"type": "array", "items": {"type": "string"}, "description": "Self-contained memory items."}},
        "required": ["contents"],
        "additionalProperties": false
    })
}

pub(crate) fn reconstruct_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "memories": {"type": "array", "items": {"type": "string"}, "description": "Every memory that should exist from now on in place of the related memories."},
            "coverage": {"type": "string", "enum": ["complete", "incomplete"], "description": "complete only if nothing is missing."}
        },
        "required": ["memories", "coverage"],
        "additionalProperties": false
    })
}

pub(crate) fn core_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "should_update": {"type": "boolean"},
            "core_markdown": {"type": ["string", "null"], "description": "The whole new core.md when should_update is true."}
        },
        "required": ["should_update", "core_markdown"],
        "additionalProperties": false
    })
}

/// Parses an answer into a stage type, saying what was wrong.
pub(crate) fn parse<T: serde::de::DeserializeOwned>(answer: &Value) -> Result<T, String> {
    T::deserialize(answer).map_err(|e| format!("answer does not match the schema: {e}"))
}

/// A reconstruction is accepted iff it is complete and non-empty after normalisation.
pub(crate) fn accept_reconstruction(answer: &Value) -> Result<Vec<String>, String> {
    let parsed: Reconstruction = parse(answer)?;
    let memories = normalize(parsed.memories);
    if memories.is_empty() {
        return Err("the answer holds no memories".into());
    }
    if parsed.coverage != Coverage::Complete {
        return Err("the model reported its answer as incomplete".into());
    }
    Ok(memories)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_trims_drops_empty_and_dedupes_in_order() {
        let items = ["  b ", "a", "", "b", "   ", "A"].map(String::from);
        assert_eq!(normalize(items), vec!["b", "a", "A"]);
    }

    #[test]
    fn coverage_rejects_other_values() {
        assert!(parse::<Reconstruction>(&json!({"memories": ["x"], "coverage": "partial"})).is_err());
        assert!(accept_reconstruction(&json!({"memories": ["x"], "coverage": "incomplete"})).is_err());
        assert!(accept_reconstruction(&json!({"memories": [" ", ""], "coverage": "complete"})).is_err());
        assert_eq!(
            accept_reconstruction(&json!({"memories": [" x "], "coverage": "complete"})).unwrap(),
            vec!["x"]
        );
        assert!(
            parse::<Reconstruction>(&json!("{\"memories\": []}")).is_err(),
            "a JSON string is not an object"
        );
    }

    #[test]
    fn core_update_shapes() {
        assert!(parse::<CoreUpdate>(&json!({"should_update": true, "core_markdown": null})).is_ok());
        assert!(parse::<CoreUpdate>(&json!({"should_update": "yes"})).is_err());
    }
}
