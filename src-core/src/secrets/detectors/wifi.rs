//! A Wi-Fi network's key: said as its password is ("Wi-Fi key: …", "the network security
//! key is …", "WLAN-Schlüssel: …"), in a Wi-Fi QR code's text (`WIFI:T:WPA;S:Home;P:…;;`),
//! a wpa_supplicant or hostapd file (`psk="…"`, `wpa_psk=…`), YAML or JSON (`psk: …`),
//! NetworkManager's `nmcli … wifi-sec.psk …`, and beside the network's name
//! (`SSID: HomeNet  Key: …`).

use super::{ANY_GROUP, Format, VALUE, format};
use crate::secrets::SecretKind as K;
use crate::secrets::values::Form;

/// The words for a Wi-Fi network's key, in the languages the screen reads (a regex
/// alternation the password formats say it with).
pub(super) const WIFI_KEYS: &str = r"(?:wi-?fi|wlan|wireless|wpa[23]?|wep|network(?:[ \t]+security)?)[ \t]+key|wlan-schlüssel|netzwerkschlüssel|wlan-passwort|clé[ \t]+(?:de[ \t]+sécurité|wi-?fi|wpa)|clave[ \t]+(?:de[ \t]+red|wi-?fi)";

/// The formats of a Wi-Fi key written down by a tool or a config.
pub(super) fn formats() -> Vec<Format> {
    vec![
        // The text of a Wi-Fi QR code: `WIFI:T:WPA;S:HomeNet;P:Sunflower42;;` (`\;` escapes).
        format(K::Password, r"(?i)\bWIFI:(?:[^;\n]*;)*?P:((?:\\.|[^;\\\n])+)", 1),
        // wpa_supplicant, hostapd, YAML and JSON: `psk="…"`, `wpa_psk=…`, `psk: …`, `"psk": "…"`.
        format(
            K::Password,
            &format!(r#"(?im)(?:^|[\s{{;,])["']?(?:wpa_)?psk["']?[ \t]*[:=][ \t]*{VALUE}"#),
            ANY_GROUP,
        ),
        // `nmcli con modify HomeNet wifi-sec.psk …`.
        format(K::Password, &format!(r"\bwifi-sec\.psk[ \t]+{VALUE}"), ANY_GROUP),
        // "SSID CasaAzul, key …" and `wpa_passphrase CasaAzul …`.
        format(
            K::Password,
            &format!(r"(?i)\bssid[ \t]+[^\s,;]{{1,32}}[,;]?[ \t]+(?:key|password|pass|pw)\b(?:[ \t]*[:=][ \t]*|[ \t]+(?:is[ \t]+)?){VALUE}"),
            ANY_GROUP,
        )
        .form(Form::Strict),
        format(
            K::Password,
            &format!(r#"\bwpa_passphrase[ \t]+(?:"[^"\n]+"|'[^'\n]+'|\S+)[ \t]+{VALUE}"#),
            ANY_GROUP,
        ),
        // `SSID: HomeNet  Key: …` on one line.
        format(
            K::Password,
            &format!(r"(?i)\bssid[ \t]*[:=][^\n]{{1,60}}?[ \t,;|]\b(?:key|password|pass|pw)[ \t]*[:=][ \t]*{VALUE}"),
            ANY_GROUP,
        )
        .form(Form::Strict),
    ]
}
