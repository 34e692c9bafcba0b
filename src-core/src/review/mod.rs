//! How changes read for a person, shared by every front end: word and line diffs, the
//! review view of a changeset, and the history of one core section.

pub mod diff;
pub mod section_history;
pub mod view;

pub use diff::{Change, Piece};
pub use section_history::{SectionChange, section_history};
pub use view::{ChangesetView, ItemView, SHOWN_ITEMS, partner};
