//! The core profile: its four sections and the versions of core.md.

use serde::{Deserialize, Serialize};

use super::{ChangesetId, CoreVersionId, UnknownValue};

/// The four core sections.
///
/// ```
/// use haema_core::Section;
/// assert_eq!("user".parse::<Section>()?, Section::User); // any letter case
/// assert_eq!(Section::ALL.map(Section::name), ["SOUL", "TOOLS", "RULE", "USER"]);
/// # Ok::<(), haema_core::UnknownValue>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(rename_all = "UPPERCASE")]
pub enum Section {
    /// Lasting identity, mission and communication style.
    Soul,
    /// Lasting tool capabilities and how to use them.
    Tools,
    /// Hard constraints, mandatory checks, priorities.
    Rule,
    /// Stable user profile and preferences.
    User,
}

impl Section {
    /// All sections in file order.
    pub const ALL: [Self; 4] = [Self::Soul, Self::Tools, Self::Rule, Self::User];

    /// The heading name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Soul => "SOUL",
            Self::Tools => "TOOLS",
            Self::Rule => "RULE",
            Self::User => "USER",
        }
    }
}

impl std::fmt::Display for Section {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Accepts the heading name in any case (`user`, `USER`).
impl std::str::FromStr for Section {
    type Err = UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|x| x.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownValue {
                what: "core section",
                value: s.to_owned(),
                expected: &["SOUL", "TOOLS", "RULE", "USER"],
            })
    }
}

closed_set! {
    /// Who wrote a version of core.md.
    pub enum CoreAuthor ("core version author") {
        /// The template a new store starts with.
        Initial = "initial",
        /// The LLM, in a committed changeset.
        Llm = "llm",
        /// A person, through haema (an edit, a lock, a revert, going back to a version).
        User = "user",
        /// Someone who edited core.md outside haema; found when haema next read it.
        External = "external",
    }
}

/// One version of core.md.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct CoreVersion {
    /// Version id, increasing.
    pub id: CoreVersionId,
    /// Full text.
    pub content: String,
    /// Who wrote it.
    pub author: CoreAuthor,
    /// The changeset that made it, for LLM and revert versions.
    pub changeset_id: Option<ChangesetId>,
    /// When (Unix ms).
    pub created_at_ms: i64,
}
