//! Claude Code's own memory folder (`~/.claude/projects/<project>/memory/`: `MEMORY.md`,
//! its index, and topic files beside it, each Markdown with an optional front matter of
//! `name`, `description` and `type`) read as memories: each list item and each paragraph
//! one memory, `source = "claude-code"`, its file and section in its metadata, a topic
//! file's `type` as the memory's type. The index's lines that only point to a topic file
//! are left out: the topic file is read itself.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::ImportItem;
use crate::error::{Error, Result};
use crate::types::MemoryAttributes;

/// The index file that names a folder as Claude Code's memory.
pub const INDEX: &str = "MEMORY.md";

/// The folder [`crate::Memory::import_path`] reads for `path`: `path` itself, or the
/// folder of a Claude Code memory index named (`…/memory/MEMORY.md`); `None` for a file.
pub fn import_folder(path: &Path) -> Option<&Path> {
    match path.file_name() {
        Some(name) if name == INDEX && path.is_file() => path.parent(),
        _ => path.is_dir().then_some(path),
    }
}

/// Claude Code's memory folders on this machine, by name: the `memory/` folder of each
/// project under `$CLAUDE_CONFIG_DIR/projects` (`~/.claude/projects` by default) that holds
/// a `MEMORY.md`.
pub fn claude_memory_folders() -> Vec<PathBuf> {
    let root = std::env::var_os("CLAUDE_CONFIG_DIR")
        .filter(|dir| !dir.is_empty())
        .map(PathBuf::from)
        .or_else(|| directories::BaseDirs::new().map(|b| b.home_dir().join(".claude")));
    root.map(|root| memory_folders_in(&root.join("projects")))
        .unwrap_or_default()
}

/// The memory folders of the projects in `projects`, by name.
fn memory_folders_in(projects: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(projects)
        .into_iter()
        .flatten()
        .filter_map(|entry| entry.ok())
        .map(|entry| entry.path().join("memory"))
        .filter(|dir| is_claude_memory(dir))
        .collect();
    found.sort();
    found
}

/// Whether `dir` is a Claude Code memory folder (it holds `MEMORY.md`).
pub fn is_claude_memory(dir: &Path) -> bool {
    dir.join(INDEX).is_file()
}

/// The memories of the folder `dir`: `MEMORY.md` first, then every other `.md` file by
/// name.
///
/// # Errors
/// A file that cannot be read or is not UTF-8 text, named.
pub fn read_claude_memory(dir: &Path) -> Result<Vec<ImportItem>> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| Error::io("read", dir, e))?
        .filter_map(|entry| entry.ok())
        .filter(|entry| entry.path().is_file())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md") && name != INDEX)
        .collect();
    names.sort();
    names.insert(0, INDEX.to_owned());
    let mut items = Vec::new();
    for name in &names {
        let path = dir.join(name);
        let bytes = std::fs::read(&path).map_err(|e| Error::io("read", &path, e))?;
        let text = String::from_utf8(bytes).map_err(|_| {
            Error::InvalidArgument(format!(
                "{} is not UTF-8 text, so it cannot be imported",
                path.display()
            ))
        })?;
        items.extend(items_of(name, &text, &names));
    }
    Ok(items)
}

/// The memories of one Markdown file named `name`; `files` are the folder's files (an
/// index line that only links to one of them is no memory).
fn items_of(name: &str, text: &str, files: &[String]) -> Vec<ImportItem> {
    let (front, body) = front_matter(text);
    let memory_type = front.iter().find(|(k, _)| k == "type").map(|(_, v)| v.clone());
    let mut items = Vec::new();
    let mut section: Option<String> = None;
    let mut block: Vec<&str> = Vec::new();
    let mut fenced = false;
    let mut flush = |block: &mut Vec<&str>, section: &Option<String>| {
        let content = block.join("\n").trim().to_owned();
        block.clear();
        if content.is_empty() || only_links_to(&content, files) {
            return;
        }
        let mut metadata = std::collections::BTreeMap::new();
        metadata.insert("file".to_owned(), Value::String(name.to_owned()));
        if let Some(section) = section {
            metadata.insert("section".to_owned(), Value::String(section.clone()));
        }
        items.push(ImportItem {
            content,
            timestamp_ms: None,
            attributes: MemoryAttributes {
                source: Some("claude-code".into()),
                memory_type: memory_type.clone(),
                metadata,
                ..MemoryAttributes::default()
            },
        });
    };
    for line in body.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            // A fence at the margin starts a block of its own; an indented one is its item's.
            if !fenced && !line.starts_with([' ', '\t']) {
                flush(&mut block, &section);
            }
            fenced = !fenced;
            block.push(line);
            if !fenced {
                flush(&mut block, &section);
            }
            continue;
        }
        if fenced {
            block.push(line);
            continue;
        }
        if let Some(heading) = trimmed.strip_prefix('#').map(|h| h.trim_start_matches('#').trim()) {
            flush(&mut block, &section);
            section = (!heading.is_empty()).then(|| heading.to_owned());
            continue;
        }
        if trimmed.is_empty() || trimmed.starts_with("<!--") {
            flush(&mut block, &section);
            continue;
        }
        if let Some(item) = list_item(trimmed) {
            // An indented line goes on the item above; a new item starts a memory.
            if !line.starts_with([' ', '\t']) || block.is_empty() {
                flush(&mut block, &section);
                block.push(item);
                continue;
            }
        }
        block.push(trimmed);
    }
    flush(&mut block, &section);
    items
}

/// The text of a list item's line (`- `, `* `, `+ `, `1. `), without its marker.
fn list_item(line: &str) -> Option<&str> {
    for marker in ["- ", "* ", "+ "] {
        if let Some(rest) = line.strip_prefix(marker) {
            return Some(rest.trim_start_matches("[ ] ").trim_start_matches("[x] "));
        }
    }
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    if digits > 0 {
        return line[digits..]
            .strip_prefix(". ")
            .or_else(|| line[digits..].strip_prefix(") "));
    }
    None
}

/// Whether `content` only points to a file of the folder: `[Topic](topic.md)` with at most
/// a short description after it.
fn only_links_to(content: &str, files: &[String]) -> bool {
    let Some(rest) = content.strip_prefix('[') else {
        return false;
    };
    let Some((_, target)) = rest.split_once("](") else {
        return false;
    };
    let Some((file, _)) = target.split_once(')') else {
        return false;
    };
    files.iter().any(|f| f == file.trim_start_matches("./"))
}

/// The front matter's `key: value` lines (between `---` lines at the start) and the text
/// after it.
fn front_matter(text: &str) -> (Vec<(String, String)>, &str) {
    let Some(rest) = text.strip_prefix("---\n").or_else(|| text.strip_prefix("---\r\n")) else {
        return (Vec::new(), text);
    };
    let Some(end) = rest.find("\n---") else {
        return (Vec::new(), text);
    };
    let pairs = rest[..end]
        .lines()
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_owned(), v.trim().trim_matches(['"', '\'']).to_owned()))
        .collect();
    let after = &rest[end + 4..];
    (pairs, after.strip_prefix('\n').unwrap_or(after))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_memory_folders_of_claude_codes_projects_are_found_and_nothing_else() {
        let projects = tempfile::tempdir().unwrap();
        for (project, index) in [("-home-ana-b", true), ("-home-ana-a", true), ("-tmp-x", false)] {
            let memory = projects.path().join(project).join("memory");
            std::fs::create_dir_all(&memory).unwrap();
            if index {
                std::fs::write(memory.join(INDEX), "- The user bikes to work.\n").unwrap();
            }
        }
        std::fs::write(projects.path().join("stray.jsonl"), "{}").unwrap();
        let found = memory_folders_in(projects.path());
        let names: Vec<_> = found.iter().map(|d| d.parent().unwrap().file_name().unwrap()).collect();
        assert_eq!(names, ["-home-ana-a", "-home-ana-b"]);
        assert!(memory_folders_in(&projects.path().join("missing")).is_empty());
    }

    #[test]
    fn each_item_and_paragraph_is_a_memory_with_its_file_section_and_type() {
        let files = vec![INDEX.to_owned(), "feedback_testing.md".to_owned()];
        let index = "# Memory index\n\n- [Testing](feedback_testing.md) — how the user wants tests run\n- The user's name is Ana.\n  She goes by Ana M.\n\nThe project deploys on Fridays.\nNever on holidays.\n";
        let items = items_of(INDEX, index, &files);
        let texts: Vec<&str> = items.iter().map(|i| i.content.as_str()).collect();
        assert_eq!(
            texts,
            [
                "The user's name is Ana.\nShe goes by Ana M.",
                "The project deploys on Fridays.\nNever on holidays."
            ]
        );
        assert_eq!(items[0].attributes.metadata["section"], "Memory index");
        assert_eq!(items[0].attributes.source.as_deref(), Some("claude-code"));
        let topic = "---\nname: testing\ndescription: how to test\ntype: feedback\n---\n\n## Rules\n1. Run `cargo nextest` with -j2.\n2. Never mock the database.\n```sh\ncargo test\n```\n";
        let items = items_of("feedback_testing.md", topic, &files);
        let texts: Vec<&str> = items.iter().map(|i| i.content.as_str()).collect();
        assert_eq!(
            texts,
            [
                "Run `cargo nextest` with -j2.",
                "Never mock the database.",
                "```sh\ncargo test\n```"
            ]
        );
        assert!(
            items
                .iter()
                .all(|i| i.attributes.memory_type.as_deref() == Some("feedback"))
        );
        assert_eq!(items[0].attributes.metadata["file"], "feedback_testing.md");
    }
}
