//! A wallet's secret written with no label, or with one the formats do not know
//! (`Metamask: …`, `new HDWalletProvider("…")`, "… is my seed phrase"):
//!
//! - a seed phrase: 12 words or more in a row, each from BIP-39's English list
//!   (`bip39_english.txt`, the 2,048 words of bitcoin/bips' `bip-0039/english.txt`) but one
//!   at most, half of them different or more. Ordinary text never has a dozen in a row:
//!   none of the LoCoMo conversations or of 2.2 million lines of Markdown, Rust and Python
//!   does but a list of `true, false, …` (two words); those and the well-known test
//!   phrases (`test test … junk`, `abandon … about`) are kept;
//! - a Solana keypair's bytes (`id.json`): a list of exactly 64 numbers from 0 to 255.

use std::ops::Range;
use std::sync::LazyLock;

use super::{SecretFinding, SecretKind};

/// Fewest words of a seed phrase (BIP-39 has 12, 15, 18, 21 or 24).
const MIN_WORDS: usize = 12;

static WORDS: LazyLock<Vec<&'static str>> = LazyLock::new(|| include_str!("bip39_english.txt").lines().collect());

fn is_seed_word(word: &str) -> bool {
    word.len() >= 3 && WORDS.binary_search(&word).is_ok()
}

/// The seed phrases (as passwords) and keypairs (as private keys) in `text`.
pub(super) fn wallet_secrets(text: &str) -> Vec<SecretFinding> {
    let phrases = seed_phrases(text).into_iter().map(|span| SecretFinding {
        kind: SecretKind::Password,
        span,
    });
    let keypairs = keypair_arrays(text).into_iter().map(|span| SecretFinding {
        kind: SecretKind::PrivateKey,
        span,
    });
    phrases.chain(keypairs).collect()
}

/// Runs of [`MIN_WORDS`] words or more, apart only by spaces, commas, hyphens and line
/// breaks or by the numbers of a list (`1. abandon 2. ability`), all seed words but one at
/// most (a phrase typed from memory, or made up for a test, has a word of its own).
fn seed_phrases(text: &str) -> Vec<Range<usize>> {
    let mut spans = Vec::new();
    // Each word of the run, and whether it is a seed word.
    let mut run: Vec<(usize, &str, bool)> = Vec::new();
    // Whether the run (to its last seed word) was a phrase, and so taken.
    let close = |run: &[(usize, &str, bool)], spans: &mut Vec<Range<usize>>| {
        let end = run.iter().rposition(|w| w.2).map_or(0, |i| i + 1);
        let run = &run[..end];
        let phrase = is_phrase(run);
        if phrase {
            let (first, _, _) = run[0];
            let (last, word, _) = run[run.len() - 1];
            spans.push(first..last + word.len());
        }
        phrase
    };
    for (at, token) in tokens(text) {
        let lower = token.len() >= 3 && token.chars().all(|c| c.is_ascii_lowercase());
        if lower && is_seed_word(token) {
            run.push((at, token, true));
        } else if lower {
            // A second word of its own: the run starts again here when it was a phrase,
            // else after the first.
            if let Some(other) = run.iter().position(|w| !w.2) {
                if close(&run, &mut spans) {
                    run.clear();
                } else {
                    run.drain(..=other);
                }
            }
            run.push((at, token, false));
        } else if !is_list_number(token) {
            close(&run, &mut spans);
            run.clear();
        }
    }
    close(&run, &mut spans);
    spans
}

/// The words of `text` with where each starts: runs between spaces, commas, hyphens and
/// quotes.
fn tokens(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split(|c: char| c.is_whitespace() || matches!(c, ',' | '-' | '"' | '\'' | '`'))
        .filter(|t| !t.is_empty())
        .map(move |t| (t.as_ptr() as usize - text.as_ptr() as usize, t))
}

/// `1.`, `12)`: a numbered list's mark.
fn is_list_number(token: &str) -> bool {
    let digits = token.trim_end_matches(['.', ')', ':']);
    digits.len() < token.len() && !digits.is_empty() && digits.len() <= 2 && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Whether a run of words is a phrase: long enough, and half of its words different or
/// more (a random phrase repeats few; `test test … junk` and `true, false, …` repeat).
fn is_phrase(run: &[(usize, &str, bool)]) -> bool {
    if run.len() < MIN_WORDS {
        return false;
    }
    let mut words: Vec<&str> = run.iter().map(|w| w.1).collect();
    words.sort_unstable();
    words.dedup();
    words.len() * 2 >= run.len()
}

/// `[174,47,…]` with exactly 64 numbers from 0 to 255: a Solana keypair.
fn keypair_arrays(text: &str) -> Vec<Range<usize>> {
    let mut spans = Vec::new();
    let mut from = 0;
    while let Some(open) = text[from..].find('[').map(|i| from + i) {
        let Some(close) = text[open..].find(']').map(|i| open + i) else {
            break;
        };
        let inside = &text[open + 1..close];
        let numbers: Vec<&str> = inside.split(',').map(str::trim).collect();
        if numbers.len() == 64 && numbers.iter().all(|n| n.parse::<u8>().is_ok()) {
            spans.push(open..close + 1);
        }
        from = open + 1;
    }
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    const PHRASE: &str = "glacier mango velvet orbit canyon lemon river tiger piano echo stone apple";

    fn found(text: &str) -> Vec<&str> {
        wallet_secrets(text).into_iter().map(|f| &text[f.span]).collect()
    }

    #[test]
    fn a_seed_phrase_is_found_however_it_is_labelled() {
        for text in [
            format!("Metamask: {PHRASE}"),
            format!("{PHRASE} is my seed phrase"),
            format!("new HDWalletProvider(\"{PHRASE}\", \"https://rpc\")"),
            format!("const m = process.env.MNEMONIC || \"{PHRASE}\";"),
            format!("Seed phrase — {PHRASE}"),
        ] {
            assert_eq!(found(&text), [PHRASE], "{text}");
        }
        let numbered = "1. glacier 2. mango 3. velvet 4. orbit 5. canyon 6. lemon 7. river 8. tiger 9. piano 10. echo 11. stone 12. apple";
        assert_eq!(found(numbered), [&numbered[3..]]);
    }

    #[test]
    fn ordinary_words_and_test_phrases_are_not_one() {
        for text in [
            "We walked along the river to the lemon tree and then the piano bar, a long day.",
            "Hardhat default mnemonic: test test test test test test test test test test test junk",
            "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about",
            "false, true, true, false, false, true, true, true, true, false, false, true, true",
            "glacier mango velvet orbit canyon lemon river tiger piano echo stone",
            "glacier mango velvet orbit canyon lemon river tiger piano echo stone zyxw",
        ] {
            assert!(found(text).is_empty(), "{text}");
        }
    }

    #[test]
    fn a_keypair_array_of_64_bytes_is_found() {
        let bytes: Vec<String> = (0..64).map(|i| ((i * 37 + 11) % 256).to_string()).collect();
        let array = format!("[{}]", bytes.join(","));
        let text = format!("PRIVATE_KEY={array}");
        assert_eq!(found(&text), [array.as_str()]);
        assert!(found("[1,2,3]").is_empty());
        let wide = format!("[{},300]", bytes[..63].join(","));
        assert!(found(&wide).is_empty());
    }
}
