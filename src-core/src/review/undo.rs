//! What an undo left in place: the profile sections an undone change had changed that
//! were changed again since, so the undo kept them as they are (`Memory::revert` says so
//! only in a warning of the undoing change).

use crate::types::core_md::CoreSections;
use crate::types::{Changeset, Section};

/// The profile sections `undone` changed that `revert` (the change that undid it) did not
/// set back, because they had been changed again since: the part of the undo that was
/// skipped. Empty when the undo was whole.
pub fn revert_left(undone: &Changeset, revert: &Changeset) -> Vec<Section> {
    let parse = |text: &Option<String>| text.as_deref().and_then(|t| CoreSections::parse(t).ok());
    let (Some(before), Some(after)) = (parse(&undone.core_before), parse(&undone.core_after)) else {
        return Vec::new();
    };
    let undo = parse(&revert.core_before).zip(parse(&revert.core_after));
    Section::ALL
        .into_iter()
        .filter(|&s| before.get(s) != after.get(s))
        .filter(|&s| undo.as_ref().is_none_or(|(from, to)| from.get(s) == to.get(s)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{ChangesetKind, ChangesetStatus, Outcome};

    fn change(before: &str, after: &str) -> Changeset {
        let core = |user: &str| Some(format!("# SOUL\n\n# TOOLS\n\n# RULE\n\n# USER\n{user}\n"));
        Changeset {
            core_before: core(before),
            core_after: core(after),
            ..Changeset::empty(
                ChangesetKind::Add,
                ChangesetStatus::Committed,
                Outcome::Reconstructed,
                0,
            )
        }
    }

    #[test]
    fn a_section_changed_again_since_is_what_the_undo_left() {
        let undone = change("- Tea.", "- Coffee.");
        let whole = change("- Coffee.", "- Tea.");
        assert!(revert_left(&undone, &whole).is_empty());
        let skipped = Changeset {
            core_before: None,
            core_after: None,
            ..whole
        };
        assert_eq!(revert_left(&undone, &skipped), [Section::User]);
        let no_profile = Changeset {
            core_before: None,
            core_after: None,
            ..undone.clone()
        };
        assert!(revert_left(&no_profile, &skipped).is_empty());
    }
}
