//! What the Hub says of a file before it is downloaded: a `HEAD` of its `resolve` URL,
//! following redirects that stay on the Hub (a renamed repository) but not the one to a CDN
//! (whose answer carries the LFS file's metadata), gives the commit, the etag and the size.

use reqwest::header::{ACCEPT_ENCODING, CONTENT_LENGTH, ETAG, HeaderMap, LOCATION};
use reqwest::{Client, StatusCode, Url};

use super::HubError;
use super::cache::check_component;

const X_REPO_COMMIT: &str = "x-repo-commit";
const X_LINKED_ETAG: &str = "x-linked-etag";
const X_LINKED_SIZE: &str = "x-linked-size";
const X_ERROR_CODE: &str = "x-error-code";
/// Redirects on the Hub followed at most.
const MAX_REDIRECTS: usize = 5;

/// A file's identity at a commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FileMetadata {
    /// The commit the revision resolved to.
    pub commit: String,
    /// The etag: sha256 of LFS files, git blob id of others; names the blob.
    pub etag: String,
    /// The size, when the Hub said it.
    pub size: Option<u64>,
}

/// What a `HEAD` found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Head {
    Found(FileMetadata),
    /// The repository and revision exist but not the file; the commit when the Hub said it.
    Missing {
        commit: Option<String>,
    },
}

/// Who is asking, for error messages.
pub(crate) struct FileRef<'a> {
    pub repo: &'a str,
    pub revision: &'a str,
}

/// `HEAD url` (`client` must not follow redirects), following only redirects to the same
/// origin that do not already carry an LFS file's metadata.
pub(crate) async fn head(client: &Client, url: &str, what: &FileRef<'_>) -> Result<Head, HubError> {
    let mut current = Url::parse(url).map_err(|e| HubError::BadResponse {
        url: url.to_owned(),
        reason: format!("the URL is invalid: {e}"),
    })?;
    let mut seen_commit: Option<String> = None;
    for _ in 0..=MAX_REDIRECTS {
        let response = client
            .head(current.clone())
            .header(ACCEPT_ENCODING, "identity")
            .send()
            .await
            .map_err(|e| unreachable(url, e))?;
        let status = response.status();
        let headers = response.headers();
        seen_commit = header(headers, X_REPO_COMMIT).or(seen_commit);
        if status.is_client_error() || status.is_server_error() {
            return error_of(status, headers, url, what, seen_commit);
        }
        if status.is_redirection()
            && header(headers, X_LINKED_ETAG).is_none()
            && let Some(next) = header(headers, LOCATION.as_str()).and_then(|l| same_origin_target(&current, &l))
        {
            current = next;
            continue;
        }
        return metadata_of(headers, status, url, seen_commit).map(Head::Found);
    }
    Err(HubError::BadResponse {
        url: url.to_owned(),
        reason: "too many redirects".to_owned(),
    })
}

fn metadata_of(
    headers: &HeaderMap,
    status: StatusCode,
    url: &str,
    commit: Option<String>,
) -> Result<FileMetadata, HubError> {
    let bad = |reason: &str| HubError::BadResponse {
        url: url.to_owned(),
        reason: reason.to_owned(),
    };
    let commit = commit.ok_or_else(|| bad("no X-Repo-Commit header"))?;
    check_component(&commit).map_err(|_| bad("the X-Repo-Commit header is not a commit id"))?;
    let etag = header(headers, X_LINKED_ETAG)
        .or_else(|| header(headers, ETAG.as_str()))
        .map(|e| normalize_etag(&e))
        .ok_or_else(|| bad("no ETag header"))?;
    check_component(&etag).map_err(|_| bad("the ETag header cannot name a file"))?;
    let size = header(headers, X_LINKED_SIZE)
        .or_else(|| {
            (!status.is_redirection())
                .then(|| header(headers, CONTENT_LENGTH.as_str()))
                .flatten()
        })
        .and_then(|s| s.parse::<u64>().ok());
    Ok(FileMetadata { commit, etag, size })
}

/// Maps a 4xx/5xx answer: the Hub's `X-Error-Code` tells a missing repository, revision
/// or file apart; a plain 404 is a missing file.
pub(crate) fn error_of(
    status: StatusCode,
    headers: &HeaderMap,
    url: &str,
    what: &FileRef<'_>,
    commit: Option<String>,
) -> Result<Head, HubError> {
    let code = header(headers, X_ERROR_CODE).unwrap_or_default();
    match (code.as_str(), status.as_u16()) {
        ("RepoNotFound", _) | ("", 401) => Err(HubError::RepoNotFound {
            repo: what.repo.to_owned(),
        }),
        ("RevisionNotFound", _) => Err(HubError::RevisionNotFound {
            repo: what.repo.to_owned(),
            revision: what.revision.to_owned(),
        }),
        ("EntryNotFound", _) | ("", 404) => Ok(Head::Missing {
            commit: commit.filter(|c| check_component(c).is_ok()),
        }),
        (_, status) => Err(HubError::Http {
            url: url.to_owned(),
            status,
        }),
    }
}

/// `"abc"` and `W/"abc"` → `abc`.
pub(crate) fn normalize_etag(etag: &str) -> String {
    let etag = etag.trim();
    etag.strip_prefix("W/").unwrap_or(etag).trim_matches('"').to_owned()
}

/// A header as text, if it is present and readable.
pub(crate) fn header(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.trim().to_owned())
        .filter(|v| !v.is_empty())
}

/// `location` resolved against `base`, when it has the same origin (scheme, host, port).
fn same_origin_target(base: &Url, location: &str) -> Option<Url> {
    let target = base.join(location).ok()?;
    (target.origin() == base.origin()).then_some(target)
}

/// A connection failure, with the causes the client gives.
pub(crate) fn unreachable(url: &str, error: reqwest::Error) -> HubError {
    HubError::Unreachable {
        url: url.to_owned(),
        reason: describe(&error.without_url()),
    }
}

/// `error` and its sources, most specific last, without repeats.
pub(crate) fn describe(error: &(dyn std::error::Error + 'static)) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut next: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(e) = next {
        let text = e.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        next = e.source();
    }
    parts.join(": ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (k, v) in pairs {
            map.insert(*k, HeaderValue::from_str(v).unwrap());
        }
        map
    }

    #[test]
    fn etags_lose_quotes_and_the_weak_mark() {
        assert_eq!(normalize_etag("\"abc\""), "abc");
        assert_eq!(normalize_etag("W/\"abc\""), "abc");
        assert_eq!(normalize_etag(" abc "), "abc");
    }

    #[test]
    fn lfs_files_are_known_by_their_linked_etag_and_size() {
        let commit = "c".repeat(40);
        let h = headers(&[
            ("x-linked-etag", &format!("\"{}\"", "a".repeat(64))),
            ("etag", "\"pointer\""),
            ("x-linked-size", "90868376"),
            ("content-length", "1234"),
        ]);
        let m = metadata_of(&h, StatusCode::FOUND, "u", Some(commit.clone())).unwrap();
        assert_eq!((m.etag.as_str(), m.size), ("a".repeat(64).as_str(), Some(90_868_376)));
        let h = headers(&[("etag", "W/\"0123\""), ("content-length", "12")]);
        let m = metadata_of(&h, StatusCode::OK, "u", Some(commit.clone())).unwrap();
        assert_eq!((m.etag.as_str(), m.size), ("0123", Some(12)));
        // A redirect's own length is not the file's.
        let m = metadata_of(&h, StatusCode::FOUND, "u", Some(commit)).unwrap();
        assert_eq!(m.size, None);
    }

    #[test]
    fn answers_without_usable_headers_are_refused() {
        let ok = headers(&[("etag", "\"e\"")]);
        assert!(matches!(
            metadata_of(&ok, StatusCode::OK, "u", None),
            Err(HubError::BadResponse { .. })
        ));
        assert!(metadata_of(&ok, StatusCode::OK, "u", Some("../x".into())).is_err());
        let traversal = headers(&[("etag", "\"../../x\"")]);
        assert!(metadata_of(&traversal, StatusCode::OK, "u", Some("c".into())).is_err());
        let huge = headers(&[("etag", "\"e\""), ("x-linked-size", "99999999999999999999999")]);
        assert_eq!(
            metadata_of(&huge, StatusCode::OK, "u", Some("c".into())).unwrap().size,
            None
        );
    }

    #[test]
    fn error_codes_tell_repository_revision_and_file_apart() {
        let what = FileRef {
            repo: "o/m",
            revision: "main",
        };
        let code = |c: &str| headers(&[("x-error-code", c)]);
        let not_found = StatusCode::NOT_FOUND;
        assert!(matches!(
            error_of(not_found, &code("RepoNotFound"), "u", &what, None),
            Err(HubError::RepoNotFound { .. })
        ));
        assert!(matches!(
            error_of(StatusCode::UNAUTHORIZED, &HeaderMap::new(), "u", &what, None),
            Err(HubError::RepoNotFound { .. })
        ));
        assert!(matches!(
            error_of(not_found, &code("RevisionNotFound"), "u", &what, None),
            Err(HubError::RevisionNotFound { .. })
        ));
        assert_eq!(
            error_of(not_found, &code("EntryNotFound"), "u", &what, Some("c1".into())).unwrap(),
            Head::Missing {
                commit: Some("c1".into())
            }
        );
        assert!(matches!(
            error_of(StatusCode::BAD_GATEWAY, &HeaderMap::new(), "u", &what, None),
            Err(HubError::Http { status: 502, .. })
        ));
    }

    #[test]
    fn only_redirects_on_the_hub_are_followed() {
        let base = Url::parse("https://hub.example/o/m/resolve/main/f").unwrap();
        assert_eq!(
            same_origin_target(&base, "/o2/m/resolve/main/f").unwrap().as_str(),
            "https://hub.example/o2/m/resolve/main/f"
        );
        assert!(same_origin_target(&base, "https://hub.example/o3/m/resolve/main/f").is_some());
        assert!(same_origin_target(&base, "https://cdn.example/x").is_none());
        assert!(same_origin_target(&base, "https://hub.example:8443/x").is_none());
        assert!(same_origin_target(&base, "//cdn.example/x").is_none());
    }
}
