//! The nine everyday journeys of a new user in the real TUI in tmux, without colour, at
//! 80×24 and 120×35: on the demo store, or with `HAEMA_TUI_JOURNEY_EXTRA` (a JSONL file of
//! memories, e.g. 100,000 of them) added to it while the window is open.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;
use crate::tui_tmux::{Tmux, shell_quote};

use std::time::Duration;

use common::*;

/// The nine everyday journeys of a new user on the demo store, at 80×24 without colour:
/// find what the assistant knows about food, review two changes, edit and lock USER, undo
/// an old change, delete and restore a memory, pin one, switch stores, learn keys from
/// help, quit and come back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_nine_journeys_at_80x24_without_colour() {
    nine_journeys(80, 24).await;
}

/// The same journeys at 120×35. With `HAEMA_TUI_JOURNEY_EXTRA` naming a JSONL file (e.g.
/// 100,000 memories older than the demo's), they run on the demo store with those added.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_nine_journeys_at_120x35_without_colour() {
    nine_journeys(120, 35).await;
}

/// How many memories the store holds now.
fn active(store: &std::path::Path) -> u64 {
    json_of(&haema(store, &[], &["status", "--json"], None))["active"]
        .as_u64()
        .unwrap()
}

async fn nine_journeys(width: u16, height: u16) {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().display().to_string();
    let open = |args: &str| {
        format!(
            "env -i PATH=/usr/bin:/bin HF_HUB_OFFLINE=1 NO_COLOR=1 TERM=screen-256color XDG_DATA_HOME={} {} {args}",
            shell_quote(&data),
            shell_quote(env!("CARGO_BIN_EXE_haema")),
        )
    };
    let tmux = Tmux::start(&open("demo"), width, height);
    tmux.wait_for("Review (2)").await;
    let store = dir.path().join("haema/demo");
    let cli = |args: &[&str]| ok(&haema(&store, &[], args, None));
    if let Ok(extra) = std::env::var("HAEMA_TUI_JOURNEY_EXTRA") {
        // Added while the window is open, as another writer would.
        cli(&["import", &extra]);
        tmux.keys(&["C-r"]);
    }

    // 1. Food: the profile's rule shows beside the hits.
    tmux.keys(&["2"]);
    tmux.text("food");
    let found = tmux.wait_for("In the profile").await;
    assert!(found.contains("Peanuts are a hard no"), "{found}");
    tmux.escape().await;

    // 2. Review two changes: y on each.
    tmux.keys(&["4"]);
    tmux.wait_for("+ Mina's teacher").await;
    tmux.keys(&["y"]);
    tmux.wait_for("Review (1)").await;
    tmux.keys(&["y"]);
    tmux.wait_for("approved changeset").await;
    // "4 Review (1)" holds "4 Review " too: wait for the count to go.
    tmux.wait_gone("Review (1)").await;
    tmux.wait_for("4 Review ").await;

    // 3. Edit and lock USER.
    tmux.keys(&["3"]);
    tmux.wait_for("SOUL    ").await;
    tmux.keys(&["G"]);
    tmux.wait_for("## Profile").await;
    tmux.keys(&["e"]);
    tmux.wait_for("Edit USER").await;
    tmux.keys(&["Enter"]);
    tmux.text("Prefers tea after rehearsals.");
    tmux.keys(&["C-s"]);
    tmux.wait_for("saved USER").await;
    tmux.keys(&["l"]);
    tmux.wait_for("USER locked").await;
    assert!(cli(&["core", "show"]).contains("Prefers tea after rehearsals"));

    // 4. Undo an older change from History (the first approval): the selection lands on
    // the revert.
    tmux.keys(&["5"]);
    tmux.wait_for("History · ").await;
    tmux.keys(&["j"]);
    tokio::time::sleep(Duration::from_millis(300)).await;
    tmux.keys(&["u"]);
    tmux.wait_for("Revert changeset").await;
    tmux.keys(&["y"]);
    tmux.wait_for("reverted changeset").await;
    tmux.wait_for("undo of #").await;

    // 5. Delete a memory, then z brings it back.
    tmux.keys(&["1"]);
    tmux.wait_for("lineage").await;
    let before = active(&store);
    tmux.keys(&["d"]);
    tmux.wait_for("Delete “").await;
    tmux.keys(&["y"]);
    tmux.wait_for("deleted the memory").await;
    assert_eq!(active(&store) + 1, before);
    tmux.keys(&["z"]);
    tmux.wait_for("reverted changeset").await;
    assert_eq!(active(&store), before, "z brought the memory back");

    // 6. Pin it, and z unpins.
    tmux.keys(&["g", "P"]);
    tmux.wait_for("pinned: no change replaces it").await;
    tmux.keys(&["z"]);
    tmux.wait_for("unpinned").await;

    // 7. Switch stores: a new one, then back.
    tmux.keys(&["6"]);
    tmux.wait_for("Stores in").await;
    tmux.keys(&["N"]);
    tmux.text("scratch");
    tmux.keys(&["Enter"]);
    tmux.wait_for("scratch").await;

    // 8. Learn keys from help: it opens at the view's keys, and / filters.
    tmux.keys(&["?"]);
    tmux.wait_for("Keys · / filters").await;
    tmux.text("/undo");
    // The title shows the filter as typed: wait for all of it, not the first key.
    let help = tmux.wait_for("Keys matching “undo").await;
    assert!(help.contains("undo the last change"), "{help}");
    tmux.keys(&["Enter"]);
    tmux.escape().await;
    tmux.escape().await;

    // 9. Quit and come back: the edit, the lock and the approvals are there.
    tmux.keys(&["q"]);
    tmux.wait_quit().await;
    let back = Tmux::start(&open("demo"), width, height);
    back.wait_for("demo").await;
    back.keys(&["3", "G"]);
    back.wait_for("Prefers tea after rehearsals").await;
    assert!(!back.screen().contains("Review ("), "{}", back.screen());
    back.keys(&["q"]);
}
