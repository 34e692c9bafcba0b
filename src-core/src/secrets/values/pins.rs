//! Whether the digits a PIN or keypad pattern caught are a PIN: not a year or a date, a
//! version, a measure, an address's postal PIN code, an error or model number in a manual
//! or a log, or a device's published default.

use super::{Around, Form};

/// Words on a line that make its number something other than a secret: an error, a
/// fault, a log, a manual, a data sheet, a part, a published default.
#[rustfmt::skip]
const NOT_A_SECRET_HERE: &[&str] = &[
    "default", "defaults", "error", "errors", "fault", "faults", "means", "meaning", "refers", "log", "logs",
    "logged", "manual", "series", "model", "jtag", "gpio", "header", "pinout", "datasheet", "mcc",
    "plc", "x10", "fpga", "firmware", "trigger", "triggers", "indicates", "status", "test", "testing",
    "conduct", "example", "examples", "sample", "tutorial", "handbook", "common", "popular", "installer's", "most",
    "meeting", "dummy", "fake", "classic", "xkcd", "rejected", "denied", "failed", "invalid", "disabled",
    "deactivated", "expired", "revoked", "documented", "history", "old", "shows", "showing", "flashing", "flashes",
    "reported", "reports", "displays", "displayed", "sensor", "checkout", "sale", "boiler",
    "spindle", "overheat", "overheating", "diagnostic", "lecture", "course", "lottery", "lotto", "draw",
    "winning", "score", "scored", "bga", "connector", "socket", "relay", "solder", "wire", "wiring", "breadboard",
];

/// Words after a number that make it a measure or a count (`3300 mV`, `2000 characters`).
#[rustfmt::skip]
const UNITS: &[&str] = &[
    "mv", "v", "ma", "a", "hz", "khz", "mhz", "ghz", "ms", "s", "kb", "mb", "gb", "ohm", "ohms", "%", "lines",
    "characters", "chars", "issues", "iterations", "bytes", "bits", "rows", "items", "users", "times", "days",
    "words", "steps", "calories", "kcal", "mg", "g", "kg", "km", "mi", "miles", "m", "ft", "feet", "points",
    "pts", "pages", "people", "usd", "eur", "dollars", "euros", "percent", "per", "cent",
];

/// Words of a postal address: India's PIN code is its postal code (`PIN 560001`).
#[rustfmt::skip]
const ADDRESS: &[&str] = &[
    "india", "ship", "shipping", "delivery", "deliver", "address", "postal", "post", "gpo", "city", "state", "district",
    "road", "street", "nagar", "sector", "colony", "lane", "marg", "village", "taluk", "tehsil", "landmark",
];

/// The words before "code" that make it no keypad's: "zip code", "error code", "promo code".
#[rustfmt::skip]
const OTHER_CODES: &[&str] = &[
    "zip", "area", "postal", "post", "postcode", "country", "error", "status", "promo", "discount", "coupon",
    "tracking", "confirmation", "booking", "reference", "product", "dial", "qr", "bar", "source", "exit", "return",
    "colour", "color", "dress", "sort", "swift", "routing", "tax", "airport", "fare", "class", "gift", "voucher",
    "referral", "invite", "invitation", "building", "fire", "diagnosis", "billing", "response", "ean", "upc",
    "invoice", "listing", "quote", "ticket", "flight", "design", "bill", "order", "course", "module", "paint", "hs",
    "date", "serial", "permit", "policy", "reservation", "group", "gl", "cost", "batch", "lot", "part", "sku",
];

/// Whether `value`, caught as a PIN, is none (see the module's comment).
pub(in crate::secrets) fn is_no_pin(value: &str, around: &Around<'_>) -> bool {
    let after = around.after;
    // A version, a date or a compound (`2024.1`, `2024-05-01`, `2024-compliant`, `4-digit`).
    if after.starts_with(['.', '-', '/', ':', ',']) && after[1..].starts_with(|c: char| c.is_alphanumeric()) {
        return true;
    }
    // Another code than a keypad's: "the gate is on Main St, zip code 94107".
    // The line before the value, not only the match: "The zip code for the cabin is 80424"
    // is matched from "code".
    let before_code = around.line.to_lowercase().rsplit_once("code").map(|(head, _)| {
        head.split(|c: char| !c.is_alphanumeric())
            .rfind(|w| !w.is_empty())
            .unwrap_or("")
            .to_owned()
    });
    if before_code.is_some_and(|w| OTHER_CODES.contains(&w.as_str())) {
        return true;
    }
    // Asked, not said: "Is the door code 4827?".
    if after.trim_start().starts_with('?') {
        return true;
    }
    let next = after
        .split_whitespace()
        .next()
        .unwrap_or("")
        .trim_end_matches(['.', ',', ';', ')'])
        .to_lowercase();
    // A unit, or more groups of digits (a meeting's number: `2551 482 7193`).
    if UNITS.contains(&next.as_str())
        || after.starts_with(' ') && next.chars().all(|c| c.is_ascii_digit()) && !next.is_empty()
    {
        return true;
    }
    let line = format!("{}{value}{after}", around.line).to_lowercase();
    let words: Vec<&str> = line.split(|c: char| !(c.is_alphanumeric() || c == '\'')).collect();
    if words.iter().any(|w| NOT_A_SECRET_HERE.contains(w)) || line.contains("e.g.") {
        return true;
    }
    // A meeting's passcode under its invitation ("Join Zoom Meeting", then "Passcode: 482719").
    let above = around.above.to_lowercase();
    if ["meeting", "zoom", "webex", "teams"].iter().any(|w| above.contains(w)) {
        return true;
    }
    // India's postal code is six digits after "PIN" in an address: with its words on the line
    // or the lines above (city, state, road), or a comma before it on the line.
    let address_above = above
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| ADDRESS.contains(&w));
    // A keypad's `#` after the digits is no address's.
    // A bank's or a card's PIN is none ("SSN 078-05-1120, online banking PIN 830512").
    let banking = words
        .iter()
        .any(|w| ["bank", "banking", "card", "atm", "debit"].contains(w));
    let postal = value.len() == 6
        && !after.starts_with('#')
        && !banking
        && !value.starts_with(['0', '9'])
        && (words.iter().any(|w| ADDRESS.contains(w)) || address_above || around.line.contains(",") || {
            // A postal code's own name, in prose or data (`PIN code`, `"pin_code":`, `zip/pin:`).
            let name = format!("{}{}", around.line, around.prefix)
                .to_lowercase()
                .replace([' ', '-', '_', '"', '\''], "");
            name.contains("pincode") || name.contains("zip")
        });
    // A year or a date, beside the word or followed by more words ("PIN 2024 release notes",
    // "Pin: 2024 roadmap doc"); said alone it is a PIN ("My PIN is 1987").
    let year = value.len() == 4 && (value.starts_with("19") || value.starts_with("20"));
    let date = value.len() == 8 && (value.starts_with("19") || value.starts_with("20"));
    let goes_on = after.trim_start().starts_with(|c: char| c.is_alphabetic());
    postal || date || year && (around.form == Form::Strict || goes_on)
}
