//! The history of one core section: the versions of core.md in which its text changed,
//! each with a line diff against the text before, for rolling a section back.

use serde::Serialize;

use crate::review::diff::{self, Piece};
use crate::types::core_md::CoreSections;
use crate::types::{ChangesetId, CoreAuthor, CoreVersion, CoreVersionId, Section};

/// One text a section had.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct SectionChange {
    /// The core.md version that brought this text.
    pub version_id: CoreVersionId,
    /// When (Unix ms).
    pub created_at_ms: i64,
    /// `llm`, `user`, `external` or `initial`.
    pub author: CoreAuthor,
    /// The changeset that made it, for LLM and revert versions.
    pub changeset_id: Option<ChangesetId>,
    /// The section's text in that version.
    pub text: String,
    /// Line diff from the text before.
    pub diff: Vec<Piece>,
}

/// The texts `section` had, newest first, from `versions` in any order. Versions whose
/// core.md cannot be parsed (an outside edit that broke the headings) are skipped.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
/// use haema_core::{Section, section_history};
/// memory.set_core_section(Section::User, "Ana.").await?;
/// memory.set_core_section(Section::User, "Ana, vegetarian.").await?;
/// let history = section_history(&memory.core_versions().await?, Section::User);
/// let texts: Vec<&str> = history.iter().map(|c| c.text.as_str()).collect();
/// assert_eq!(texts, ["Ana, vegetarian.", "Ana.", ""]); // newest first, back to the template
/// # Ok(()) }
/// ```
pub fn section_history(versions: &[CoreVersion], section: Section) -> Vec<SectionChange> {
    let mut sorted: Vec<&CoreVersion> = versions.iter().collect();
    sorted.sort_by_key(|v| v.id);
    let mut out: Vec<SectionChange> = Vec::new();
    let mut previous: Option<String> = None;
    for version in sorted {
        let Ok(sections) = CoreSections::parse(&version.content) else {
            continue;
        };
        let text = sections.get(section).to_owned();
        if previous.as_deref() == Some(text.as_str()) {
            continue;
        }
        out.push(SectionChange {
            version_id: version.id,
            created_at_ms: version.created_at_ms,
            author: version.author,
            changeset_id: version.changeset_id,
            diff: diff::lines(previous.as_deref().unwrap_or_default(), &text),
            text: text.clone(),
        });
        previous = Some(text);
    }
    out.reverse();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::diff::Change;

    fn version(id: i64, user: &str) -> CoreVersion {
        CoreVersion {
            id: CoreVersionId::from(id),
            content: format!("# SOUL\nCalm.\n\n# TOOLS\n\n# RULE\n\n# USER\n{user}\n"),
            author: if id == 1 { CoreAuthor::Initial } else { CoreAuthor::User },
            changeset_id: None,
            created_at_ms: id * 1000,
        }
    }

    #[test]
    fn only_versions_that_changed_the_section_are_listed_newest_first() {
        let mut versions = vec![
            version(3, "- Likes jazz.\n- Plays cello."),
            version(1, ""),
            version(2, "- Likes jazz."),
        ];
        versions.push(CoreVersion {
            content: "no headings at all".into(),
            ..version(4, "")
        });
        let user = section_history(&versions, Section::User);
        let ids: Vec<i64> = user.iter().map(|c| c.version_id.get()).collect();
        assert_eq!(ids, vec![3, 2, 1]);
        let kinds: Vec<(Change, &str)> = user[0].diff.iter().map(|p| (p.change, p.text.as_str())).collect();
        assert_eq!(
            kinds,
            vec![(Change::Same, "- Likes jazz."), (Change::Added, "- Plays cello.")]
        );
        let soul = section_history(&versions, Section::Soul);
        assert_eq!(soul.len(), 1, "SOUL never changed after the first version");
        assert_eq!(soul[0].text, "Calm.");
    }
}
