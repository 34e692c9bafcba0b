//! Secrets in network devices' configurations: Cisco's `enable secret …`, `username admin
//! secret …`, `radius-server key …`, `tacacs-server key 7 …`, `snmp-server community …`,
//! strongSwan's `ipsec.secrets` (`: PSK "…"`) and Juniper's `plain-text-password-value …`.
//! A type 5, 8 or 9 value is a hash and stays; type 0 is the text, type 7 is reversible.

use super::{ANY_GROUP, Format, VALUE, format};
use crate::secrets::SecretKind as K;
use crate::secrets::values::Form;

/// The device formats.
pub(super) fn formats() -> Vec<Format> {
    vec![
        format(
            K::Password,
            r"(?im)^[ \t]*(?:enable|username[ \t]+[\w.@\-]+(?:[ \t]+privilege[ \t]+\d+)?)[ \t]+(?:secret|password)(?:[ \t]+[07])?[ \t]+([^\s]{4,})",
            1,
        ),
        format(
            K::Password,
            r"(?im)^[ \t]*(?:radius|tacacs)-server[ \t]+(?:host[ \t]+\S+[ \t]+(?:[a-z\-]+[ \t]+\d+[ \t]+)*)?key(?:[ \t]+[07])?[ \t]+([^\s]{4,})",
            1,
        ),
        // The community string, never the published defaults (`public`, `private`).
        format(
            K::Password,
            &format!(r"(?i)\bsnmp-server[ \t]+community[ \t]+{VALUE}"),
            ANY_GROUP,
        )
        .form(Form::Strict),
        format(
            K::Password,
            &format!(r"(?i)\bsnmp[ \t]+community(?:[ \t]+string)?[ \t]*[:=][ \t]*{VALUE}"),
            ANY_GROUP,
        )
        .form(Form::Strict),
        format(K::Password, &format!(r#"(?i):[ \t]*PSK[ \t]+{VALUE}"#), ANY_GROUP),
        format(
            K::Password,
            &format!(r"(?i)\b(?:plain-text-password-value|pre-shared-key[ \t]+ascii-text)[ \t]+{VALUE}"),
            ANY_GROUP,
        ),
    ]
}
