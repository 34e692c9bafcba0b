//! Text rules shared by the engine: which characters hide text (`chars`), the words both
//! stores index (`terms`), how a phrase is found whatever form it was written in, the form
//! a reader gets, and which text a JSON value holds.

pub(crate) mod chars;
pub(crate) mod fold;
pub(crate) mod phrase;
pub(crate) mod terms;
pub(crate) mod visible;

pub(crate) use phrase::Phrase;

/// Every string of a JSON value, its object keys included, in order.
pub(crate) fn json_strings<'a>(value: &'a serde_json::Value, out: &mut Vec<&'a str>) {
    match value {
        serde_json::Value::String(s) => out.push(s),
        serde_json::Value::Array(items) => items.iter().for_each(|v| json_strings(v, out)),
        serde_json::Value::Object(map) => map.iter().for_each(|(k, v)| {
            out.push(k);
            json_strings(v, out);
        }),
        _ => {}
    }
}
