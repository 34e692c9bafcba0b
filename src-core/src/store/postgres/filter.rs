//! A [`MemoryFilter`] as SQL conditions on the memories aliased `m`, with numbered
//! parameters: a search, a page of `latest` or a recall only reads memories that pass.

use serde_json::Value;
use tokio_postgres::types::ToSql;

use crate::types::MemoryFilter;

/// Parameters built up with a statement, owned until it runs.
#[derive(Default)]
pub(super) struct Values(Vec<Box<dyn ToSql + Sync + Send>>);

impl Values {
    /// Adds a parameter; returns its placeholder (`$n`).
    pub(super) fn push(&mut self, value: impl ToSql + Sync + Send + 'static) -> String {
        self.0.push(Box::new(value));
        format!("${}", self.0.len())
    }

    /// The parameters as a statement takes them.
    pub(super) fn as_params(&self) -> Vec<&(dyn ToSql + Sync)> {
        self.0.iter().map(|b| b.as_ref() as &(dyn ToSql + Sync)).collect()
    }
}

/// The conditions of `filter`, each starting with ` AND `, their values added to `values`.
pub(super) fn conditions(filter: &MemoryFilter, values: &mut Values) -> String {
    let mut sql = String::new();
    for (column, value) in [
        ("memory_type", &filter.memory_type),
        ("source", &filter.source),
        ("agent_id", &filter.agent_id),
        ("session_id", &filter.session_id),
        ("user_id", &filter.user_id),
    ] {
        if let Some(value) = value {
            sql.push_str(&format!(" AND m.{column} = {}::text", values.push(value.clone())));
        }
    }
    if let Some(min) = filter.min_importance {
        sql.push_str(&format!(" AND m.importance >= {}::float8", values.push(min)));
    }
    if let Some(since) = filter.since_ms {
        sql.push_str(&format!(" AND m.created_at_ms >= {}::bigint", values.push(since)));
    }
    if let Some(until) = filter.until_ms {
        sql.push_str(&format!(" AND m.created_at_ms < {}::bigint", values.push(until)));
    }
    for (key, value) in &filter.metadata {
        let field = format!("(m.metadata::jsonb -> {}::text)", values.push(key.clone()));
        let kind = format!("jsonb_typeof({field})");
        let condition = match value {
            // A key that is missing or JSON null.
            Value::Null => format!("coalesce({kind}, 'null') = 'null'"),
            Value::Bool(b) => format!("{kind} = 'boolean' AND {field}::boolean = {}::boolean", values.push(*b)),
            Value::Number(n) => format!(
                "{kind} = 'number' AND {field}::numeric = {}::text::numeric",
                values.push(n.to_string())
            ),
            Value::String(s) => format!(
                "{kind} = 'string' AND ({field} #>> '{{}}') = {}::text",
                values.push(s.clone())
            ),
            // Refused by `MemoryFilter::checked`; never true here.
            Value::Array(_) | Value::Object(_) => "false".to_owned(),
        };
        sql.push_str(" AND ");
        sql.push_str(&condition);
    }
    sql
}
