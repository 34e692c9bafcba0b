//! Ordinary text close to the forms of `leaks_forms` that the tenth review found destroyed:
//! Markdown emphasis after the word, FAQ questions, error and model numbers called codes,
//! postal PIN codes, logins in logs, auth examples and placeholders, numbers and hashes
//! after a password's label, Wi-Fi keys described, other codes, public defaults.

/// Texts that must be stored as they are.
pub(crate) const BENIGN_FORMS: &[&str] = &[
    "The password **must** be rotated every 90 days.",
    "Your password is **never** sent to our servers.",
    "The password is *required* for admin accounts.",
    "**Note:** the password is _case-sensitive_.",
    "Users must set a password *before* logging in.",
    "Password: **required**",
    "**Password**: *not set*",
    "Das Passwort ist **ungültig**.",
    "Le mot de passe est *obligatoire*.",
    "Your passcode is **never** stored.",
    "**What is the password length?** 12 characters.",
    "**Where is the password stored?** In Vault.",
    "**Password length?** 16",
    "Is the password set?** Yes.",
    "Where is the password? **In 1Password.**",
    "Alarm code 1001 means low battery on the DSC panel.",
    "Alarm code: 4003 (door ajar) in the event log.",
    "Error: alarm code 1234 on the PLC, see manual.",
    "The alarm code for a false trigger is 1001 in the panel's log.",
    "The access code 1001 error means the token expired.",
    "Door code 3000 series hinges are in aisle 4.",
    "Gate code 1024 refers to FPGA gate count.",
    "Ship to: 12 MG Road, Bengaluru, Karnataka, PIN 560001, India",
    "Noida, Uttar Pradesh - PIN: 201301",
    "PIN code: 400001 (Mumbai GPO)",
    "Delivery address pin code is 110001",
    "login: carol / 2024-05-01T09:15:10Z ok",
    "login: alice / 1714556400",
    "login: dave / 20240501 ok",
    "login: alice / tty2",
    "login: alice/pts0 from 10.0.0.7",
    "login: root / console1 (Ubuntu 22.04)",
    "Login: web/portal2 redesign is due Friday",
    "sign-in: google / github2fa both work",
    "credentials: AWS/IAM-role2 for the runner",
    "The building code for this county is 2018 IRC",
    "Building code: 2021 IBC applies here",
    "Per 2018 building code: 1012.2 handrail height.",
    "requests.get('https://api.github.com/user', auth=('user', 'pass'))",
    "HTTPBasicAuth('user', 'pass')",
    "HTTPDigestAuth('user', 'pass')",
    "auth=('api', 'key-xxxxxxxx')",
    "if settings.password != \"CHANGE_ME\":",
    "credentials = [\"alice\", \"bob\", \"carol\"]",
    "credentials=[\"read\", \"write\"]",
    "t.login(\"Welcome back\", \"Please sign in\")",
    "i18n.login(\"title\", \"Log in to continue\")",
    "app.login(\"google\", \"github\")",
    "Password (PBKDF2 iterations): 600000",
    "Password (max age in seconds): 7776000",
    "Password (last changed): 20240501",
    "Max lengths — password: 1024, username: 64",
    "password: 600000 iterations of PBKDF2",
    "The most common password is still 123456, according to the 2023 NordPass report.",
    "Password (SHA-256): 5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8",
    "assert user.password == \"pbkdf2_sha256$600000$abcdefghijklmnop$Zm9vYmFyYmF6cXV4cXV1eA==\"",
    "if hashed_password == \"5f4dcc3b5aa765d61d8327deb882cf99\":",
    "Wi-Fi key: 5GHz band only",
    "network key: 802.11ax capable",
    "WPA3 key: SAE-H2E mode",
    "Wi-Fi key: WPA2/WPA3 mixed",
    "The phone code for Germany is 0049",
    "Country phone code: 0091",
    "Card code 5411 is for grocery stores (MCC).",
    "Card code: 1099-MISC for the contractor",
    "The house code is 1901 on the old X10 modules.",
    "Access code: 2024-Q3 planning deck",
    "CID 1234 reported a dropped call",
    "Customer CID 4821 asked for a refund",
    "The reference pin is 3300 mV",
    "Pin number 1234 on the JTAG header is TDO",
    "Pin 1000 issues to the dashboard",
    "Pin: 20240115 nightly toolchain",
    "pin: 2024.1 (the version we pin to)",
    "Pin: 2024 roadmap doc",
    "The PIN is 2024-compliant.",
    "Unlock code is 2000 characters long",
    "Bluetooth pairing PIN: 0000 (default for most headsets)",
    "SIM PIN 1234 is the default on new cards",
    "Alarm code 1234 is the factory default",
    "Lock combination: 10-20-30 is the factory default",
    "Mnemonic: load effective address",
    "Recovery phrase: write down carefully",
    "Does it meet the password policy? NIST800-63B says yes.",
    "Password expiring? Win11 shows a toast.",
    "Did the password reset work? Yes2",
    "if PWD == \"build2\":",
    "self.client.login(username=\"testuser\", password=\"testpass\")",
];

#[test]
fn ordinary_text_near_the_written_forms_is_kept() {
    super::tests::assert_kept(BENIGN_FORMS.iter().copied());
}

#[test]
fn the_later_reviews_ordinary_lines_are_kept() {
    // One text per line: notes, logs, code and docs the tenth to twentieth reviews wrote near the forms;
    // `\n` is a line break.
    let texts: Vec<String> = include_str!("corpus/review10_benign.txt")
        .lines()
        .chain(include_str!("corpus/review11_benign.txt").lines())
        .chain(include_str!("corpus/review12_benign.txt").lines())
        .chain(include_str!("corpus/review14_benign.txt").lines())
        .chain(include_str!("corpus/review15_benign.txt").lines())
        .chain(include_str!("corpus/review16_benign.txt").lines())
        .chain(include_str!("corpus/review17_benign.txt").lines())
        .chain(include_str!("corpus/review18_benign.txt").lines())
        .chain(include_str!("corpus/review19_benign.txt").lines())
        .chain(include_str!("corpus/review20_benign.txt").lines())
        .map(|t| t.replace("\\n", "\n"))
        .collect();
    super::tests::assert_kept(texts.iter().map(String::as_str));
}
