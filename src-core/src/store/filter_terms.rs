//! What a [`MemoryFilter`] asks of a memory, term by term, in neither backend's SQL: the one
//! list of the columns a filter reads and how each is compared. `store/sqlite/filter.rs` and
//! `store/postgres/filter.rs` each write these terms in their own dialect.

use serde_json::Value;

use crate::types::MemoryFilter;

/// One condition a memory must meet.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum FilterTerm<'a> {
    /// A text attribute's column equals the value.
    Equals { column: &'static str, value: &'a str },
    /// `importance` is at least this.
    MinImportance(f64),
    /// Made at or after this time (Unix ms).
    Since(i64),
    /// Made before this time (Unix ms).
    Until(i64),
    /// The metadata key holds this JSON value (`null`: the key is missing or null).
    Metadata { key: &'a str, value: &'a Value },
}

/// The terms of `filter`, in a fixed order: text attributes, importance, times, metadata keys.
pub(crate) fn filter_terms(filter: &MemoryFilter) -> Vec<FilterTerm<'_>> {
    let mut terms = Vec::new();
    for (column, value) in [
        ("memory_type", &filter.memory_type),
        ("source", &filter.source),
        ("agent_id", &filter.agent_id),
        ("session_id", &filter.session_id),
        ("user_id", &filter.user_id),
    ] {
        if let Some(value) = value {
            terms.push(FilterTerm::Equals { column, value });
        }
    }
    terms.extend(filter.min_importance.map(FilterTerm::MinImportance));
    terms.extend(filter.since_ms.map(FilterTerm::Since));
    terms.extend(filter.until_ms.map(FilterTerm::Until));
    terms.extend(
        filter
            .metadata
            .iter()
            .map(|(key, value)| FilterTerm::Metadata { key, value }),
    );
    terms
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_field_of_a_filter_becomes_a_term() {
        let filter: MemoryFilter = serde_json::from_value(json!({
            "memory_type": "fact", "source": "chat", "agent_id": "a", "session_id": "s", "user_id": "u",
            "min_importance": 0.5, "since_ms": 1, "until_ms": 2, "metadata": {"k": true}
        }))
        .unwrap();
        let terms = filter_terms(&filter);
        assert_eq!(terms.len(), 9);
        assert_eq!(
            terms[0],
            FilterTerm::Equals {
                column: "memory_type",
                value: "fact"
            }
        );
        assert_eq!(
            terms[8],
            FilterTerm::Metadata {
                key: "k",
                value: &json!(true)
            }
        );
        assert!(filter_terms(&MemoryFilter::default()).is_empty());
    }
}
