//! The well-known credential formats, each a pattern and the part of a match that is the
//! secret (the whole match, or one group: a connection string keeps its user and host):
//! the formats of vendors' tokens (`tokens`), passwords named, said or written beside the
//! word (`passwords`), PINs and keypad codes (`pins`), Wi-Fi keys (`wifi`), logins as pairs
//! and in code (`pairs`), asked and answered (`asked`), passphrases and seed phrases
//! (`phrases`), command lines and credential files (`commands`), and what tools print
//! or are given to join something (`printed`).

mod asked;
mod commands;
mod delimited;
mod devices;
mod gate;
mod literals;
mod pairs;
mod passwords;
mod phrases;
mod pins;
mod printed;
mod recovery;
mod tables;
mod tokens;
mod wallet_keys;
mod wifi;

use std::sync::{LazyLock, OnceLock};

use regex::Regex;

use super::SecretKind;
use super::values::Form;
pub(super) use delimited::delimited_secrets;
pub(super) use tables::table_secrets;

/// The value of a `password`/`name=` pattern: quoted whole (spaces and all), in
/// backticks, or one word. A bare value runs to the next space: a `,`, `;` or quote
/// inside it (a generated password) is part of it; one followed by a space ends it, and
/// so does a backtick (the end of Markdown code).
const VALUE: &str = r#"(?:"([^"\n]{3,})"|'([^'\n]{3,})'|`([^`\n]{3,})`|["']?([^\s"'`,;]{3,}(?:[,;'"][^\s"'`,;]+)*))"#;

/// The value of a key's pattern: quoted whole (no space inside), or one run of 16
/// characters or more up to a space, a quote, a `,`, `;`, `&` or bracket.
const KEY_VALUE: &str = r#"(?:"([^"\s]{16,})"|'([^'\s]{16,})'|`([^`\s]{16,})`|["'`]?([^\s"'`,;&<>()\[\]{}]{16,}))"#;

/// The group of a format that holds the secret when it has several (the quoted and the
/// bare value): the first that took part in the match.
pub(super) const ANY_GROUP: usize = usize::MAX;

/// One format: the pattern, the group that holds the secret (0: the whole match), and
/// how it finds its value ([`Form`]).
pub(super) struct Format {
    pub kind: SecretKind,
    pub pattern: Pattern,
    pub group: usize,
    pub form: Form,
}

/// A format's pattern, compiled the first time a text opens its [`GATE`]: most texts open
/// few, and compiling all of them took a new process about 200 ms (every hook, every
/// command that writes).
pub(super) struct Pattern {
    source: String,
    compiled: OnceLock<Regex>,
}

impl Pattern {
    pub fn as_str(&self) -> &str {
        &self.source
    }

    pub fn regex(&self) -> &Regex {
        // The patterns are constants, each compiled by the tests.
        self.compiled.get_or_init(|| {
            Regex::new(&self.source).unwrap_or_else(|e| unreachable!("secret pattern {}: {e}", self.source))
        })
    }
}

fn format(kind: SecretKind, pattern: &str, group: usize) -> Format {
    Format {
        kind,
        pattern: Pattern {
            source: pattern.to_owned(),
            compiled: OnceLock::new(),
        },
        group,
        form: Form::Named,
    }
}

impl Format {
    fn form(mut self, form: Form) -> Self {
        self.form = form;
        self
    }
}

/// Which of [`FORMATS`] can match a text.
pub(super) static GATE: LazyLock<gate::Gate> =
    LazyLock::new(|| gate::Gate::new(FORMATS.iter().map(|f| f.pattern.as_str())));

/// Every format, the most specific first: a span taken by one is not looked at again.
pub(super) static FORMATS: LazyLock<Vec<Format>> = LazyLock::new(|| {
    let mut all = tokens::formats();
    all.extend(pins::formats());
    all.extend(phrases::phrases());
    all.extend(wifi::formats());
    all.extend(pairs::formats());
    all.extend(asked::formats());
    all.extend(passwords::formats());
    all.extend(commands::formats());
    all.extend(printed::formats());
    all.extend(recovery::formats());
    all.extend(wallet_keys::formats());
    all.extend(devices::formats());
    all.extend(literals::formats());
    all.extend(passwords::beside_the_word());
    all.extend(tokens::named_keys());
    all
});
