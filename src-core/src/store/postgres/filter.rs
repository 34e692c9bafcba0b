//! A [`MemoryFilter`] as SQL conditions on the memories aliased `m`, with numbered
//! parameters: a search, a page of `latest` or a recall only reads memories that pass.

use serde_json::Value;
use tokio_postgres::types::ToSql;

use crate::store::filter_terms::{FilterTerm, filter_terms};
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
    for term in filter_terms(filter) {
        let condition = match term {
            FilterTerm::Equals { column, value } => format!("m.{column} = {}::text", values.push(value.to_owned())),
            FilterTerm::MinImportance(min) => format!("m.importance >= {}::float8", values.push(min)),
            FilterTerm::Since(since) => format!("m.created_at_ms >= {}::bigint", values.push(since)),
            FilterTerm::Until(until) => format!("m.created_at_ms < {}::bigint", values.push(until)),
            FilterTerm::Metadata { key, value } => {
                let field = format!("(m.metadata::jsonb -> {}::text)", values.push(key.to_owned()));
                let kind = format!("jsonb_typeof({field})");
                match value {
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
                }
            }
        };
        sql.push_str(" AND ");
        sql.push_str(&condition);
    }
    sql
}
