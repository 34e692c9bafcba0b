//! Public data that looks random: what the random-token screen leaves alone although it
//! mixes letters and digits (a subresource integrity hash, a go.sum line, an SSH public
//! key, a Stripe object id, a YouTube playlist, a Drive file id, a Bitcoin address, an
//! IPFS content id, a KSUID). None of it opens anything.

use sha2::{Digest, Sha256};

/// The prefixes of Stripe's object ids (`pi_`, `cus_`, `sub_`): an object's name, not a
/// key (the keys are `sk_`, `rk_`, `whsec_`, found by their formats).
const STRIPE_OBJECTS: &[&str] = &[
    "pi", "sub", "cus", "ch", "in", "pm", "seti", "src", "txn", "re", "prod", "price", "evt", "acct", "cs", "po", "tr",
    "py", "card", "ba", "si", "il", "ii", "plan", "prc", "ibt", "ipi", "pyr", "fee", "file", "link",
];

/// The base64 starts of SSH public keys (`ssh-rsa`, `ssh-ed25519`, `ecdsa-sha2-…`,
/// `sk-ssh-ed25519@openssh.com`).
/// The prefixes of AI platforms' object ids (OpenAI, Anthropic): messages, files,
/// assistants, threads, runs, tool calls, responses, requests, organisations. Public
/// handles an agent keeps to refer back, never credentials.
const AI_OBJECTS: &[&str] = &[
    "msg_",
    "msgbatch_",
    "req_",
    "toolu_",
    "file-",
    "file_",
    "asst_",
    "thread_",
    "run_",
    "step_",
    "call_",
    "chatcmpl-",
    "resp_",
    "batch_",
    "ftjob-",
    "vs_",
    "org-",
    "user-",
    "proj_",
];

/// Words near a base58 address that say it is a Solana account's ("Sent 2 SOL to …").
const SOLANA_WORDS: &[&str] = &[
    "sol", "solana", "wallet", "phantom", "address", "mint", "program", "account",
];

const SSH_KEYS: &[&str] = &[
    "AAAAB3NzaC1",
    "AAAAC3NzaC1",
    "AAAAE2VjZHNh",
    "AAAAG3NrLXNzaC1",
    "AAAAInNrLWVjZHNh",
];

/// The starts of a password's hash (`$2b$12$…`, `$argon2id$…`): stored by a login, not
/// the password.
pub(super) const HASH_PREFIXES: &[&str] = &[
    "$2a$", "$2b$", "$2y$", "$argon2", "$pbkdf2", "$scrypt", "$1$", "$5$", "$6$", "$y$",
];

/// The base64 starts of images and documents (PNG, JPEG, GIF, WebP, PDF): a file, not a key.
const FILE_STARTS: &[&str] = &["iVBORw0KGgo", "/9j/", "R0lGOD", "UklGR", "JVBERi0"];

/// A URL query's keys whose value names a public object (`?list=PL…`, `open?id=1Bxi…`).
const ID_KEYS: &[&str] = &["list", "id", "v"];

/// Names of what is public, read as the word before a token: a public key or an address
/// given as one ("WireGuard PublicKey = …", "Solana address: …", "Tx: …"), a mail's or a
/// server's message and request ids (`Message-ID: <…@mail.gmail.com>`, `x-amz-id-2: …`).
const PUBLIC_NAMES: &[&str] = &[
    "publickey",
    "pubkey",
    "address",
    "wallet",
    "tx",
    "txid",
    "txhash",
    "signature",
    "message-id",
    "in-reply-to",
    "references",
    "x-amz-id-2",
    "x-amz-cf-id",
    "x-amz-request-id",
    "etag",
];

/// Whether the text before a token ends inside a PEM block of public data: a certificate, a
/// certificate request or a public key (`-----BEGIN CERTIFICATE-----`, no END yet).
fn in_public_block(before: &str) -> bool {
    let Some(at) = before.rfind("-----BEGIN ") else {
        return false;
    };
    let block = &before[at..];
    let header = block.lines().next().unwrap_or("");
    !block.contains("-----END")
        && ["CERTIFICATE", "PUBLIC KEY", "X509 CRL"]
            .iter()
            .any(|kind| header.contains(kind))
        && !header.contains("PRIVATE")
}

/// Whether `token`, after `before` (the text before it), is public data; `word` is the
/// text between the last white space and the token.
pub(super) fn is_public(token: &str, before: &str, word: &str) -> bool {
    // The word before the token, read from its last 40 characters at most (a text without
    // spaces is read once).
    let previous_word = || {
        let tail = before
            .char_indices()
            .rev()
            .nth(40)
            .map_or(before, |(i, _)| &before[i..]);
        // `PublicKey = …`, `Message-ID: <…`: the word before the sign.
        tail.trim_end()
            .trim_end_matches(['=', ':', '<', '"', '\''])
            .trim_end()
            .rsplit(char::is_whitespace)
            .next()
            .unwrap_or("")
            .trim_end_matches(':')
            .to_lowercase()
    };
    let quoted_word = word.trim_start_matches(['"', '\'', '`']);
    ["sha256-", "sha384-", "sha512-"].iter().any(|p| token.starts_with(p))
        || HASH_PREFIXES.iter().any(|p| quoted_word.starts_with(p))
        || FILE_STARTS.iter().any(|p| token.starts_with(p))
        || before.ends_with("h1:")
        // A public key or an address given as one ("WireGuard PublicKey = …", "Solana
        // address: …", "Tx: …").
        || PUBLIC_NAMES.contains(&previous_word().trim_end_matches(['=', ':', '<']).trim_start_matches(['"', '\'']))
        // Inside a certificate or a public key's PEM block, a DKIM record's key (`v=DKIM1; … p=…`).
        || in_public_block(before)
        || before.to_lowercase().contains("v=dkim1")
        || ["public key", "site key", "publishable key", "public token"]
            .iter()
            .any(|k| before.to_lowercase().trim_end().trim_end_matches(['=', ':']).trim_end().ends_with(k))
        // An SSH host key's fingerprint (`SHA256:uNiVz…`, `MD5:…`), a Cisco type 8 or 9 hash.
        || before.ends_with("SHA256:")
        || before.ends_with("MD5:")
        || quoted_word.starts_with("$8$")
        || quoted_word.starts_with("$9$")
        || SSH_KEYS.iter().any(|p| token.starts_with(p))
        || is_publishable(token)
        || quoted_word.starts_with("pk.eyJ")
        || quoted_word == "pk."
        || token
            .split_once('_')
            .is_some_and(|(p, rest)| STRIPE_OBJECTS.contains(&p) && rest.chars().all(|c| c.is_ascii_alphanumeric()))
        || (word.contains("://")
            && ID_KEYS
                .iter()
                .any(|k| before.ends_with(&format!("?{k}=")) || before.ends_with(&format!("&{k}="))))
        || (token.len() == 27 && previous_word() == "ksuid")
        || AI_OBJECTS
            .iter()
            .any(|p| token.strip_prefix(p).is_some_and(|rest| rest.chars().all(|c| c.is_ascii_alphanumeric())))
        || is_ethereum_address(token)
        || is_solana_address(token, before)
        || is_bitcoin_address(token)
        || is_ipfs_cid(token)
        || is_bech32_public(token)
}

/// A bech32 or bech32m string whose checksum holds (`bc1…`, `npub1…`, `age1…`, `lnbc…`):
/// an address, a public key or an invoice. A Nostr secret key (`nsec1…`) is not public.
fn is_bech32_public(token: &str) -> bool {
    const CHARSET: &[u8] = b"qpzry9x8gf2tvdw0s3jn54khce6mua7l";
    const GENERATOR: [u32; 5] = [0x3b6a_57b2, 0x2650_8e6d, 0x1ea1_19fa, 0x3d42_33dd, 0x2a14_62b3];
    let lower = token.to_ascii_lowercase();
    if token != lower && token != token.to_ascii_uppercase() {
        return false;
    }
    let Some((hrp, data)) = lower.rsplit_once('1') else {
        return false;
    };
    if hrp.is_empty() || hrp == "nsec" || data.len() < 6 {
        return false;
    }
    let Some(data) = data
        .bytes()
        .map(|c| CHARSET.iter().position(|&a| a == c).map(|v| v as u32))
        .collect::<Option<Vec<u32>>>()
    else {
        return false;
    };
    let hrp_values = hrp
        .bytes()
        .map(|c| u32::from(c) >> 5)
        .chain([0])
        .chain(hrp.bytes().map(|c| u32::from(c) & 31));
    let check = hrp_values.chain(data).fold(1u32, |check, value| {
        let top = check >> 25;
        let mut next = ((check & 0x1ff_ffff) << 5) ^ value;
        for (i, g) in GENERATOR.iter().enumerate() {
            if (top >> i) & 1 == 1 {
                next ^= g;
            }
        }
        next
    });
    check == 1 || check == 0x2bc8_30a3
}

/// Base58 (Bitcoin's alphabet) decoded, or `None`.
fn base58(text: &str) -> Option<Vec<u8>> {
    const ALPHABET: &[u8] = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
    let mut bytes: Vec<u8> = Vec::new();
    for c in text.bytes() {
        let mut carry = u32::try_from(ALPHABET.iter().position(|&a| a == c)?).ok()?;
        for b in bytes.iter_mut().rev() {
            carry += u32::from(*b) * 58;
            *b = (carry & 0xff) as u8;
            carry >>= 8;
        }
        while carry > 0 {
            bytes.insert(0, (carry & 0xff) as u8);
            carry >>= 8;
        }
    }
    let zeros = text.bytes().take_while(|&c| c == b'1').count();
    let mut out = vec![0; zeros];
    out.extend(bytes);
    Some(out)
}

/// A Bitcoin address (`1…`, `3…`) whose checksum holds: one typed at random does not.
/// `0x` and 40 hex digits (an EIP-55 checksum mixes their case): an Ethereum address,
/// public; a private key is 64.
/// Whether `token` is a key made to be given to every browser: Stripe's publishable keys,
/// PostHog's project keys, Mapbox's public tokens.
pub(super) fn is_publishable(token: &str) -> bool {
    ["pk_live_", "pk_test_", "phc_", "pk.eyJ"]
        .iter()
        .any(|p| token.starts_with(p))
}

fn is_ethereum_address(token: &str) -> bool {
    token.len() == 42 && token.starts_with("0x") && token[2..].chars().all(|c| c.is_ascii_hexdigit())
}

/// A base58 account of 32 bytes with a word of Solana's before it on its line.
fn is_solana_address(token: &str, before: &str) -> bool {
    let line = before.rsplit('\n').next().unwrap_or(before).to_lowercase();
    (32..=44).contains(&token.len())
        && line
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| SOLANA_WORDS.contains(&w))
        && base58(token).is_some_and(|b| b.len() == 32)
}

fn is_bitcoin_address(token: &str) -> bool {
    if !(26..=35).contains(&token.len()) || !token.starts_with(['1', '3']) {
        return false;
    }
    let Some(bytes) = base58(token) else {
        return false;
    };
    if bytes.len() != 25 {
        return false;
    }
    let hash = Sha256::digest(Sha256::digest(&bytes[..21]));
    hash[..4] == bytes[21..]
}

/// An IPFS content id of version 0: `Qm…`, a SHA-256 multihash in base58.
fn is_ipfs_cid(token: &str) -> bool {
    token.len() == 46
        && token.starts_with("Qm")
        && base58(token).is_some_and(|b| b.len() == 34 && b[0] == 0x12 && b[1] == 0x20)
}
