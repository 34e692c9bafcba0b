//! A passphrase of plain words after a colon (`passphrase: correct horse battery staple`),
//! and a wallet's seed or recovery phrase of 12 to 25 words (Monero's has 25), said with a colon or "is",
//! quoted, with commas, or followed by a comment or a note in brackets (`… (Metamask)`):
//! only words a sentence would not hold ([`Form::Phrase`]).

use super::{Format, format};
use crate::secrets::SecretKind as K;
use crate::secrets::values::Form;

/// The words of a phrase: lower case, or each capitalised (`Orbit Lantern Cactus Meadow`),
/// apart by spaces or commas.
const WORDS: &str = r"\p{Lu}?\p{Ll}+(?:[ \t]*,?[ \t]+\p{Lu}?\p{Ll}+)";

/// What may end a phrase's line: a `!` or a full stop, a note in brackets, a `#` comment.
const END: &str = r#"["']?[ \t]*[.!]?[ \t]*(?:\([^)\n]*\)|#[^\n]*)?[ \t]*$"#;

/// The passphrase and seed-phrase formats.
pub(super) fn phrases() -> Vec<Format> {
    let passphrase = r"passphrase|pass[ \t]+phrase";
    let seed = r"(?:seed|recovery|backup|secret|mnemonic|wallet|metamask|ledger|trezor|phantom)[ \t-]+(?:phrase|words)|mnemonic|(?:wallet[ \t]+)?seed|(?:12|24)[ \t]+words|phrase[ \t]+de[ \t]+récupération";
    vec![
        format(
            K::Password,
            &format!(r#"(?im)\b(?:{passphrase})\b(?:[ \t]*[:=]|[ \t]+(?:is|was))[ \t]*["']?({WORDS}{{2,23}}){END}"#),
            1,
        )
        .form(Form::Phrase),
        format(
            K::Password,
            &format!(
                r#"(?im)\b(?:{seed})\b(?:[ \t]*\([^)\n]*\))?(?:[ \t]*[:=]|[ \t]+(?:is|are))[ \t]*(?:\r?\n[ \t]*)?["']?({WORDS}{{11,24}}){END}"#
            ),
            1,
        )
        .form(Form::Phrase),
        // In code: `const mnemonic = "…";`, `Wallet.fromMnemonic("…")`.
        format(
            K::Password,
            &format!(
                r#"(?i)(?:\bmnemonic[ \t]*[:=][ \t]*|\b(?:fromMnemonic|from_mnemonic)[ \t]*\([ \t]*)["']({WORDS}{{11,24}})["']"#
            ),
            1,
        )
        .form(Form::Phrase),
    ]
}
