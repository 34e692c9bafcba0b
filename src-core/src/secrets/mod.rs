//! Secrets are kept out of the store: every text that enters it (an add, an import, an
//! edit, a core.md change, an agent's state, an LLM's answer) is screened first, and each
//! credential found is replaced by a marker naming its kind, such as
//! `[secret: aws access key]`, before anything is written or sent to the LLM.
//!
//! What is found ([`SecretKind`]):
//!
//! - cloud keys: AWS access key ids (`AKIA…`, `ASIA…`) and the secret key written beside
//!   them, Google API keys (`AIza…`), Azure account and shared-access keys, service-account
//!   private keys;
//! - VCS and chat tokens: GitHub (`ghp_`, `gho_`, `ghs_`, `ghu_`, `ghr_`, `github_pat_`),
//!   GitLab (`glpat-`), Slack (`xoxb-` and the like, webhooks), Discord (bot tokens,
//!   webhooks), Telegram bot tokens;
//! - API keys: OpenAI (`sk-`, `sk-proj-`), Anthropic (`sk-ant-`), Stripe (`sk_live_`,
//!   `rk_live_`), and any value of an `api_key=`, `access_token:`, `client_secret=`, or
//!   `Bearer` that mixes letters and digits;
//! - Hugging Face tokens (`hf_`), and the tokens of npm, PyPI, SendGrid, Groq, Linear,
//!   Notion, DigitalOcean, Shopify and Google OAuth, known by their prefixes;
//! - JWTs (`eyJ….eyJ….signature`) and PEM private-key blocks (BEGIN to END);
//! - passwords: `password=`, `passwd:`, `pwd=`, "my password is …", and the password of a
//!   connection string (`postgres://user:PASSWORD@host`: the user and host are kept), and
//!   any word that mixes upper and lower case, digits and a symbol (`Azul2024!`), labelled
//!   or not (see `lone_passwords`);
//! - PINs and keypad codes: the digits after "PIN", "passcode", "door code", "CVV";
//! - recovery and backup codes, and a disk's recovery key;
//! - long random-looking tokens (see `entropy`): not hex digests, git SHAs, UUIDs, data
//!   URLs, paths, words, numbers or dates.
//!
//! `secrets.policy` says what happens next ([`SecretPolicy`]): `redact` (the default)
//! stores the text with its markers; `hold` stores it the same way but leaves the change
//! for a person's review. Either way the original is never written.

#[cfg(test)]
mod benign;
#[cfg(test)]
mod benign_config;
#[cfg(test)]
mod benign_forms;
#[cfg(test)]
mod benign_prose;
mod detectors;
mod entropy;
#[cfg(test)]
mod leaks;
#[cfg(test)]
mod leaks_forms;
#[cfg(test)]
mod leaks_plain;
#[cfg(test)]
mod leaks_shape;
mod lone_passwords;
mod policy;
mod public;
mod recent;
pub(crate) mod redact;
#[cfg(test)]
mod tests;
mod values;
mod wallet_secrets;

use std::ops::Range;

pub use policy::SecretPolicy;
pub use redact::SecretTally;

closed_set! {
    /// The kind of a secret found in a text: what its marker names.
    pub enum SecretKind ("secret kind") {
        /// `-----BEGIN … PRIVATE KEY-----` to its END line, or a service account's key id.
        PrivateKey = "private key",
        /// An AWS access key id (`AKIA…`, `ASIA…`).
        AwsAccessKey = "aws access key",
        /// An AWS secret access key, written as one.
        AwsSecretKey = "aws secret key",
        /// A Google API key (`AIza…`).
        GoogleApiKey = "google api key",
        /// A GitHub token (`ghp_`, `gho_`, `ghs_`, `ghu_`, `ghr_`, `github_pat_`).
        GithubToken = "github token",
        /// A GitLab token (`glpat-`).
        GitlabToken = "gitlab token",
        /// A Slack token (`xoxb-`, `xoxp-`, …).
        SlackToken = "slack token",
        /// A Slack webhook URL.
        SlackWebhook = "slack webhook",
        /// A Discord bot token.
        DiscordToken = "discord token",
        /// A Discord webhook URL.
        DiscordWebhook = "discord webhook",
        /// A Telegram bot token.
        TelegramToken = "telegram token",
        /// An Anthropic API key (`sk-ant-`).
        AnthropicKey = "anthropic api key",
        /// A Stripe key (`sk_live_`, `rk_live_`, …).
        StripeKey = "stripe key",
        /// An OpenAI-style API key (`sk-`, `sk-proj-`).
        OpenaiKey = "openai api key",
        /// A Hugging Face token (`hf_`, `api_org_`).
        HuggingfaceToken = "hugging face token",
        /// A haema agent key (`haema_ak_`): a bearer key for `haema mcp --http`.
        HaemaAgentKey = "haema agent key",
        /// A JSON Web Token.
        Jwt = "jwt",
        /// An Azure storage or shared-access key.
        AzureKey = "azure key",
        /// A password: assigned, said, or in a connection string.
        Password = "password",
        /// A PIN or a keypad's code: digits said after "PIN", "passcode", "door code".
        Pin = "pin",
        /// The value of an `api_key`, `access_token`, `client_secret` or `Bearer`.
        ApiKey = "api key",
        /// An authenticator's seed (TOTP), from which every one-time code is made.
        OtpSeed = "2fa seed",
        /// An account's recovery or backup codes, or a disk's recovery key.
        RecoveryCode = "recovery code",
        /// A long random-looking token of no known format.
        HighEntropy = "high-entropy token",
    }
}

impl SecretKind {
    /// The marker that replaces a secret of this kind: `[secret: aws access key]`.
    pub fn marker(self) -> String {
        format!("[secret: {}]", self.as_str())
    }
}

/// One secret in a text: its kind and where it is (a byte range).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SecretFinding {
    /// What it is.
    pub kind: SecretKind,
    /// Where it is in the text, in bytes.
    pub span: Range<usize>,
}

/// Every secret in `text`, in order; empty for ordinary text. It is looked for in the text
/// as a reader gets it (full-width letters as ASCII, invisible characters dropped: a key
/// split by a zero-width space is whole again when quoted), and its span covers the
/// characters hidden inside it.
///
/// ```
/// use haema_core::secrets::{self, SecretKind};
/// let found = secrets::find("My AWS access key is AKIAIOSFODNN7EXAMPLE");
/// assert_eq!(found[0].kind, SecretKind::AwsAccessKey);
/// assert!(secrets::find("The user's commit is 3f786850e387550fdab836ed7e6dc881de23001b").is_empty());
/// let split = "key AKIA\u{200B}IOSFODNN7EXAMPLE";
/// assert_eq!(&split[secrets::find(split)[0].span.clone()], "AKIA\u{200B}IOSFODNN7EXAMPLE");
/// ```
pub fn find(text: &str) -> Vec<SecretFinding> {
    if let Some(found) = recent::found(text) {
        return found;
    }
    // No finding crosses a Markdown heading: a key cut short in one section of core.md
    // never takes the sections after it.
    let mut found = Vec::new();
    for (start, block) in heading_blocks(text) {
        found.extend(find_in_block(block).into_iter().map(|f| SecretFinding {
            kind: f.kind,
            span: f.span.start + start..f.span.end + start,
        }));
    }
    recent::keep(text, &found);
    found
}

/// `text` cut before each line that starts with `#` (a Markdown heading), with where each
/// part starts.
fn heading_blocks(text: &str) -> Vec<(usize, &str)> {
    let mut starts = vec![0];
    starts.extend(text.match_indices("\n#").map(|(i, _)| i + 1));
    starts.push(text.len());
    starts.dedup();
    starts.windows(2).map(|w| (w[0], &text[w[0]..w[1]])).collect()
}

/// [`find`] in a text with no heading inside.
fn find_in_block(text: &str) -> Vec<SecretFinding> {
    match crate::text::visible::Visible::of(text) {
        None => find_in(text),
        Some(visible) => find_in(&visible.text)
            .into_iter()
            .map(|f| SecretFinding {
                kind: f.kind,
                span: visible.original(&f.span),
            })
            .collect(),
    }
}

/// [`find`] in a text already in its visible form.
fn find_in(text: &str) -> Vec<SecretFinding> {
    let mut found: Vec<SecretFinding> = Vec::new();
    let overlaps = |found: &[SecretFinding], span: &Range<usize>| {
        found.iter().any(|f| f.span.start < span.end && span.start < f.span.end)
    };
    let open = detectors::GATE.open(text);
    for (format, _) in detectors::FORMATS.iter().zip(open).filter(|(_, open)| *open) {
        for captures in format.pattern.regex().captures_iter(text) {
            let group = if format.group == detectors::ANY_GROUP {
                captures.iter().skip(1).flatten().next()
            } else {
                captures.get(format.group)
            };
            let Some(m) = group else { continue };
            let mut span = m.range();
            let named = matches!(format.kind, SecretKind::Password | SecretKind::ApiKey);
            if m.as_str().starts_with("${") && named {
                // `${DB_PASS:-Tr0ub4dor3}`: the fallback written there is the secret.
                let Some(default) = values::shell_default(m.as_str()) else {
                    continue;
                };
                span = span.start + default.start..span.start + default.end;
            } else {
                let whole = captures.get(0).map_or(0..0, |w| w.range());
                let prefix = &text[whole.start.min(span.start)..span.start];
                let said = format.form == values::Form::Said && !prefix.trim_end().ends_with('=');
                let bare = !matches!(text[..span.start].chars().next_back(), Some('"' | '\'' | '`'));
                if named && bare {
                    // A value stops at a script written without spaces (`Sunflower42です`), at
                    // the next field (`Sunflower42;Encrypt=true`), and before a closing
                    // bracket or a full stop that is the text's (a key's too).
                    span.end = span.start + values::before_cjk(&text[span.clone()]);
                    span.end = span.start + values::before_next_field(&text[span.clone()]);
                    let form = if said || format.kind == SecretKind::ApiKey {
                        values::Form::Said
                    } else {
                        format.form
                    };
                    span.end = span.start + values::kept_len(&text[span.clone()], form);
                }
                let line_start = text[..span.start].rfind('\n').map_or(0, |i| i + 1);
                let line_end = text[span.end..].find('\n').map_or(text.len(), |i| span.end + i);
                let above_start = text[..line_start]
                    .char_indices()
                    .rev()
                    .filter(|(_, c)| *c == '\n')
                    .nth(3)
                    .map_or(0, |(i, _)| i + 1);
                let around = values::Around {
                    prefix,
                    before: text[..span.start].chars().next_back(),
                    after: &text[span.end..line_end],
                    line: &text[line_start..span.start],
                    above: &text[above_start..line_start],
                    form: format.form,
                };
                if values::is_placeholder(format.kind, &text[span.clone()], &around) {
                    continue;
                }
                if bare && format.kind == SecretKind::Password {
                    // `DB_PASSWORD=correct horse battery staple`, `abcd efgh ijkl mnop`; a `!`
                    // written right after it goes with it ("reset it to Welcome123! today").
                    span.end += values::tail(&text[span.clone()], &around);
                    span.end += text[span.end..].len() - text[span.end..].trim_start_matches('!').len();
                }
            }
            if span.is_empty() || overlaps(&found, &span) {
                continue;
            }
            found.push(SecretFinding {
                kind: format.kind,
                span,
            });
        }
    }
    for finding in detectors::table_secrets(text)
        .into_iter()
        .chain(detectors::delimited_secrets(text))
        .chain(wallet_secrets::wallet_secrets(text))
    {
        if !overlaps(&found, &finding.span) {
            found.push(finding);
        }
    }
    // The secret key written near an access key id: 40 characters of base64.
    if found.iter().any(|f| f.kind == SecretKind::AwsAccessKey) {
        for span in aws_secret_candidates(text) {
            if !overlaps(&found, &span) {
                found.push(SecretFinding {
                    kind: SecretKind::AwsSecretKey,
                    span,
                });
            }
        }
    }
    for span in lone_passwords::lone_passwords(text) {
        if !overlaps(&found, &span) {
            found.push(SecretFinding {
                kind: SecretKind::Password,
                span,
            });
        }
    }
    for span in entropy::random_tokens(text) {
        if !overlaps(&found, &span) {
            found.push(SecretFinding {
                kind: SecretKind::HighEntropy,
                span,
            });
        }
    }
    found.sort_by_key(|f| f.span.start);
    found
}

/// Runs of exactly 40 base64 characters with a digit, an upper- and a lower-case letter.
fn aws_secret_candidates(text: &str) -> Vec<Range<usize>> {
    let is_b64 = |c: char| c.is_ascii_alphanumeric() || c == '/' || c == '+';
    let mut spans = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices().chain(std::iter::once((text.len(), ' '))) {
        match (is_b64(c), start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                let run = &text[s..i];
                if run.len() == 40
                    && run.chars().any(|c| c.is_ascii_digit())
                    && run.chars().any(|c| c.is_ascii_uppercase())
                    && run.chars().any(|c| c.is_ascii_lowercase())
                {
                    spans.push(s..i);
                }
                start = None;
            }
            _ => {}
        }
    }
    spans
}

/// `text` with each secret replaced by its kind's marker, and what was replaced.
///
/// ```
/// use haema_core::secrets;
/// let (clean, tally) = secrets::redact("db: postgres://ana:hunter2x@db.example:5432/app");
/// assert_eq!(clean, "db: postgres://ana:[secret: password]@db.example:5432/app");
/// assert_eq!(tally.to_string(), "1 password");
/// ```
pub fn redact(text: &str) -> (String, SecretTally) {
    let mut tally = SecretTally::default();
    let mut owned = text.to_owned();
    tally.string(&mut owned);
    (owned, tally)
}

/// `value` with the secrets of its strings and keys replaced in place, and what was
/// replaced.
///
/// ```
/// use haema_core::secrets;
/// let mut value = serde_json::json!({"token": "ghp_a8Kd93LxQ2mZp7Rt5Vw1Ny4Bc6Fh0Js3Ue9G"});
/// let tally = secrets::redact_value(&mut value);
/// assert_eq!(value["token"], "[secret: github token]");
/// assert_eq!(tally.total(), 1);
/// ```
pub fn redact_value(value: &mut serde_json::Value) -> SecretTally {
    let mut tally = SecretTally::default();
    tally.value(value);
    tally
}

/// An agent-state value with its secrets replaced as [`redact_value`] does, and a text
/// value under a key that names a secret (`db_password`, `github_token`) replaced whole
/// when it could be one.
///
/// ```
/// use haema_core::secrets;
/// let mut value = serde_json::json!("Tr0ub4dor&3");
/// assert_eq!(secrets::redact_state("db_password", &mut value).total(), 1);
/// assert_eq!(value, "[secret: password]");
/// let mut cursor = serde_json::json!("page-2");
/// assert!(secrets::redact_state("pagination_token", &mut cursor).is_empty());
/// ```
pub fn redact_state(key: &str, value: &mut serde_json::Value) -> SecretTally {
    let mut tally = SecretTally::default();
    tally.value(value);
    tally.named(key, value);
    tally
}

/// The receipt of a write whose secrets `tally` counted (`None` when there were none):
/// "secrets were replaced by markers before anything was stored: 1 github token".
pub fn receipt(tally: &SecretTally) -> Option<String> {
    (!tally.is_empty()).then(|| SecretPolicy::Redact.warning(tally, false))
}

/// Refuses a name (an agent, session or user id, a state key) that holds a credential of
/// a known format: a name is matched and shown as it is, so it cannot be redacted, and a
/// secret has no place in it. Random-looking tokens are fine: many ids are.
pub(crate) fn refuse_in_name(field: &str, name: &str) -> crate::error::Result<()> {
    match find(name).into_iter().find(|f| f.kind != SecretKind::HighEntropy) {
        Some(found) => Err(crate::error::Error::InvalidArgument(format!(
            "{field} holds what looks like a secret ({}): names are stored and shown as they are, so give a plain name and keep the secret out of memory",
            found.kind
        ))),
        None => Ok(()),
    }
}

/// Refuses an agent, session or user id that holds what looks like a secret: ids are
/// stored and shown as they are, never redacted. Every write path calls it beside
/// [`MemoryAttributes::checked`](crate::types::MemoryAttributes::checked), which checks
/// the attributes' form and not their secrets (types sit below the secret screen).
///
/// # Errors
/// [`Error::InvalidArgument`](crate::error::Error::InvalidArgument) naming the id and the
/// kind of secret.
pub fn refuse_in_ids(attributes: &crate::types::MemoryAttributes) -> crate::error::Result<()> {
    for (field, value) in [
        ("agent_id", &attributes.agent_id),
        ("session_id", &attributes.session_id),
        ("user_id", &attributes.user_id),
    ] {
        if let Some(value) = value {
            refuse_in_name(&format!("`{field}`"), value)?;
        }
    }
    Ok(())
}

/// `text` with its secrets replaced, and their kinds counted into `tally`.
fn replace(text: &str, tally: &mut SecretTally) -> Option<String> {
    let found = find(text);
    if found.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for finding in found {
        out.push_str(&text[at..finding.span.start]);
        out.push_str(&finding.kind.marker());
        at = finding.span.end;
        tally.count(finding.kind);
    }
    out.push_str(&text[at..]);
    Some(out)
}
