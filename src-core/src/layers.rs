//! The folders of the engine import one another in layers, never in a circle: a test reads
//! every file's `crate::…` paths and finds the circles among the top-level modules.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `src`.
fn rust_files(src: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut folders = vec![src.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files
}

/// The first name of each path a `crate::` names: `crate::store::Pool` gives `store`, and a
/// group, `crate::{error::Result, types::{MemoryId, Section}}`, gives `error` and `types`.
fn first_names(code: &str) -> Vec<String> {
    let name_at = |at: usize| -> String {
        code[at..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut names = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        let after = at + "crate::".len();
        if !code[after..].starts_with('{') {
            names.push(name_at(after));
            continue;
        }
        // A group: the first name of each of its items, at the group's own depth.
        let (mut depth, mut item_starts) = (0usize, true);
        for (offset, c) in code[after..].char_indices() {
            match c {
                '{' => {
                    depth += 1;
                    item_starts = depth == 1;
                    continue;
                }
                '}' => depth -= 1,
                ',' if depth == 1 => item_starts = true,
                c if item_starts && !c.is_whitespace() => {
                    names.push(name_at(after + offset));
                    item_starts = false;
                }
                _ => {}
            }
            if depth == 0 {
                break;
            }
        }
    }
    names
}

/// Each top-level module and the top-level modules its code names (`crate::x`). Code names
/// a module's items by the module's path: a `crate::Name` through `lib.rs`'s re-exports
/// would hide where the item lives, and is refused.
fn imports(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let files = rust_files(src);
    let module_of = |path: &Path| {
        let relative = path.strip_prefix(src).unwrap();
        let first = relative
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .into_owned();
        first.trim_end_matches(".rs").to_owned()
    };
    let modules: BTreeSet<String> = files.iter().map(|p| module_of(p)).filter(|m| m != "lib").collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = modules.iter().map(|m| (m.clone(), BTreeSet::new())).collect();
    let mut through_lib = Vec::new();
    for path in &files {
        let from = module_of(path);
        // lib.rs re-exports for the crate's users; this file's own strings are examples.
        if from == "lib" || from == "layers" {
            continue;
        }
        // Code only: a doc comment may point at another module, or at an item as the
        // crate's users see it.
        let code: String = std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .map(|line| line.split("//").next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\n");
        for name in first_names(&code) {
            if !modules.contains(&name) {
                through_lib.push(format!("{}: crate::{name}", path.strip_prefix(src).unwrap().display()));
            } else if name != from {
                graph.get_mut(&from).unwrap().insert(name);
            }
        }
    }
    assert!(
        through_lib.is_empty(),
        "name these by their module's path (crate::error::Result, not crate::Result):\n{}",
        through_lib.join("\n")
    );
    graph
}

/// The modules that lie on a circle: those that reach themselves.
fn on_circles(graph: &BTreeMap<String, BTreeSet<String>>) -> BTreeSet<String> {
    let reach = |start: &str| {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<&str> = graph[start].iter().map(String::as_str).collect();
        while let Some(m) = todo.pop() {
            if seen.insert(m.to_owned()) {
                todo.extend(graph[m].iter().map(String::as_str));
            }
        }
        seen
    };
    graph.keys().filter(|m| reach(m).contains(*m)).cloned().collect()
}

#[test]
fn no_import_circle_between_the_folders() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let tangled = on_circles(&imports(&src));
    assert!(
        tangled.is_empty(),
        "these folders import one another in a circle: {tangled:?}; move what both need down a layer (docs/architecture.md)"
    );
}

#[test]
fn a_group_names_the_first_module_of_each_item() {
    let code = "use crate::{error::{Error, Result}, types::MemoryId};\nlet x = crate::store::now();";
    assert_eq!(first_names(code), ["error", "types", "store"]);
}
