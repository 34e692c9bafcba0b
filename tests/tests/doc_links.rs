//! Every relative link and `#anchor` in README.md and `docs/*.md` resolves: the file (or
//! folder) a link names exists, and an anchor is a heading of the page it points into, as
//! GitHub spells it (lower case, spaces to `-`, punctuation dropped but `-` and `_`, a
//! repeated heading `-1`, `-2`, …). Links to `http(s):` and `mailto:` are not followed.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the repository")
        .to_path_buf()
}

/// README.md and every `.md` file directly in `docs/`, relative to the repository.
fn pages(root: &Path) -> Vec<PathBuf> {
    let mut pages = vec![PathBuf::from("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| PathBuf::from("docs").join(p.file_name().unwrap()))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// The lines of a Markdown text outside fenced code blocks, with their numbers (1-based).
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut fence: Option<&str> = None;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let marker = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m));
        match (fence, marker) {
            (None, Some(m)) => fence = Some(m),
            (Some(open), Some(m)) if open == m => fence = None,
            (None, None) => out.push((i + 1, line)),
            _ => {}
        }
    }
    out
}

/// GitHub's anchor for a heading's text.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a page's headings, repeated ones numbered as GitHub numbers them.
fn anchors(text: &str) -> Vec<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = Vec::new();
    for (_, line) in prose_lines(text) {
        let hashes = line.chars().take_while(|c| *c == '#').count();
        if !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(&line[hashes..]);
        let n = seen.entry(base.clone()).or_insert(0);
        out.push(if *n == 0 { base.clone() } else { format!("{base}-{n}") });
        *n += 1;
    }
    out
}

/// A line without its inline code spans (`` `[a](b)` `` is text, not a link).
fn without_code(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(open) = rest.find('`') {
        out.push_str(&rest[..open]);
        let ticks = rest[open..].chars().take_while(|c| *c == '`').count();
        let after = &rest[open + ticks..];
        let closing = "`".repeat(ticks);
        match after.find(&closing) {
            Some(close) => rest = &after[close + ticks..],
            None => {
                out.push_str(&rest[open..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// The targets of the inline links and images of a line, and of a reference definition.
fn link_targets(line: &str) -> Vec<String> {
    let line = without_code(line);
    let mut out = Vec::new();
    let mut rest = line.as_str();
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let mut depth = 0usize;
        let end = after
            .char_indices()
            .find(|(_, c)| match c {
                '(' => {
                    depth += 1;
                    false
                }
                ')' if depth == 0 => true,
                ')' => {
                    depth -= 1;
                    false
                }
                _ => false,
            })
            .map_or(after.len(), |(i, _)| i);
        let target = after[..end].split_whitespace().next().unwrap_or_default();
        out.push(target.trim_matches(['<', '>']).to_owned());
        rest = &after[end..];
    }
    let trimmed = line.trim_start();
    if trimmed.starts_with('[')
        && let Some(close) = trimmed.find("]:")
        && let Some(target) = trimmed[close + 2..].split_whitespace().next()
    {
        out.push(target.to_owned());
    }
    out
}

fn is_external(target: &str) -> bool {
    ["http://", "https://", "mailto:"]
        .iter()
        .any(|scheme| target.to_lowercase().starts_with(scheme))
}

/// `a/b/../c` as `a/c`, relative to the repository; `None` when it leaves it.
fn normalise(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    Some(out)
}

/// What is wrong with the relative links of the pages under `root`, one line each.
fn broken_links(root: &Path) -> Vec<String> {
    let pages = pages(root);
    let texts: BTreeMap<PathBuf, String> = pages
        .iter()
        .map(|p| (p.clone(), std::fs::read_to_string(root.join(p)).unwrap()))
        .collect();
    let mut broken = Vec::new();
    for (page, text) in &texts {
        for (number, line) in prose_lines(text) {
            for target in link_targets(line) {
                if target.is_empty() || is_external(&target) {
                    continue;
                }
                let at = format!("{}:{number}: ({target})", page.display());
                let (path, anchor) = target.split_once('#').unwrap_or((target.as_str(), ""));
                let file = if path.is_empty() {
                    page.clone()
                } else {
                    match normalise(&page.parent().unwrap().join(path)) {
                        Some(file) => file,
                        None => {
                            broken.push(format!("{at} leaves the repository"));
                            continue;
                        }
                    }
                };
                if !root.join(&file).exists() {
                    broken.push(format!("{at} names {}, which does not exist", file.display()));
                    continue;
                }
                if anchor.is_empty() {
                    continue;
                }
                let target_text = match texts.get(&file) {
                    Some(text) => text.clone(),
                    None if file.extension().is_some_and(|e| e == "md") => {
                        std::fs::read_to_string(root.join(&file)).unwrap()
                    }
                    None => {
                        broken.push(format!("{at} has an anchor into a file that is not Markdown"));
                        continue;
                    }
                };
                if !anchors(&target_text).iter().any(|a| a == anchor) {
                    broken.push(format!(
                        "{at} names #{anchor}, which is no heading of {}",
                        file.display()
                    ));
                }
            }
        }
    }
    broken
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let broken = broken_links(&repo());
    assert!(broken.is_empty(), "links that do not resolve:\n{}", broken.join("\n"));
}

#[test]
fn every_docs_page_is_linked_from_the_readme_and_the_index() {
    let root = repo();
    for index in ["README.md", "docs/README.md"] {
        let Ok(text) = std::fs::read_to_string(root.join(index)) else {
            panic!("{index} exists");
        };
        let base = Path::new(index).parent().unwrap();
        let linked: Vec<PathBuf> = prose_lines(&text)
            .into_iter()
            .flat_map(|(_, line)| link_targets(line))
            .filter(|t| !is_external(t))
            .filter_map(|t| {
                let path = t.split('#').next().unwrap_or_default().to_owned();
                (!path.is_empty()).then(|| normalise(&base.join(path)))?
            })
            .collect();
        for page in pages(&root).into_iter().filter(|p| p.starts_with("docs")) {
            if page.as_path() == Path::new(index) {
                continue;
            }
            assert!(
                linked.contains(&page),
                "{index} links to every docs page: {} is missing",
                page.display()
            );
        }
    }
}

#[test]
fn the_checker_finds_broken_links() {
    let root = tempfile::tempdir().unwrap();
    std::fs::create_dir(root.path().join("docs")).unwrap();
    std::fs::write(
        root.path().join("README.md"),
        "# haema\n\n## Set-up: two commands\n\n## Set-up: two commands\n\n\
         [ok](#set-up-two-commands) [ok](#set-up-two-commands-1) [ok](docs/a.md#a-page)\n\
         [bad](#set-up) [bad](docs/b.md) [bad](docs/a.md#nothing) [web](https://x.org/#y)\n\
         `[code](#not-a-link)`\n\n```\n[fenced](#not-a-link)\n```\n",
    )
    .unwrap();
    std::fs::write(
        root.path().join("docs/a.md"),
        "# A page\n\n[back](../README.md#haema) [bad](../README.md#nope) [up](../../x.md)\n",
    )
    .unwrap();
    let broken = broken_links(root.path());
    let expected = [
        "README.md:8: (#set-up)",
        "README.md:8: (docs/b.md)",
        "README.md:8: (docs/a.md#nothing)",
        "docs/a.md:3: (../README.md#nope)",
        "docs/a.md:3: (../../x.md)",
    ];
    assert_eq!(broken.len(), expected.len(), "{broken:#?}");
    for (found, expected) in broken.iter().zip(expected) {
        assert!(found.starts_with(expected), "{found} / {expected}");
    }
}

#[test]
fn slugs_are_githubs() {
    assert_eq!(slug("Connecting an AI: `haema setup`"), "connecting-an-ai-haema-setup");
    assert_eq!(slug("Scopes: one store, many users"), "scopes-one-store-many-users");
    assert_eq!(slug("From HAEMA (Python)"), "from-haema-python");
    assert_eq!(slug("snake_case and - dashes"), "snake_case-and---dashes");
    assert_eq!(anchors("# A\n## A\n```\n# A\n```\n# A\n"), ["a", "a-1", "a-2"]);
}
