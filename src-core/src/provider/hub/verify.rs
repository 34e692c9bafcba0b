//! Checking a download against its etag: the Hub names LFS files by the sha256 of their
//! content and regular files by their git blob id (sha1 of `blob <len>\0` + content).

use std::io::Read;
use std::path::Path;

use sha1::Sha1;
use sha2::{Digest, Sha256};

/// The hash an etag promises.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ExpectedHash {
    /// 64 hex digits: the sha256 of the content (LFS files).
    Sha256,
    /// 40 hex digits: the git blob sha1 (regular files).
    GitSha1,
    /// Anything else: nothing to check but the size.
    Unknown,
}

impl ExpectedHash {
    pub(crate) fn of_etag(etag: &str) -> Self {
        let hex = etag.bytes().all(|b| b.is_ascii_hexdigit());
        match etag.len() {
            64 if hex => Self::Sha256,
            40 if hex => Self::GitSha1,
            _ => Self::Unknown,
        }
    }
}

/// The hash of the file at `path` of the kind `kind` (lower-case hex); `None` for
/// [`ExpectedHash::Unknown`].
pub(crate) fn hash_file(path: &Path, kind: ExpectedHash) -> std::io::Result<Option<String>> {
    let mut file = std::fs::File::open(path)?;
    let len = file.metadata()?.len();
    match kind {
        ExpectedHash::Sha256 => hash_reader(&mut file, Sha256::new()).map(Some),
        ExpectedHash::GitSha1 => {
            let mut hasher = Sha1::new();
            hasher.update(format!("blob {len}\0").as_bytes());
            hash_reader(&mut file, hasher).map(Some)
        }
        ExpectedHash::Unknown => Ok(None),
    }
}

fn hash_reader(reader: &mut impl Read, mut hasher: impl Digest) -> std::io::Result<String> {
    let mut buffer = vec![0u8; 1 << 20];
    loop {
        let n = reader.read(&mut buffer)?;
        if n == 0 {
            break;
        }
        hasher.update(&buffer[..n]);
    }
    Ok(hex(&hasher.finalize()))
}

/// The git blob id of `content`.
#[cfg(test)]
fn git_sha1(content: &[u8]) -> String {
    let mut hasher = Sha1::new();
    hasher.update(format!("blob {}\0", content.len()).as_bytes());
    hasher.update(content);
    hex(&hasher.finalize())
}

/// The sha256 of `content`.
#[cfg(test)]
fn sha256(content: &[u8]) -> String {
    hex(&Sha256::digest(content))
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn etags_say_which_hash_to_check() {
        assert_eq!(ExpectedHash::of_etag(&"a".repeat(64)), ExpectedHash::Sha256);
        assert_eq!(ExpectedHash::of_etag(&"0".repeat(40)), ExpectedHash::GitSha1);
        assert_eq!(ExpectedHash::of_etag(&"g".repeat(40)), ExpectedHash::Unknown);
        assert_eq!(ExpectedHash::of_etag("abc-1"), ExpectedHash::Unknown);
    }

    #[test]
    fn hashes_match_git_and_sha256sum() {
        // `printf 'hello\n' | git hash-object --stdin` and `| sha256sum`.
        assert_eq!(git_sha1(b"hello\n"), "ce013625030ba8dba906f756967f9e9ca394464a");
        assert_eq!(
            sha256(b"hello\n"),
            "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03"
        );
        assert_eq!(git_sha1(b""), "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, b"hello\n").unwrap();
        assert_eq!(
            hash_file(&path, ExpectedHash::GitSha1).unwrap().as_deref(),
            Some("ce013625030ba8dba906f756967f9e9ca394464a")
        );
        assert_eq!(
            hash_file(&path, ExpectedHash::Sha256).unwrap(),
            Some(sha256(b"hello\n"))
        );
        assert_eq!(hash_file(&path, ExpectedHash::Unknown).unwrap(), None);
    }
}
