//! Redacting the texts of what is about to be written: strings, JSON values, attributes,
//! proposals, changesets and memory records, counting what was replaced.

use std::fmt;

use serde::Serialize;
use serde_json::Value;

use super::{SecretKind, replace};
use crate::types::{Changeset, MemoryAttributes, MemoryRecord};

const KINDS: usize = SecretKind::ALL.len();

/// How many secrets of each kind were replaced: the receipt (never the secrets).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SecretTally {
    counts: [u32; KINDS],
}

impl SecretTally {
    /// Counts one secret of `kind`.
    pub(crate) fn count(&mut self, kind: SecretKind) {
        if let Some(i) = SecretKind::ALL.iter().position(|k| *k == kind) {
            self.counts[i] += 1;
        }
    }

    /// True when nothing was replaced.
    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }

    /// Secrets replaced, of every kind.
    pub fn total(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// Each kind replaced, with its count.
    pub fn kinds(&self) -> Vec<(SecretKind, u32)> {
        SecretKind::ALL
            .iter()
            .zip(self.counts)
            .filter(|(_, n)| *n > 0)
            .map(|(k, n)| (*k, n))
            .collect()
    }

    /// Adds what `other` counted.
    pub fn merge(&mut self, other: &Self) {
        for (mine, theirs) in self.counts.iter_mut().zip(other.counts) {
            *mine += theirs;
        }
    }

    /// Replaces the secrets of `text` in place.
    pub(crate) fn string(&mut self, text: &mut String) {
        if let Some(clean) = replace(text, self) {
            *text = clean;
        }
    }

    pub(crate) fn option(&mut self, text: &mut Option<String>) {
        if let Some(text) = text {
            self.string(text);
        }
    }

    /// Replaces the secrets of every string in a JSON value, keys included.
    pub(crate) fn value(&mut self, value: &mut Value) {
        match value {
            Value::String(text) => self.string(text),
            Value::Array(items) => items.iter_mut().for_each(|v| self.value(v)),
            Value::Object(map) => {
                let entries = std::mem::take(map);
                for (key, item) in entries {
                    let (key, item) = self.entry(key, item);
                    map.insert(key, item);
                }
            }
            _ => {}
        }
    }

    /// One entry of a JSON object: its key redacted, and its value too; a text under a key
    /// that names a secret (`password`, `db_password`, `API_TOKEN`) is replaced whole,
    /// when it could be one ([`super::values::secret_named_by`]).
    fn entry(&mut self, mut key: String, mut item: Value) -> (String, Value) {
        self.value(&mut item);
        self.named(&key, &mut item);
        self.string(&mut key);
        (key, item)
    }

    /// Replaces whole a text value under `name` (a JSON key, an agent-state key) that
    /// names a secret, when it could be one ([`super::values::is_named_secret`]).
    pub(crate) fn named(&mut self, name: &str, item: &mut Value) {
        let Some(named) = super::values::secret_named_by(name) else {
            return;
        };
        // A PIN given as a JSON number (`state set bank_pin 4827`) is its digits.
        let text = match item {
            Value::String(text) => text.clone(),
            Value::Number(n) if named.kind == SecretKind::Pin => n.to_string(),
            _ => return,
        };
        if super::values::is_named_secret(named, &text) {
            *item = Value::String(named.kind.marker());
            self.count(named.kind);
        }
    }

    /// The free text of attributes: the source and the metadata, keys included. The ids
    /// (agent, session, user) name who wrote and whom a memory is about: reads and scopes
    /// match them as they are, so one holding a secret is refused instead
    /// ([`super::refuse_in_name`]).
    pub(crate) fn attributes(&mut self, attributes: &mut MemoryAttributes) {
        self.option(&mut attributes.source);
        let metadata = std::mem::take(&mut attributes.metadata);
        for (key, item) in metadata {
            let (key, item) = self.entry(key, item);
            attributes.metadata.insert(key, item);
        }
    }
    /// Everything of a changeset brought in from elsewhere (an export).
    pub(crate) fn changeset(&mut self, changeset: &mut Changeset) {
        self.option(&mut changeset.raw_input);
        changeset.inputs.iter_mut().for_each(|t| self.string(t));
        for item in &mut changeset.related {
            self.string(&mut item.content);
        }
        for item in &mut changeset.proposed {
            self.string(&mut item.content);
            self.attributes(&mut item.attributes);
        }
        self.option(&mut changeset.core_before);
        self.option(&mut changeset.core_after);
        for call in &mut changeset.llm_calls {
            if let Some(answer) = &mut call.answer {
                self.value(answer);
            }
            self.option(&mut call.error);
        }
        changeset.warnings.iter_mut().for_each(|t| self.string(t));
        self.attributes(&mut changeset.attributes);
    }

    /// A memory brought in from elsewhere (an export).
    pub(crate) fn memory(&mut self, memory: &mut MemoryRecord) {
        self.string(&mut memory.content);
        self.attributes(&mut memory.attributes);
    }
}

/// `1 aws access key, 2 github tokens`.
impl fmt::Display for SecretTally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self
            .kinds()
            .into_iter()
            .map(|(kind, n)| {
                let plural = if n == 1 { "" } else { "s" };
                format!("{n} {kind}{plural}")
            })
            .collect();
        f.write_str(&parts.join(", "))
    }
}

/// Serialised as `{"aws access key": 1, …}`.
impl Serialize for SecretTally {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let kinds = self.kinds();
        let mut map = serializer.serialize_map(Some(kinds.len()))?;
        for (kind, n) in kinds {
            map.serialize_entry(kind.as_str(), &n)?;
        }
        map.end()
    }
}
