//! Passwords of plain letters said in prose, which the nineteenth review's ordinary lines
//! kept out ("the password is funny" reads the same): one word that ends its sentence and
//! is none a sentence says about a password ([`super::values`]' `plain_word`).

/// A text holding a plain-word password, and the text stored.
const LEAKS_PLAIN: &[(&str, &str)] = &[
    (
        "my wifi password is pineapple",
        "my wifi password is [secret: password]",
    ),
    ("The password is swordfish.", "The password is [secret: password]."),
    ("my password is sunflower", "my password is [secret: password]"),
    ("Password: bluebird", "Password: [secret: password]"),
    (
        "Password: bluebird (the wifi password)",
        "Password: [secret: password] (the wifi password)",
    ),
    (
        "Password: bluebird for the guest network",
        "Password: [secret: password] for the guest network",
    ),
    ("wifi pass: bluebird", "wifi pass: [secret: password]"),
    (
        "wifi password: bluebird; guest password: sunflower",
        "wifi password: [secret: password]; guest password: [secret: password]",
    ),
    (
        "My password is sunflower, same as my old password",
        "My password is [secret: password], same as my old password",
    ),
    (
        "The password is Sunflower, don't share this password",
        "The password is [secret: password], don't share this password",
    ),
    (
        "The wifi password is bluebird and the router password is different",
        "The wifi password is [secret: password] and the router password is different",
    ),
    (
        "my wifi password is pineapple and the network is Home5G",
        "my wifi password is [secret: password] and the network is Home5G",
    ),
    (
        "the password is swordfish for the front door",
        "the password is [secret: password] for the front door",
    ),
    (
        "User's router password is marmalade.",
        "User's router password is [secret: password].",
    ),
    ("Netflix password: cobblestone", "Netflix password: [secret: password]"),
    (
        "I set the password to volcano",
        "I set the password to [secret: password]",
    ),
    (
        "I changed my password, it's now tangerine",
        "I changed my password, it's now [secret: password]",
    ),
    (
        "Passwort: Sonnenblume (das WLAN-Passwort)",
        "Passwort: [secret: password] (das WLAN-Passwort)",
    ),
    ("das Passwort ist Regenbogen.", "das Passwort ist [secret: password]."),
    (
        "le mot de passe du wifi est tournesol",
        "le mot de passe du wifi est [secret: password]",
    ),
    ("la contraseña es golondrina", "la contraseña es [secret: password]"),
];

/// What a sentence says of a password, kept: judgements, states, places, titles, and
/// languages whose adjectives the screen does not know.
const SAID_OF_A_PASSWORD: &[&str] = &[
    "The password is funny.",
    "the password is personal, don't share it",
    "The password is compliant.",
    "The password is held.",
    "The password is excellent.",
    "Password: Medium",
    "Password: varies",
    "Password: gopass",
    "Password: unchanged",
    "Password: TBD",
    "User's password is strong.",
    "User's password was reset yesterday.",
    "my password is mine",
    "The problem with the wifi password is length.",
    "The book's title is \"The Password Is Courage\"",
    "ben: CasaAzul is the network, password on fridge",
    "Das Passwort ist veraltet.",
    "Das Passwort wurde geändert, es ist verschlüsselt.",
    "Le mot de passe est perdu.",
    "La contraseña es incorrecta.",
    "Salasana on vaihdettu.",
    "Пароль: неверный",
    "I set the password to expire monthly.",
];

#[test]
fn a_plain_word_password_in_prose_is_screened() {
    super::tests::assert_stored(LEAKS_PLAIN);
}

#[test]
fn a_word_said_of_a_password_is_kept() {
    super::tests::assert_kept(SAID_OF_A_PASSWORD.iter().copied());
}
