//! Snapshots of Review while captured conversations wait for an LLM: the empty view says
//! so, and the title counts them beside the changes.

use crate::tui::app::{Msg, fixtures};

use super::tests::{review, snap};

fn with_captures(mut app: crate::tui::app::App, pending: usize, captures: usize) -> crate::tui::app::App {
    app.update(Msg::Info(Box::new(haema_core::StoreInfo {
        captures_waiting: captures,
        ..fixtures::info(1234, pending)
    })));
    app
}

#[test]
fn review_says_what_captured_conversations_wait_for() {
    snap(
        "review_empty_captures_waiting",
        &with_captures(review(Vec::new(), 0), 0, 3),
    );
    snap(
        "review_normal_captures_waiting",
        &with_captures(review(vec![fixtures::merge(7)], 1), 1, 1),
    );
}
