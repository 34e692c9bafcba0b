//! The injection detector measured on a multilingual corpus: `tests/data/injection/attacks.txt`
//! (prompt injections in many languages and phrasings) and `benign.txt` (everyday text that
//! looks like them). Asserts the detection rate, the false-positive rate and the corpus's
//! breadth, and prints the figures docs/safety.md reports:
//! `cargo nextest run -p haema-core --test integration -E 'test(injection_rates)' --no-capture`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;

use crate::common::decode;

/// Lines of a corpus file as (language, text), escapes decoded (`\n`, `\t`, `\u{XXXX}`).
fn corpus(name: &str) -> Vec<(String, String)> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/injection")
        .join(name);
    std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (lang, text) = l
                .split_once('\t')
                .unwrap_or_else(|| panic!("{name}: no language tag: {l}"));
            (lang.to_owned(), decode(text))
        })
        .collect()
}

fn percent(part: usize, whole: usize) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}

#[test]
fn injection_rates_detection_and_false_positives_meet_their_floors() {
    let attacks = corpus("attacks.txt");
    let benign = corpus("benign.txt");
    let started = std::time::Instant::now();
    let mut per_lang: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut missed = Vec::new();
    for (lang, text) in &attacks {
        let entry = per_lang.entry(lang.as_str()).or_default();
        entry.1 += 1;
        if haema_core::safety::detect(text).is_empty() {
            missed.push(format!("{lang}: {text}"));
        } else {
            entry.0 += 1;
        }
    }
    let flagged: Vec<String> = benign
        .iter()
        .filter_map(|(lang, text)| {
            let found = haema_core::safety::detect(text);
            (!found.is_empty()).then(|| format!("{lang}: {text} {found:?}"))
        })
        .collect();
    let elapsed = started.elapsed();

    let caught = attacks.len() - missed.len();
    let detection = percent(caught, attacks.len());
    let false_positives = percent(flagged.len(), benign.len());
    eprintln!(
        "detection {caught}/{} = {detection:.1} %, false positives {}/{} = {false_positives:.1} %, {} texts in {elapsed:?}",
        attacks.len(),
        flagged.len(),
        benign.len(),
        attacks.len() + benign.len(),
    );
    for (lang, (hit, all)) in &per_lang {
        eprintln!("| {lang} | {hit}/{all} |");
    }
    eprintln!("missed: {missed:#?}\nflagged: {flagged:#?}");

    let languages = |c: &[(String, String)]| {
        let mut l: Vec<&str> = c.iter().map(|(l, _)| l.as_str()).collect();
        l.sort_unstable();
        l.dedup();
        l.len()
    };
    assert!(
        attacks.len() >= 150 && languages(&attacks) >= 10,
        "the attack corpus's breadth"
    );
    assert!(
        benign.len() >= 150 && languages(&benign) >= 10,
        "the benign corpus's breadth"
    );
    assert!(detection >= 97.0, "detection {detection:.1} %: missed {missed:#?}");
    assert!(
        false_positives <= 1.0,
        "false positives {false_positives:.1} %: {flagged:#?}"
    );
}
