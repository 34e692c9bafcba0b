//! Secrets written down in the forms people use besides `password: …`, found by the
//! ninth review: PINs and keypad codes, numbers, a login as a pair, a passphrase of
//! words, a question and its answer, a label's qualifier, a Wi-Fi key, and a password
//! passed to code.

/// A text holding a secret, and the text stored.
pub(crate) const LEAKS_FORMS: &[(&str, &str)] = &[
    // PINs and keypad codes, and passwords of digits only.
    ("My bank PIN is 4827", "My bank PIN is [secret: pin]"),
    ("PIN: 0417", "PIN: [secret: pin]"),
    ("PIN 4827 for the blue card", "PIN [secret: pin] for the blue card"),
    ("The door code is 1942", "The door code is [secret: pin]"),
    ("gate code: #4821", "gate code: #[secret: pin]"),
    (
        "the alarm code for the shop is 4827",
        "the alarm code for the shop is [secret: pin]",
    ),
    ("passcode 839201", "passcode [secret: pin]"),
    ("CVV 123", "CVV [secret: pin]"),
    ("locker combination is 12-34-56", "locker combination is [secret: pin]"),
    (
        "The wifi password is 83920174",
        "The wifi password is [secret: password]",
    ),
    ("Password: 83920174", "Password: [secret: password]"),
    ("password 83920174", "password [secret: password]"),
    ("my password is 1234", "my password is [secret: password]"),
    // A label's qualifier, a Wi-Fi key, a trailing `!` after a label.
    ("Password (Netflix): hunter2x", "Password (Netflix): [secret: password]"),
    ("Wi-Fi key: Sunflower42", "Wi-Fi key: [secret: password]"),
    (
        "network security key: 7Kd93jslQ",
        "network security key: [secret: password]",
    ),
    ("WiFi key is Trout-Lamp-88", "WiFi key is [secret: password]"),
    ("psk=\"Sunflower42\"", "psk=\"[secret: password]\""),
    ("Password: letmein!", "Password: [secret: password]"),
    // A login as a pair; a passphrase or a wallet's phrase of words.
    ("login: bob / Sunflower42", "login: bob / [secret: password]"),
    ("user/pass: admin / hunter2", "user/pass: admin / [secret: password]"),
    (
        "passphrase: correct horse battery staple",
        "passphrase: [secret: password]",
    ),
    (
        "seed phrase: abandon ability able about above absent absorb abstract absurd abuse access accident",
        "seed phrase: [secret: password]",
    ),
    (
        "my recovery phrase is abandon ability able about above absent absorb abstract absurd abuse access accident",
        "my recovery phrase is [secret: password]",
    ),
    // Asked and answered.
    (
        "What's the password? It's Sunflower42",
        "What's the password? It's [secret: password]",
    ),
    (
        "Q: wifi password? A: Sunflower42",
        "Q: wifi password? A: [secret: password]",
    ),
    // Passed to code, or compared with.
    (
        "if password == \"Sunflower42\":",
        "if password == \"[secret: password]\":",
    ),
    (
        "requests.get(url, auth=(\"admin\", \"s3cr3tPa55\"))",
        "requests.get(url, auth=(\"admin\", \"[secret: password]\"))",
    ),
    (
        "HTTPBasicAuth(\"admin\", \"Sunflower42\")",
        "HTTPBasicAuth(\"admin\", \"[secret: password]\")",
    ),
    (
        "client.login(\"admin\", \"Sunflower42\")",
        "client.login(\"admin\", \"[secret: password]\")",
    ),
];

#[test]
fn each_secret_written_so_is_replaced_and_the_text_around_kept() {
    let wrong: Vec<(&str, String, &str)> = LEAKS_FORMS
        .iter()
        .map(|(text, stored)| (*text, super::redact(text).0, *stored))
        .filter(|(_, got, stored)| got != stored)
        .collect();
    assert!(wrong.is_empty(), "{wrong:#?}");
    for (_, stored) in LEAKS_FORMS {
        assert_eq!(super::redact(stored).0, *stored, "a marker is found again");
    }
}
