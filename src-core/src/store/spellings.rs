//! The closed sets' spellings are their one home (`closed_set!` in `types/`); the SQL of the
//! migrations and of both backends writes some of them as literals, and these tests keep the
//! two in step: each table's `CHECK (column IN (…))`, as the newest migration leaves it,
//! lists exactly the set's spellings, and every status the backends' SQL compares with or
//! writes is a spelling of a status set.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use regex::Regex;

use crate::types::{ChangesetKind, ChangesetStatus, CoreAuthor, MemoryStatus, Section};

/// `(table, column)` → the spellings its newest `CHECK (column IN ('…', …))` allows, from
/// the migration files in `folder`, read in name order (each number once); a table rebuilt
/// under another name and renamed keeps its checks.
fn checked_spellings(folder: &Path) -> BTreeMap<(String, String), BTreeSet<String>> {
    let mut files: Vec<_> = std::fs::read_dir(folder)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "sql"))
        .collect();
    files.sort();
    let table = Regex::new(r"(?i)CREATE TABLE (?:IF NOT EXISTS )?(\w+)|ALTER TABLE (\w+)").unwrap();
    let check = Regex::new(r"(?i)(\w+)\s+TEXT\s[^\n]*CHECK \((\w+) IN \(([^)]*)\)\)").unwrap();
    let rename = Regex::new(r"(?i)ALTER TABLE (\w+) RENAME TO (\w+)").unwrap();
    let mut found: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let sql = std::fs::read_to_string(&file).unwrap();
        let mut current = String::new();
        for line in sql.lines() {
            // A table rebuilt under another name and renamed (`changesets_next`).
            if let Some(r) = rename.captures(line) {
                let (from, to) = (r[1].to_lowercase(), r[2].to_lowercase());
                let moved: Vec<_> = found.keys().filter(|(t, _)| *t == from).cloned().collect();
                for (t, column) in moved {
                    let spellings = found.remove(&(t, column.clone())).unwrap();
                    found.insert((to.clone(), column), spellings);
                }
                continue;
            }
            if let Some(t) = table.captures(line) {
                current = t.get(1).or(t.get(2)).unwrap().as_str().to_lowercase();
            }
            if let Some(c) = check.captures(line) {
                let spellings = c[3]
                    .split(',')
                    .map(|s| s.trim().trim_matches('\'').to_owned())
                    .collect();
                found.insert((current.clone(), c[2].to_owned()), spellings);
            }
        }
    }
    found
}

fn set(spellings: &[&str]) -> BTreeSet<String> {
    spellings.iter().map(|s| (*s).to_owned()).collect()
}

#[test]
fn each_check_in_the_migrations_lists_its_closed_set_exactly() {
    let migrations = Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
    let sections: Vec<&str> = Section::ALL.iter().map(|s| s.name()).collect();
    let expected = [
        (("changesets", "kind"), set(ChangesetKind::SPELLINGS)),
        (("changesets", "status"), set(ChangesetStatus::SPELLINGS)),
        (("memories", "status"), set(MemoryStatus::SPELLINGS)),
        (("core_versions", "author"), set(CoreAuthor::SPELLINGS)),
        (("core_locks", "section"), set(&sections)),
    ];
    for folder in [migrations.clone(), migrations.join("postgres")] {
        let checks = checked_spellings(&folder);
        for ((table, column), spellings) in &expected {
            let key = ((*table).to_owned(), (*column).to_owned());
            assert_eq!(
                checks.get(&key),
                Some(spellings),
                "{}: the CHECK on {table}.{column} and its closed set differ; a new value needs a migration",
                folder.display()
            );
        }
    }
}

#[test]
fn every_status_in_the_backends_sql_is_a_spelling_of_a_status_set() {
    let store = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/store");
    let statuses: BTreeSet<String> = MemoryStatus::SPELLINGS
        .iter()
        .chain(ChangesetStatus::SPELLINGS)
        .map(|s| (*s).to_owned())
        .collect();
    // `status = 'x'`, `status <> 'x'`, `status IN ('x', 'y')`, `SET status = 'x'`.
    let compared = Regex::new(r"(?i)status\s*(?:=|<>|!=|(?:NOT\s+)?IN)\s*\(?((?:\s*'[^']*'\s*,?)+)\)?").unwrap();
    let literal = Regex::new(r"'([^']*)'").unwrap();
    let mut seen = 0;
    for backend in ["sqlite", "postgres"] {
        let mut folders = vec![store.join(backend)];
        while let Some(folder) = folders.pop() {
            for entry in std::fs::read_dir(&folder).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    folders.push(path);
                    continue;
                }
                let code = std::fs::read_to_string(&path).unwrap();
                for found in compared.captures_iter(&code) {
                    for spelling in literal.captures_iter(&found[1]) {
                        seen += 1;
                        assert!(
                            statuses.contains(&spelling[1]),
                            "{}: status '{}' is not a spelling of MemoryStatus or ChangesetStatus",
                            path.display(),
                            &spelling[1]
                        );
                    }
                }
            }
        }
    }
    assert!(
        seen > 40,
        "the statuses in SQL were not found ({seen}): the pattern no longer reads them"
    );
}
