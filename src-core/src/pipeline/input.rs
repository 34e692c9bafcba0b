//! What `add()` is given.

/// What `add()` was given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AddInput {
    /// One text: split into items by the LLM, unless it already is one short fact (one
    /// short sentence with no sign of a list; see `short_fact`), which is taken as it is.
    Text(String),
    /// Items taken as they are.
    Items(Vec<String>),
}

impl From<&str> for AddInput {
    fn from(text: &str) -> Self {
        Self::Text(text.to_owned())
    }
}

impl From<String> for AddInput {
    fn from(text: String) -> Self {
        Self::Text(text)
    }
}

impl From<Vec<String>> for AddInput {
    fn from(items: Vec<String>) -> Self {
        Self::Items(items)
    }
}

impl AddInput {
    /// Refuses a text or item larger than one memory may be (as given, or once its secrets
    /// are replaced by markers: [`crate::limits::check_memory_size`]).
    pub(crate) fn check_size(&self) -> crate::error::Result<()> {
        match self {
            Self::Text(text) => crate::limits::check_memory_size(text.trim()),
            Self::Items(items) => items
                .iter()
                .enumerate()
                .try_for_each(|(i, item)| crate::limits::check_memory_size_of(item.trim(), &format!("item {}", i + 1))),
        }
    }

    /// The input with its secrets replaced by markers, counted into `tally`.
    pub(crate) fn redacted(mut self, tally: &mut crate::secrets::SecretTally) -> Self {
        match &mut self {
            Self::Text(text) => tally.string(text),
            Self::Items(items) => items.iter_mut().for_each(|t| tally.string(t)),
        }
        self
    }
}

impl From<&[&str]> for AddInput {
    fn from(items: &[&str]) -> Self {
        Self::Items(items.iter().map(|s| (*s).to_owned()).collect())
    }
}
