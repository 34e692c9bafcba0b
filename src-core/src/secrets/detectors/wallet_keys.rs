//! An Ethereum private key (64 hex digits, `0x` or not) where the line says it is one:
//! after "private key", "deployer key" or a wallet's constructor (`new ethers.Wallet("0x…")`),
//! or before "is the deployer key". Alone, 64 hex digits are a transaction's or a block's
//! hash, which is public.

use super::{Format, format};
use crate::secrets::SecretKind as K;

/// The wallet-key formats.
pub(super) fn formats() -> Vec<Format> {
    let names = r"private[ \t_-]?key|priv[ \t_-]?key|(?:deployer|signer|wallet|owner)[ \t_-]?key";
    vec![
        // "private key: …", "Private key for the test wallet (Sepolia): …", `PRIVATE_KEY=0x…`.
        format(
            K::PrivateKey,
            &format!(r#"(?i)\b(?:{names})\b(?:[^:=\n]{{0,60}}?[:=])?[ \t"'`]*(?:0x)?([0-9a-fA-F]{{64}})\b"#),
            1,
        ),
        format(
            K::PrivateKey,
            r#"\bnew[ \t]+(?:ethers\.)?Wallet[ \t]*\([ \t]*["'`]?(?:0x)?([0-9a-fA-F]{64})\b"#,
            1,
        ),
        format(
            K::PrivateKey,
            &format!(
                r#"(?i)\b(?:0x)?([0-9a-f]{{64}})\b[ \t]+(?:is[ \t]+)?(?:the[ \t]+|my[ \t]+|our[ \t]+)?(?:{names})\b"#
            ),
            1,
        ),
    ]
}
