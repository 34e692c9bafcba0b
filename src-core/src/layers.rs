//! The folders of the engine import one another in layers: a test reads every file's
//! `crate::…` paths and finds the circles among the top-level modules.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The folders still tied in one circle (issue 34's part 3 unties them). The list may only
/// shrink: a folder that joins it is a new circle, and one that leaves it is progress to
/// write down here.
const STILL_TANGLED: &[&str] = &[
    "config", "error", "keys", "limits", "pipeline", "provider", "safety", "search", "secrets", "store", "types",
];

/// Each top-level module and the top-level modules its code names (`crate::x`).
fn imports(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
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
    for path in &files {
        let from = module_of(path);
        if from == "lib" {
            continue;
        }
        // Code only: a doc comment may point at another module.
        let code: String = std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .map(|line| line.split("//").next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\n");
        for (at, _) in code.match_indices("crate::") {
            let name: String = code[at + 7..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if name != from && modules.contains(&name) {
                graph.get_mut(&from).unwrap().insert(name);
            }
        }
    }
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
fn no_new_import_circle_between_the_folders() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let tangled = on_circles(&imports(&src));
    let expected: BTreeSet<String> = STILL_TANGLED.iter().map(|s| (*s).to_owned()).collect();
    assert_eq!(
        tangled, expected,
        "the folders on an import circle changed: a new one joined (untie it), or one left (take it off STILL_TANGLED)"
    );
}
