//! A wallet's secret written with no label, or with one the formats do not know
//! (`Metamask: …`, `new HDWalletProvider("…")`, "… is my seed phrase"):
//!
//! - a seed phrase: 12 words or more in a row, each from BIP-39's English list
//!   (`bip39_english.txt`, the 2,048 words of bitcoin/bips' `bip-0039/english.txt`) but one
//!   at most, half of them different or more, on a line that speaks of a wallet (or the
//!   line above does: "Metamask", "seed", "mnemonic", "recovery", `HDWalletProvider`), or
//!   with BIP-39's own checksum (12 to 24 words, which a list typed by hand has one time in
//!   16 to 256). The list holds everyday words (animals, food), so a grocery list or a zoo's
//!   animals of a dozen words without either is kept; so are `true, false, …` and the
//!   well-known test phrases (`test test … junk`, `abandon … about`);
//! - a Solana keypair's bytes (`id.json`): a list of exactly 64 numbers from 0 to 255.

use std::ops::Range;
use std::sync::LazyLock;

use sha2::{Digest, Sha256};

use super::{SecretFinding, SecretKind};

/// Fewest words of a seed phrase (BIP-39 has 12, 15, 18, 21 or 24).
const MIN_WORDS: usize = 12;

/// Words of a line (or the line above) that speak of a wallet, in any case and inside
/// names (`HDWalletProvider`, `fromMnemonic`, `MNEMONIC`).
const WALLET_WORDS: &[&str] = &[
    "wallet",
    "seed",
    "mnemonic",
    "recovery",
    "phrase",
    "metamask",
    "ledger",
    "trezor",
    "phantom",
    "exodus",
    "coinbase",
    "bitcoin",
    "ethereum",
    "crypto",
    "bip39",
    "bip-39",
    "keystore",
    "backup",
    "restore",
    // Other languages: Spanish, Portuguese, French, German, Italian.
    "semilla",
    "frase",
    "recuperación",
    "recuperação",
    "récupération",
    "wiederherstellung",
    "seme",
];

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
        // A word of its own at the end is no part of the phrase, nor at the start when the
        // phrase is whole without it ("recovery seed …"); it may be its label.
        let end = run.iter().rposition(|w| w.2).map_or(0, |i| i + 1);
        let first_seed = run.iter().position(|w| w.2).unwrap_or(0).min(end);
        let start = if end - first_seed >= MIN_WORDS { first_seed } else { 0 };
        let label = run[..first_seed].iter().map(|w| w.1).collect::<Vec<_>>().join(" ");
        let run = &run[start..end];
        let phrase = is_phrase(run) && {
            let (first, _, _) = run[0];
            let (last, word, _) = run[run.len() - 1];
            speaks_of_a_wallet(text, first..last + word.len(), &label) || has_checksum(run)
        };
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

/// Whether the text around `span` (its lines and the line above them, and the `label`
/// word just before it) speaks of a wallet.
fn speaks_of_a_wallet(text: &str, span: Range<usize>, label: &str) -> bool {
    let line_start = text[..span.start].rfind('\n').map_or(0, |i| i + 1);
    let above_start = text[..line_start.saturating_sub(1)].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[span.end..].find('\n').map_or(text.len(), |i| span.end + i);
    let around = format!(
        "{} {label} {}",
        &text[above_start..span.start],
        &text[span.end..line_end]
    )
    .to_lowercase();
    WALLET_WORDS.iter().any(|w| around.contains(w))
}

/// Whether the run's words, all from the list, carry BIP-39's checksum: the first
/// `words / 3` bits of the SHA-256 of the entropy the other bits make.
fn has_checksum(run: &[(usize, &str, bool)]) -> bool {
    if ![12, 15, 18, 21, 24].contains(&run.len()) || run.iter().any(|w| !w.2) {
        return false;
    }
    let mut bits = Vec::with_capacity(run.len() * 11);
    for (_, word, _) in run {
        let Ok(index) = WORDS.binary_search(word) else {
            return false;
        };
        bits.extend((0..11).rev().map(|i| (index >> i) & 1 == 1));
    }
    let checksum_bits = run.len() / 3;
    let entropy: Vec<u8> = bits[..bits.len() - checksum_bits]
        .chunks(8)
        .map(|byte| byte.iter().fold(0u8, |acc, &b| (acc << 1) | u8::from(b)))
        .collect();
    let hash = Sha256::digest(&entropy);
    let expected = (0..checksum_bits).map(|i| (hash[i / 8] >> (7 - i % 8)) & 1 == 1);
    expected.eq(bits[bits.len() - checksum_bits..].iter().copied())
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
            format!("recovery seed\n{PHRASE}"),
            format!("Semilla de recuperación: {PHRASE}"),
        ] {
            // The label's last word may go with it when it is a seed word ("recovery seed").
            let found = found(&text);
            assert!(
                found.len() == 1 && found[0].ends_with(PHRASE) && found[0].len() <= PHRASE.len() + 5,
                "{text}: {found:?}"
            );
        }
        // BIP-39's test vector: its checksum holds, so no word of a wallet is needed.
        let vector = "legal winner thank year wave sausage worth useful legal winner thank yellow";
        assert_eq!(found(&format!("note: {vector}")), [vector]);
        let numbered = "Ledger backup:\n1. glacier 2. mango 3. velvet 4. orbit 5. canyon 6. lemon 7. river 8. tiger 9. piano 10. echo 11. stone 12. apple";
        assert_eq!(found(numbered), [&numbered[18..]]);
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
            "We had pasta, salad, bread, olive oil, cheese, wine, coffee, cake, fruit, ice cream, and cookies.",
            "Shopping list: apple, banana, butter, cheese, chicken, coffee, cream, egg, lemon, milk, onion, potato, rice",
            "Animals we saw at the zoo: lion tiger zebra giraffe monkey elephant kangaroo penguin eagle dolphin horse rabbit",
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
