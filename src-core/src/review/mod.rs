//! How changes read for a person, shared by every front end: word and line diffs, the
//! review view of a changeset, the history of one core section, what an undo left in place,
//! and the profile lines a search's words are in.

pub mod diff;
pub mod profile_lines;
pub mod section_history;
pub mod undo;
pub mod view;

pub use diff::{Change, Piece};
pub use profile_lines::{ProfileLine, profile_lines};
pub use section_history::{SectionChange, section_history};
pub use undo::revert_left;
pub use view::{ChangeCount, ChangesetView, ItemView, SHOWN_ITEMS, partner};
