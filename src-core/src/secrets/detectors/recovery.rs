//! Recovery and backup codes, which open an account without its password or second
//! factor: the groups after "recovery codes", "backup code", "recovery key", "scratch
//! codes" (`GitHub recovery codes: daeeb-97572 9fae9-23d5a`, `Google backup codes: 5075 2917,
//! 0342 3667`, `BitLocker recovery key: 595711-777741-…`, a code on each line below the
//! label). Each group has a digit, or the groups are joined by hyphens (`ABCD-EFGH-…`); a
//! place or a sentence after the label is no code ("Recovery key: stored in 1Password").

use super::{Format, format};
use crate::secrets::SecretKind as K;

/// One code: groups of letters and digits joined by hyphens, one of them with a digit
/// (`daeeb-97572`, `R55150`), or four groups of letters or more (`ABCD-EFGH-IJKL-MNOP`).
const CODE: &str =
    r"(?:(?:[A-Za-z0-9]+-)*[A-Za-z]*[0-9][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*|[A-Za-z]{4}(?:-[A-Za-z]{4}){3,})";

/// The recovery-code formats.
pub(super) fn formats() -> Vec<Format> {
    let label = r"(?:recovery|backup|scratch|emergency|rescue|one-time[ \t]+recovery)[ \t]+(?:codes?|keys?)";
    // "for my Slack", "I haven't used yet", a word or two between the label and its colon.
    let between = r"(?:[ \t]+[\w'’]+){0,4}?";
    vec![format(
        K::RecoveryCode,
        &format!(
            r"(?im)\b{label}\b{between}[ \t]*(?:is|are|[:=]|[-–—])?[ \t]*(?:\r?\n[ \t]*)?((?:{CODE})(?:(?:[ \t]*[,;]?[ \t]+|[ \t]*,[ \t]*|[ \t]*\r?\n[ \t]*)(?:{CODE}))*)"
        ),
        1,
    )]
}
