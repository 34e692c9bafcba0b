//! A password of plain letters said in prose ("my wifi password is pineapple", "Password:
//! bluebird", "I set the password to volcano", "das Passwort ist Regenbogen"): one word
//! that ends its sentence and is none a sentence says about a password. "The password is
//! funny", "Password: expired", "the password is mine", "le mot de passe est perdu" read
//! the same way, so a word that judges, describes, places or points is no password: a
//! function word, an adjective or a participle (by its ending), in each language the
//! screen reads.

use super::Around;
use super::words::{DESCRIBES, ENTRY_WORDS, LOCATION_WORDS, NOT_A_PASSWORD, SENTENCE_WORDS, TECH_NAMES, TYPE_NAMES};

/// What a sentence says a password is, beyond [`NOT_A_PASSWORD`]: judgements, states,
/// places and pronouns, in English and the other languages of the screen's prose.
#[rustfmt::skip]
const SAID_OF_A_PASSWORD: &[&str] = &[
    // English judgements.
    "funny", "silly", "stupid", "dumb", "clever", "smart", "cute", "hilarious", "awful", "horrible", "perfect",
    "awesome", "amazing", "nice", "cool", "weird", "odd", "strange", "crazy", "insane", "lame", "cringe",
    "embarrassing", "ridiculous", "absurd", "lengthy", "huge", "tiny", "big", "small", "massive", "enormous",
    "difficult", "tricky", "impossible", "complicated", "obvious", "predictable", "guessable", "memorable",
    "gibberish", "nonsense", "garbage", "junk", "trash", "rubbish", "ancient", "fresh", "recent", "current",
    "outdated", "stale", "obsolete", "deprecated", "legacy", "permanent", "provisional", "final", "official",
    "standard", "generic", "universal", "global", "local", "personal", "public", "common", "popular",
    "original", "reused", "recycled", "safe", "unsafe", "vulnerable", "exposed", "compromised", "leaked",
    "stolen", "lost", "gone", "absent", "null", "void", "correct", "accepted", "rejected", "active",
    "inactive", "live", "dead", "working", "broken", "locked", "unlocked", "blocked", "stuck", "ready", "done",
    "sorted", "fixed", "updated", "complete", "incomplete", "stronger", "weaker", "longer", "shorter", "better",
    "worse", "best", "worst", "important", "critical", "essential", "necessary", "confidential", "classified",
    "available", "unavailable", "known", "visible", "invisible", "readable", "unreadable", "legible",
    "illegible", "plaintext", "cleartext", "masked", "handwritten", "online", "offline", "elsewhere",
    "nowhere", "everywhere", "upstairs", "downstairs", "outside", "attached", "enclosed", "included",
    "today", "tomorrow", "yesterday", "later", "soon", "overdue", "due", "next", "last", "first", "second",
    "third", "everything", "mine", "yours", "hers", "ours", "theirs", "itself", "fixed", "unique", "annoying",
    "unclear", "unreliable", "fake", "real", "legit", "fine", "alright", "different", "similar", "whatever",
    "irrelevant", "useless", "pointless", "enforced", "expiring", "outdated", "case", "sensitive", "ascii",
    "unicode", "numeric", "alphanumeric", "lowercase", "uppercase", "english", "nothing", "none", "empty",
    "again", "already", "yet", "anymore", "back", "away", "out", "up", "down", "over", "wrong", "ok",
    "rare", "varies", "changes", "differs", "matters", "works", "fails", "expires", "medium", "moderate",
    "average", "adequate", "excellent", "decent", "solid", "robust", "flawless", "poor", "mediocre", "basic",
    "trivial", "minimal", "optimal", "normal", "typical", "usual", "unusual", "compliant", "noncompliant",
    "obligatory", "mandatory", "compulsory", "satisfactory", "urgent", "recent", "consistent", "inconsistent",
    "transparent", "apparent", "evident", "redundant", "relevant", "irrelevant", "ancient", "length",
    "strength", "complexity", "security", "priority", "necessity", "formality", "liability", "identity",
    "validity", "quality", "simplicity", "entropy", "utility", "capacity", "clarity", "popularity", "problem", "issue", "reason", "point", "thing", "key", "answer",
    "question", "clue", "hint", "trick", "catch", "rule", "requirement", "minimum", "maximum", "limit",
    // Irregular participles.
    "held", "spoken", "given", "taken", "shown", "chosen", "broken", "frozen", "sent", "left", "told", "sold",
    "bought", "found", "made", "said", "read", "seen", "begun", "won", "worn", "torn", "drawn", "grown",
    "thrown", "blown", "flown", "shaken", "beaten", "bitten", "fallen", "forgiven", "ridden", "driven",
    "proven", "sworn", "sung", "struck", "hung", "cut", "hit", "put", "shut", "spread", "quit", "built",
    "meant", "burnt", "spelt", "dealt", "lent", "spent", "taught", "caught", "brought", "thought", "sought",
    // Password managers and where passwords live.
    "passbolt", "gopass", "keeper", "nordpass", "roboform", "enpass", "protonpass", "vaultwarden", "authy",
    "okta", "icloud", "keyring", "kwallet", "pass", "browser", "chrome", "firefox", "safari", "fridge",
    "router", "sticker", "drawer", "notebook", "whiteboard", "email", "slack", "teams", "signal", "whatsapp",
    // French, German, Spanish, Portuguese, Italian, Dutch.
    "perdu", "perdue", "oublié", "oubliée", "expiré", "expirée", "valide", "invalide", "correct", "correcte",
    "simple", "facile", "difficile", "long", "longue", "court", "courte", "fort", "forte", "faible", "sécurisé",
    "partagé", "caché", "temporaire", "nouveau", "nouvelle", "ancien", "ancienne", "vide", "inconnu", "changé",
    "bon", "mauvais", "identique", "même", "neu", "alt", "lang", "kurz", "stark", "schwach", "sicher",
    "unsicher", "gleich", "einfach", "schwer", "vergessen", "verloren", "gesperrt", "gültig", "ungültig",
    "korrekt", "leer", "neues", "altes", "correcta", "válida", "inválida", "nueva", "vieja", "larga", "corta",
    "fuerte", "débil", "segura", "insegura", "olvidada", "perdida", "temporal", "compartida", "caducada",
    "expirada", "igual", "fácil", "difícil", "vacía", "correta", "nova", "antiga", "longa", "curta", "forte",
    "fraca", "esquecida", "temporária", "vazia", "corretta", "errata", "nuova", "vecchia", "lunga", "debole",
    "sicura", "scaduta", "dimenticata", "persa", "temporanea", "uguale", "vuota", "valida", "nieuw", "oud",
    "kort", "sterk", "zwak", "veilig", "vergeten", "verlopen", "leeg", "hetzelfde", "anders", "veraltet",
    "abgelaufen", "falsch", "richtig", "geheim", "privat", "persönlich", "sicherer", "comme", "pareil", "parfait",
    "personnel", "privé", "secret", "requis", "obligatoire", "optionnel", "facultatif", "personal", "privada",
    "secreta", "obligatoria", "opcional", "mismo", "misma", "pessoal", "privada", "secreta", "obrigatória",
    "mesma", "personale", "privata", "segreta", "obbligatoria", "opzionale", "stessa", "persoonlijk", "geheim",
];

/// Endings of English adjectives, participles and adverbs ("expired", "working",
/// "finally", "ridiculous", "useless", "guessable", "sensitive", "optional").
const ENGLISH_ENDINGS: &[&str] = &[
    "ed", "ing", "ly", "ous", "ful", "less", "able", "ible", "ive", "ical", "ial", "ional", "ual", "ient", "ant",
    "ent", "ness", "atory",
];

/// Endings of participles and adjectives in the other languages ("oublié", "olvidado",
/// "dimenticato", "esquecida", "gesperrt" is a listed word).
const FOREIGN_ENDINGS: &[&str] = &[
    "é", "ée", "és", "ées", "ado", "ada", "ido", "ida", "ato", "ata", "ito", "ita", "uto", "uta", "ig", "lich", "bar",
    "isch", "iert", "ert", "eux", "euse", "ive", "ente", "ante", "ile", "ale",
];

/// Whether `value` is a password of plain letters said in prose: one word of letters, 4 to
/// 30 of them, that ends its sentence (or is followed by ", …" or "and …") and that no
/// sentence says of a password.
pub(super) fn is_plain_word_password(value: &str, around: &Around<'_>) -> bool {
    let word = value.trim_end_matches(['.', ',', ';', '!', ')']);
    let letters = word.chars().count();
    if !(4..=30).contains(&letters) || !word.chars().all(char::is_alphabetic) || !ends_sentence(around.after) {
        return false;
    }
    // An acronym is a setting or a name (`Password: TBD`, `WPA`); a capital inside a word names a product (`LastPass`).
    let capitals = word.chars().filter(|c| c.is_uppercase()).count();
    if capitals > 1 {
        return false;
    }
    let lower = word.to_lowercase();
    let listed = |list: &[&str]| list.contains(&lower.as_str());
    if listed(NOT_A_PASSWORD)
        || listed(SAID_OF_A_PASSWORD)
        || listed(SENTENCE_WORDS)
        || listed(LOCATION_WORDS)
        || listed(ENTRY_WORDS)
        || listed(TECH_NAMES)
        || listed(DESCRIBES)
        || listed(TYPE_NAMES)
    {
        return false;
    }
    // "The Password Is Courage" is a title; "password on fridge" says where it is.
    let head = around.prefix.trim_end();
    if head.ends_with(" Is") || head.ends_with(" on") {
        return false;
    }
    let Some(endings) = endings_of(around.prefix) else {
        return false;
    };
    // German and Dutch participles: `geändert`, `verschlüsselt`, `gewijzigd`.
    let participle = ["ge", "ver", "be", "er", "ent", "zer"]
        .iter()
        .any(|p| lower.starts_with(p))
        && lower.ends_with(['t', 'd'])
        && endings == FOREIGN_ENDINGS;
    !participle && !endings.iter().any(|e| lower.len() > e.len() + 2 && lower.ends_with(e))
}

/// [`is_plain_word_password`] after `pass:` on a line that names a login ("user: pi, pass:
/// strawberry", "WiFi: HomeNet / pass: buttercup"), not another pass ("Boarding pass: …").
pub(super) fn in_a_login(value: &str, around: &Around<'_>) -> bool {
    let line = around.line.to_lowercase();
    let login = ["user", "login", "wifi", "wi-fi", "admin", "root", "account", "/"]
        .iter()
        .any(|w| line.contains(w));
    login && is_plain_word_password(value, around)
}

/// [`is_plain_word_password`] beside the word, set or said with a verb ("I set the password
/// to volcano", "changed my password, it's now tangerine"); "to" only after a change ("a
/// password to remove" says what it is for).
pub(super) fn set_or_said(value: &str, around: &Around<'_>) -> bool {
    let prefix = around.prefix.to_lowercase();
    let head = prefix.trim_end();
    let changed = ["set", "made", "changed", "reset", "updated", "chose", "picked"]
        .iter()
        .any(|verb| head.split_whitespace().any(|w| w == *verb));
    let said = changed && (head.ends_with(" to") || head.ends_with(" as"))
        || [" is", " was", " now", " be", "'s", "’s"]
            .iter()
            .any(|end| head.ends_with(end));
    said && is_plain_word_password(value, around)
}

/// Whether the rest of the line after a value ends its sentence: nothing, punctuation,
/// a note in brackets, or a new clause (", don't share it", "and the user is admin").
fn ends_sentence(after: &str) -> bool {
    // A selector's or a label's next part is no end (`initWithUser:password:persistence:`).
    if after.trim_start().starts_with([':', '=']) {
        return false;
    }
    if super::prose::ends_line(after) {
        return true;
    }
    let rest = after.trim_start_matches(['.', '!', ';', ',']).trim_start();
    let punctuated = after.starts_with(['.', '!', ';', ',']) && after[1..].starts_with(' ');
    // A clause, a time or a remark ("… and the user is admin", "… yesterday", "… btw"), in
    // the languages whose words the screen knows ("… y el usuario es admin").
    let clause = [
        " and ",
        " but ",
        " - ",
        " for ",
        " after ",
        " because ",
        " since ",
        " so ",
        " yesterday",
        " today",
        " now",
        " last ",
        " this ",
        " btw",
        " lol",
        " y ",
        " et ",
        " und ",
        " e ",
        " en ",
        " ma ",
        " mais ",
        " aber ",
        " pero ",
    ]
    .iter()
    .any(|c| after.starts_with(c));
    punctuated && !rest.is_empty() || clause
}

/// The language the password was named in, which says how its value's words end: English
/// ("password", "passphrase", "Wi-Fi key"), one whose adjectives and participles the screen
/// knows ("le mot de passe", "das Passwort", "la contraseña", "a senha", "la parola
/// d'ordine", "het wachtwoord"), or another ("Salasana on …", "Пароль: …"), where a plain
/// word is not read as a password.
fn endings_of(prefix: &str) -> Option<&'static [&'static str]> {
    let lower = prefix.to_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| lower.contains(w));
    let foreign = [
        "mot de passe",
        "passwort",
        "kennwort",
        "contraseña",
        "senha",
        "wachtwoord",
        "parola",
        "clave",
        "mdp",
        "schlüssel",
    ];
    if has(&foreign) {
        Some(FOREIGN_ENDINGS)
    } else if has(&["pass", "pw", "wifi", "wi-fi", "key", "code", "word"]) {
        Some(ENGLISH_ENDINGS)
    } else {
        None
    }
}
