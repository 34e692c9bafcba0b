//! Ids: a memory's, a changeset's and a core version's are different types, so one is never
//! passed where another is meant. Each serialises as the plain value it wraps.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A memory's id: a UUID v4, kept by a memory that a merge carries over unchanged.
///
/// ```
/// use haema_core::MemoryId;
/// let id = MemoryId::from("0b6c1a5e-3f0e-4a36-9d3c-2f8d2d6b9a11");
/// assert_eq!(id, "0b6c1a5e-3f0e-4a36-9d3c-2f8d2d6b9a11");
/// assert_eq!(serde_json::to_string(&id)?, r#""0b6c1a5e-3f0e-4a36-9d3c-2f8d2d6b9a11""#);
/// assert_ne!(MemoryId::generate(), MemoryId::generate());
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(transparent)]
pub struct MemoryId(String);

impl MemoryId {
    /// A new random id.
    pub fn generate() -> Self {
        Self(uuid::Uuid::new_v4().to_string())
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<String> for MemoryId {
    fn from(id: String) -> Self {
        Self(id)
    }
}

impl From<&str> for MemoryId {
    fn from(id: &str) -> Self {
        Self(id.to_owned())
    }
}

impl From<MemoryId> for String {
    fn from(id: MemoryId) -> Self {
        id.0
    }
}

impl fmt::Display for MemoryId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl AsRef<str> for MemoryId {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl PartialEq<str> for MemoryId {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for MemoryId {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

/// Declares an id that is a positive integer given out by the store.
macro_rules! number_id {
    ($(#[$meta:meta])* $name:ident, $what:literal) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[cfg_attr(feature = "specta", derive(specta::Type))]
        #[serde(transparent)]
        pub struct $name(i64);

        impl $name {
            /// The id as the number the store gave out.
            pub fn get(self) -> i64 {
                self.0
            }
        }

        impl From<i64> for $name {
            fn from(id: i64) -> Self {
                Self(id)
            }
        }

        impl From<$name> for i64 {
            fn from(id: $name) -> Self {
                id.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.fmt(f)
            }
        }

        /// Accepts `12` and `#12`.
        impl FromStr for $name {
            type Err = crate::types::invalid::Invalid;
            fn from_str(text: &str) -> Result<Self, Self::Err> {
                let digits = text.trim().trim_start_matches('#');
                digits.parse::<i64>().ok().filter(|&n| n > 0).map(Self).ok_or_else(|| {
                    crate::types::invalid::Invalid::Argument(format!(
                        concat!("`{}` is not a ", $what, " id: ids are whole numbers from 1, like 12"),
                        text
                    ))
                })
            }
        }
    };
}

number_id!(
    /// A changeset's id, increasing with every changeset of a store.
    ///
    /// ```
    /// use haema_core::ChangesetId;
    /// let id: ChangesetId = "#12".parse()?; // as people write it; `12` works too
    /// assert_eq!((id.get(), id.to_string()), (12, "12".to_string()));
    /// assert!("twelve".parse::<ChangesetId>().is_err());
    /// # Ok::<(), haema_core::Error>(())
    /// ```
    ChangesetId,
    "changeset"
);

number_id!(
    /// A core.md version's id, increasing with every version.
    CoreVersionId,
    "core version"
);

impl ChangesetId {
    /// The id of a changeset that is not in the store yet (inserting it gives it one).
    pub(crate) const UNSAVED: Self = Self(0);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn number_ids_parse_with_or_without_a_hash_and_refuse_the_rest() {
        assert_eq!("12".parse::<ChangesetId>().unwrap(), ChangesetId::from(12));
        assert_eq!(" #7 ".parse::<ChangesetId>().unwrap().get(), 7);
        for bad in ["", "0", "-3", "x", "1.5"] {
            let error = bad.parse::<ChangesetId>().unwrap_err().to_string();
            assert!(error.contains("is not a changeset id"), "{bad}: {error}");
        }
    }

    #[test]
    fn ids_serialise_as_their_plain_values() {
        assert_eq!(serde_json::to_string(&ChangesetId::from(3)).unwrap(), "3");
        assert_eq!(serde_json::to_string(&MemoryId::from("a-b")).unwrap(), "\"a-b\"");
        assert_eq!(serde_json::from_str::<CoreVersionId>("9").unwrap().get(), 9);
    }
}
