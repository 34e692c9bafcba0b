//! A full disk: the write that does not fit fails with a clear message and changes nothing;
//! everything written before stays readable, and writing works again once there is room.
//! The disk is a small tmpfs, which needs root (CI runs as root); elsewhere the test says it
//! was skipped and why.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::path::Path;
use std::process::Command;

use common::*;

/// Mounts a tmpfs of `size` at `dir`; unmounted when dropped.
struct Tmpfs<'a>(&'a Path);

impl<'a> Tmpfs<'a> {
    fn mount(dir: &'a Path, size: &str) -> Result<Self, String> {
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir)
            .output()
            .map_err(|e| e.to_string())?;
        if out.status.success() {
            Ok(Self(dir))
        } else {
            Err(String::from_utf8_lossy(&out.stderr).trim().to_owned())
        }
    }
}

impl Drop for Tmpfs<'_> {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(self.0).status();
    }
}

#[test]
fn a_full_disk_refuses_the_write_clearly_and_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let disk = dir.path().join("disk");
    std::fs::create_dir_all(&disk).unwrap();
    let _mounted = match Tmpfs::mount(&disk, "4m") {
        Ok(m) => m,
        Err(why) => {
            eprintln!(
                "SKIPPED a_full_disk_refuses_the_write_clearly_and_loses_nothing: cannot mount a tmpfs ({why}); it needs root"
            );
            return;
        }
    };
    let store = disk.join("store");
    ok(&haema(
        &store,
        &[],
        &["add", "--items", "The user likes quiet mornings"],
        None,
    ));
    // Leave a little room: the store opens, but the next big write does not fit.
    let filler = disk.join("filler");
    let free = || {
        let out = Command::new("df")
            .args(["--output=avail", "-B1"])
            .arg(&disk)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .nth(1)
            .unwrap()
            .trim()
            .parse::<u64>()
            .unwrap()
    };
    std::fs::write(
        &filler,
        vec![0u8; usize::try_from(free().saturating_sub(256 * 1024)).unwrap()],
    )
    .unwrap();

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
