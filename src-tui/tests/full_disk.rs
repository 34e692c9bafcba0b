//! A full disk: the write that does not fit fails with a clear message and changes nothing;
//! everything written before stays readable, and writing works again once there is room.
//! The disk is a small tmpfs, which needs root (CI runs as root); elsewhere the test says it
//! was skipped and why.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::path::PathBuf;
use std::process::Command;

use common::*;

/// A small tmpfs, unmounted (and its folder removed) when dropped.
struct Disk {
    path: PathBuf,
    _dir: tempfile::TempDir,
}

impl Disk {
    /// Mounts a tmpfs of `size`; `None`, said as a skip of `test`, where it cannot be (it
    /// needs root).
    fn mount(size: &str, test: &str) -> Option<Self> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("disk");
        std::fs::create_dir_all(&path).unwrap();
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(&path)
            .output()
            .map_err(|e| e.to_string())
            .and_then(|out| {
                if out.status.success() {
                    Ok(())
                } else {
                    Err(String::from_utf8_lossy(&out.stderr).trim().to_owned())
                }
            });
        match out {
            Ok(()) => Some(Self { path, _dir: dir }),
            Err(why) => {
                eprintln!("SKIPPED {test}: cannot mount a tmpfs ({why}); it needs root");
                None
            }
        }
    }

    /// Bytes still free on it.
    fn free(&self) -> u64 {
        let out = Command::new("df")
            .args(["--output=avail", "-B1"])
            .arg(&self.path)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .nth(1)
            .unwrap()
            .trim()
            .parse::<u64>()
            .unwrap()
    }

    /// Fills it but for `room` bytes; the filler file is returned, to remove.
    fn fill_but(&self, room: u64) -> PathBuf {
        let filler = self.path.join("filler");
        std::fs::write(
            &filler,
            vec![0u8; usize::try_from(self.free().saturating_sub(room)).unwrap()],
        )
        .unwrap();
        filler
    }
}

impl Drop for Disk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.path).status();
    }
}

#[test]
fn a_full_disk_refuses_the_write_clearly_and_loses_nothing() {
    let Some(disk) = Disk::mount("4m", "a_full_disk_refuses_the_write_clearly_and_loses_nothing") else {
        return;
    };
    let store = disk.path.join("store");
    ok(&haema(
        &store,
        &[],
        &["add", "--items", "The user likes quiet mornings"],
        None,
    ));
    // Leave a little room: the store opens, but the next big write does not fit.
    let filler = disk.fill_but(256 * 1024);

    let big: Vec<String> = (0..400)
        .map(|i| format!("Fact {i}: {}", "a long note about the garden ".repeat(40)))
        .collect();
    let mut args = vec!["add", "--items"];
    args.extend(big.iter().map(String::as_str));
    let full = haema(&store, &[], &args, None);
    assert_eq!(full.status.code(), Some(1), "{}", stderr(&full));
    let message = stderr(&full);
    assert!(message.contains("disk holding the store is full"), "{message}");
    assert!(message.contains("nothing was changed"), "{message}");
    assert!(!message.contains("internal error"), "{message}");

    // Reading still works, and nothing written before is lost.
    assert_eq!(
        contents(&json_of(&haema(&store, &[], &["latest", "--json"], None))),
        vec!["The user likes quiet mornings"]
    );
    let exported = ok(&haema(&store, &[], &["export"], None));
    assert!(exported.contains("quiet mornings"));

    // With room again, the same write goes through.
    std::fs::remove_file(&filler).unwrap();
    ok(&haema(&store, &[], &args, None));
    let status = json_of(&haema(&store, &[], &["status", "--json"], None));
    assert_eq!(status["active"], 401, "{status}");
}

#[test]
fn a_read_only_store_can_be_read_and_says_why_it_cannot_be_changed() {
    let Some(disk) = Disk::mount("16m", "a_read_only_store_can_be_read_and_says_why_it_cannot_be_changed") else {
        return;
    };
    let store = disk.path.join("store");
    ok(&haema(
        &store,
        &[],
        &[
            "add",
            "--items",
            "The user likes quiet mornings",
            "The user reads at night",
        ],
        None,
    ));
    for keep_logs in [false, true] {
        if !keep_logs {
            // A clean copy: no log files beside the database.
            let _ = std::fs::remove_file(store.join("memory.db-wal"));
            let _ = std::fs::remove_file(store.join("memory.db-shm"));
        }
        let remount = |mode: &str| {
            let out = Command::new("mount")
                .args(["-o", &format!("remount,{mode}")])
                .arg(&disk.path)
                .output()
                .unwrap();
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        };
        remount("ro");
        let listed = haema(&store, &[], &["latest", "--json"], None);
        assert!(listed.status.success(), "logs: {keep_logs}: {}", stderr(&listed));
        assert_eq!(contents(&json_of(&listed)).len(), 2);
        assert!(stderr(&listed).contains("read-only"), "{}", stderr(&listed));
        let found = haema(&store, &[], &["search", "quiet", "--json"], None);
        assert!(found.status.success(), "{}", stderr(&found));
        assert_eq!(contents(&json_of(&found)), vec!["The user likes quiet mornings"]);
        ok(&haema(&store, &[], &["core", "show"], None));
        ok(&haema(&store, &[], &["history"], None));
        let export = haema(&store, &[], &["export"], None);
        assert!(
            export.status.success() && !export.stdout.is_empty(),
            "{}",
            stderr(&export)
        );
        let refused = haema(&store, &[], &["add", "--items", "Something new"], None);
        assert!(!refused.status.success());
        let err = stderr(&refused);
        assert!(err.contains("read-only") && !err.contains("panicked"), "{err}");
        remount("rw");
    }
}

#[test]
fn a_forget_on_a_full_disk_says_it_was_done_and_what_the_next_open_finishes() {
    let Some(disk) = Disk::mount(
        "8m",
        "a_forget_on_a_full_disk_says_it_was_done_and_what_the_next_open_finishes",
    ) else {
        return;
    };
    let store = disk.path.join("store");
    let facts: Vec<String> = (0..300)
        .map(|i| {
            format!(
                "Garden note {i}: {}",
                "the roses by the north wall need water ".repeat(8)
            )
        })
        .collect();
    let mut args = vec!["add", "--items"];
    args.extend(facts.iter().map(String::as_str));
    ok(&haema(&store, &[], &args, None));
    // A change of its own: the forget rewrites only it, a few pages.
    ok(&haema(
        &store,
        &[],
        &["add", "--items", "The user's locker code is Qvortex-4417"],
        None,
    ));
    // Room for the forget's own small write, not for the copy of the database its scrub makes.
    let filler = disk.fill_but(300 * 1024);

    let forgot = haema(&store, &[], &["forget", "--mentioning", "Qvortex-4417", "--yes"], None);
    let said = format!("{}{}", String::from_utf8_lossy(&forgot.stdout), stderr(&forgot));
    assert_eq!(forgot.status.code(), Some(0), "{said}");
    assert!(said.contains("Forgot 1 memories"), "{said}");
    assert!(!said.contains("nothing was changed"), "{said}");
    assert!(
        said.contains("Not finished yet") && said.contains("next opened"),
        "{said}"
    );
    // The memory is gone for every reader at once.
    let found = json_of(&haema(&store, &[], &["search", "Qvortex", "--json"], None));
    assert_eq!(contents(&found), Vec::<String>::new());

    // With room again, the next open finishes the scrub: no file holds the text.
    std::fs::remove_file(&filler).unwrap();
    ok(&haema(&store, &[], &["status"], None));
    for entry in std::fs::read_dir(&store).unwrap().flatten() {
        let bytes = std::fs::read(entry.path()).unwrap();
        assert!(
            !bytes.windows(7).any(|w| w == b"Qvortex"),
            "{} still holds the text",
            entry.path().display()
        );
    }
}
