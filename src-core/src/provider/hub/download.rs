//! Downloading one file into its `.incomplete` file, resuming what is there with a `Range`
//! request and retrying a cut connection a few times with a short backoff.

use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::time::Duration;

use reqwest::header::{ACCEPT_ENCODING, CONTENT_RANGE, RANGE};
use reqwest::{Client, Response, StatusCode};

use super::HubError;
use super::metadata::{describe, header, unreachable};
use super::progress::Reporter;

/// Attempts in a row that bring no new byte before the download gives up.
const MAX_FAILED_ATTEMPTS: u32 = 5;
/// The wait before the first retry; doubled for each further one, up to [`MAX_BACKOFF`].
const FIRST_BACKOFF: Duration = Duration::from_millis(250);
const MAX_BACKOFF: Duration = Duration::from_secs(4);

/// One file to download.
pub(crate) struct Transfer<'a> {
    /// A client that follows redirects.
    pub client: &'a Client,
    pub url: &'a str,
    /// The file's name in the repository, for errors.
    pub file: &'a str,
    pub expected_size: Option<u64>,
}

/// How an attempt ended.
enum Attempt {
    /// The whole body arrived.
    Complete,
    /// Worth another try (with what is on disk): a cut connection, a timeout, a 5xx.
    Retry(HubError),
}

impl Transfer<'_> {
    /// Downloads into `incomplete`, continuing what it holds. On success it holds the whole
    /// file, flushed to disk; on error it keeps what arrived (for a later resume) unless the
    /// error says it is wrong ([`HubError::SizeMismatch`]).
    pub(crate) async fn run(&self, incomplete: &Path, progress: &mut Reporter<'_>) -> Result<(), HubError> {
        let io = HubError::io(incomplete);
        let mut file = File::options().create(true).append(true).open(incomplete).map_err(io)?;
        let mut have = file.metadata().map_err(HubError::io(incomplete))?.len();
        if self.expected_size.is_some_and(|size| have > size) {
            truncate(&file, incomplete, &mut have)?;
        }
        progress.start_file(self.file, have, self.expected_size);
        let mut failures = 0u32;
        loop {
            if self.expected_size == Some(have) {
                break;
            }
            let before = have;
            match self.attempt(&mut file, incomplete, &mut have, progress).await? {
                Attempt::Complete => break,
                Attempt::Retry(error) => {
                    if have > before {
                        failures = 0;
                    }
                    failures += 1;
                    if failures >= MAX_FAILED_ATTEMPTS {
                        return Err(error);
                    }
                    tokio::time::sleep(backoff(failures)).await;
                }
            }
        }
        file.sync_all().map_err(HubError::io(incomplete))?;
        Ok(())
    }

    async fn attempt(
        &self,
        file: &mut File,
        path: &Path,
        have: &mut u64,
        progress: &mut Reporter<'_>,
    ) -> Result<Attempt, HubError> {
        let mut request = self.client.get(self.url).header(ACCEPT_ENCODING, "identity");
        if *have > 0 {
            request = request.header(RANGE, format!("bytes={have}-"));
        }
        let mut response = match request.send().await {
            Ok(response) => response,
            Err(e) => return Ok(Attempt::Retry(unreachable(self.url, e))),
        };
        let status = response.status();
        match status {
            StatusCode::PARTIAL_CONTENT if range_start(&response) == Some(*have) => {}
            // The server ignored the range: start again.
            StatusCode::OK | StatusCode::PARTIAL_CONTENT
                if status == StatusCode::OK || range_start(&response) == Some(0) =>
            {
                if *have > 0 {
                    truncate(file, path, have)?;
                    progress.bytes(0);
                }
            }
            StatusCode::PARTIAL_CONTENT | StatusCode::RANGE_NOT_SATISFIABLE => {
                truncate(file, path, have)?;
                progress.bytes(0);
                return Ok(Attempt::Retry(
                    self.bad("it answered a range other than the one asked for"),
                ));
            }
            s if s == StatusCode::REQUEST_TIMEOUT || s == StatusCode::TOO_MANY_REQUESTS || s.is_server_error() => {
                return Ok(Attempt::Retry(self.http(s)));
            }
            s => return Err(self.http(s)),
        }
        loop {
            let chunk = match response.chunk().await {
                Ok(Some(chunk)) => chunk,
                Ok(None) => break,
                Err(e) => {
                    return Ok(Attempt::Retry(HubError::Unreachable {
                        url: self.url.to_owned(),
                        reason: format!(
                            "the connection failed after {have} bytes of {}: {}",
                            self.file,
                            describe(&e)
                        ),
                    }));
                }
            };
            let after = have.saturating_add(chunk.len() as u64);
            if let Some(expected) = self.expected_size.filter(|size| after > *size) {
                return Err(HubError::SizeMismatch {
                    file: self.file.to_owned(),
                    expected,
                    actual: after,
                });
            }
            if let Err(e) = file.write_all(&chunk) {
                if e.kind() == std::io::ErrorKind::StorageFull {
                    // A full disk must not stay full because of a half download: the store
                    // (often on the same disk) has to keep working.
                    let _ = std::fs::remove_file(path);
                }
                return Err(HubError::io(path)(e));
            }
            *have = after;
            progress.bytes(after);
        }
        match self.expected_size {
            Some(expected) if *have < expected => Ok(Attempt::Retry(HubError::Unreachable {
                url: self.url.to_owned(),
                reason: format!(
                    "the connection closed after {have} of {expected} bytes of {}",
                    self.file
                ),
            })),
            _ => Ok(Attempt::Complete),
        }
    }

    fn http(&self, status: StatusCode) -> HubError {
        HubError::Http {
            url: self.url.to_owned(),
            status: status.as_u16(),
        }
    }

    fn bad(&self, reason: &str) -> HubError {
        HubError::BadResponse {
            url: self.url.to_owned(),
            reason: reason.to_owned(),
        }
    }
}

fn truncate(file: &File, path: &Path, have: &mut u64) -> Result<(), HubError> {
    file.set_len(0).map_err(HubError::io(path))?;
    *have = 0;
    Ok(())
}

/// The first byte of a `Content-Range: bytes START-END/TOTAL` answer.
fn range_start(response: &Response) -> Option<u64> {
    parse_range_start(&header(response.headers(), CONTENT_RANGE.as_str())?)
}

fn parse_range_start(value: &str) -> Option<u64> {
    let range = value.trim().strip_prefix("bytes")?.trim_start();
    range.split_once('-')?.0.trim().parse().ok()
}

/// The wait before retry number `failures` (from 1).
fn backoff(failures: u32) -> Duration {
    FIRST_BACKOFF
        .saturating_mul(1u32 << failures.saturating_sub(1).min(8))
        .min(MAX_BACKOFF)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_ranges_give_their_start() {
        assert_eq!(parse_range_start("bytes 100-199/200"), Some(100));
        assert_eq!(parse_range_start("bytes 0-0/*"), Some(0));
        assert_eq!(parse_range_start("bytes */200"), None);
        assert_eq!(parse_range_start("items 1-2/3"), None);
        assert_eq!(parse_range_start("bytes 99999999999999999999999-1/2"), None);
    }

    #[test]
    fn backoff_grows_and_stays_short() {
        assert_eq!(backoff(1), Duration::from_millis(250));
        assert_eq!(backoff(2), Duration::from_millis(500));
        assert_eq!(backoff(40), MAX_BACKOFF);
    }
}
