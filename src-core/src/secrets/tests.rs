//! The secret screen against one of each format, and against ordinary text.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::benign::BENIGN;
use super::leaks::LEAKS;
use super::*;

/// One example of each format, and the kind it must be found as.
pub(crate) const SAMPLES: &[(&str, SecretKind)] = &[
    ("My AWS access key is AKIAIOSFODNN7EXAMPLE", SecretKind::AwsAccessKey),
    (
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        SecretKind::AwsSecretKey,
    ),
    (
        "temporary key ASIAY34FZKBOKMUTVV7A for the build",
        SecretKind::AwsAccessKey,
    ),
    (
        "maps key AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe",
        SecretKind::GoogleApiKey,
    ),
    (
        "token ghp_16C7e42F292c6912E7710c838347Ae178B4a",
        SecretKind::GithubToken,
    ),
    (
        "oauth gho_16C7e42F292c6912E7710c838347Ae178B4a",
        SecretKind::GithubToken,
    ),
    ("app ghs_16C7e42F292c6912E7710c838347Ae178B4a", SecretKind::GithubToken),
    ("user ghu_16C7e42F292c6912E7710c838347Ae178B4a", SecretKind::GithubToken),
    (
        "fine-grained github_pat_11ABCDEFG0abcdefghijkl_mnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456",
        SecretKind::GithubToken,
    ),
    ("gitlab glpat-xYz12AbCdEfGhIjKlMnO", SecretKind::GitlabToken),
    (
        "Authorization: Bearer haema_ak_Q7fZ2kLm9XwR4tVb8NcY1pHs6JdG3eUa0OiK5rTq",
        SecretKind::HaemaAgentKey,
    ),
    (
        "slack bot xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
        SecretKind::SlackToken,
    ),
    (
        "hook https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
        SecretKind::SlackWebhook,
    ),
    (
        "discord MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB",
        SecretKind::DiscordToken,
    ),
    (
        "telegram 123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1",
        SecretKind::TelegramToken,
    ),
    (
        "OPENAI_API_KEY=sk-abcdefghijklmnopqrstuvwxyz0123456789ABCDEF",
        SecretKind::OpenaiKey,
    ),
    (
        "project key sk-proj-AbCdEf0123456789_ghIJklMNopQRstUV-wxYZ",
        SecretKind::OpenaiKey,
    ),
    (
        "claude sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AA",
        SecretKind::AnthropicKey,
    ),
    ("stripe sk_live_4eC39HqLyjWDarjtT1zdp7dc", SecretKind::StripeKey),
    ("restricted rk_live_4eC39HqLyjWDarjtT1zdp7dc", SecretKind::StripeKey),
    (
        "jwt eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        SecretKind::Jwt,
    ),
    (
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7bq1\nabcdEFGH\n-----END RSA PRIVATE KEY-----",
        SecretKind::PrivateKey,
    ),
    (
        r#"{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n"}"#,
        SecretKind::PrivateKey,
    ),
    (
        "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==",
        SecretKind::AzureKey,
    ),
    ("password=hunter2!", SecretKind::Password),
    ("passwd: S3cr3tP@ss", SecretKind::Password),
    ("pwd=letmein99", SecretKind::Password),
    // The `.env` spellings: the word as the end of a name.
    ("POSTGRES_PASSWORD=hunter2horse", SecretKind::Password),
    ("MYSQL_ROOT_PASSWORD=hunter2horse", SecretKind::Password),
    ("db_password: hunter2horse", SecretKind::Password),
    (r#"{"admin_password": "hunter2horse"}"#, SecretKind::Password),
    ("PGPASSWORD=hunter2horse", SecretKind::Password),
    ("SMTP_PASS=hunter2horse", SecretKind::Password),
    ("SERVICE_API_KEY=abcd1234efgh5678", SecretKind::ApiKey),
    ("APP_CLIENT_SECRET=abcd1234efgh5678", SecretKind::ApiKey),
    ("SLACK_ACCESS_TOKEN=abcd1234efgh5678", SecretKind::ApiKey),
    // A quoted value is taken whole, spaces and all.
    (r#"DB_PASSWORD="correct horse battery staple""#, SecretKind::Password),
    ("password: 'my dog rex 1999'", SecretKind::Password),
    (r#"{"password": "open sesame 42"}"#, SecretKind::Password),
    // Hex under a name that ends in secret or token (`openssl rand -hex 32`).
    (
        "SESSION_SECRET=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        SecretKind::ApiKey,
    ),
    (
        "API_TOKEN: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b",
        SecretKind::ApiKey,
    ),
    (
        "the webhook secret is 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b",
        SecretKind::ApiKey,
    ),
    ("The user's wifi password is Tr0ub4dor&3", SecretKind::Password),
    // YAML block scalars, Kubernetes env entries, command lines, HTTP authorization.
    ("password: >-\n  Tr0ub4dor&3horse", SecretKind::Password),
    (
        "env:\n  - name: POSTGRES_PASSWORD\n    value: Tr0ub4dor3",
        SecretKind::Password,
    ),
    (
        "env:\n  - name: API_TOKEN\n    value: 9f86d081884c7d659a2feaa0c55ad015",
        SecretKind::ApiKey,
    ),
    ("pg_dump --password 'Tr0ub4dor3' app", SecretKind::Password),
    ("curl -u admin:P@ssw0rd123 http://localhost:8080", SecretKind::Password),
    ("mysql -h db -u root -pTr0ub4dor3 app", SecretKind::Password),
    ("redis-cli -h cache -a Tr0ub4dor3 ping", SecretKind::Password),
    ("<password>Tr0ub4dor3x</password>", SecretKind::Password),
    (
        "machine api.example.com login ana password Tr0ub4dor3",
        SecretKind::Password,
    ),
    (
        "SECRET_KEY_BASE=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b",
        SecretKind::ApiKey,
    ),
    // Dots, slashes, brackets and a leading `$`, `.` or `~` inside a real password.
    ("password=john.doe99", SecretKind::Password),
    ("The wifi password is Sunny.Beach42", SecretKind::Password),
    ("DB_PASSWORD=Xk9/mQ2pLr8vT", SecretKind::Password),
    ("password=P@ss(w0rd)99", SecretKind::Password),
    ("password: $uperman1987", SecretKind::Password),
    ("password: .Xk9mQ2pLr8", SecretKind::Password),
    ("password=~Kq2mZ88", SecretKind::Password),
    ("api_key=abc123.def456ghi789", SecretKind::ApiKey),
    // Letters-only passwords where the syntax says so, quoted ones, and passwords holding
    // the word (a sixth review found each let through; a bare flag's value must look like a
    // password since the eighth).
    ("mysql -u root -pSunflower appdb", SecretKind::Password),
    ("sshpass -p 'Sunflower' ssh ana@bastion", SecretKind::Password),
    ("redis-cli -h cache -a 'Sunflower' ping", SecretKind::Password),
    ("PGPASSWORD=Sunflower psql -h db -U ana app", SecretKind::Password),
    (
        r#"psql "host=db user=ana password=Sunflower dbname=app""#,
        SecretKind::Password,
    ),
    ("my password is Sunflower7 and my pin is 4821", SecretKind::Password),
    ("my wifi password is bluebird42", SecretKind::Password),
    ("DB_PASSWORD=Password123", SecretKind::Password),
    ("password: MyPassword2024", SecretKind::Password),
    ("postgres://ana:Password1@db/app", SecretKind::Password),
    ("PASSWORD=senha123", SecretKind::Password),
    ("EXCHANGE_PASSWORD=Tr0ub4dor3", SecretKind::Password),
    ("SSL_CONTEXT_PASSWORD=Tr0ub4dor3", SecretKind::Password),
    ("the password for the change server is Tr0ub4dor3", SecretKind::Password),
    ("mysql -uroot -p'Tr0ub4dor3' app", SecretKind::Password),
    ("mysql -uroot -pTr0ub4dor3 app", SecretKind::Password),
    (
        "docker login -u ana -p Tr0ub4dor3 registry.example.com",
        SecretKind::Password,
    ),
    ("sshpass -p 'Tr0ub4dor3' ssh ana@host", SecretKind::Password),
    ("curl -u ana:Tr0ub4dor3 https://api.example.com", SecretKind::Password),
    (
        "Authorization: token 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b",
        SecretKind::ApiKey,
    ),
    ("Authorization: Basic YW5hOlRyMHViNGRvcjM=", SecretKind::ApiKey),
    // A shell default is the secret written there.
    (r#"PASSWORD: "${DB_PASS:-Tr0ub4dor3}""#, SecretKind::Password),
    (
        "POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:-Tr0ub4dor3}",
        SecretKind::Password,
    ),
    ("Ana's password is now Sunflower88", SecretKind::Password),
    ("My password is: Sunflower88", SecretKind::Password),
    (
        "The wifi password for the office is Blue-Falcon-42",
        SecretKind::Password,
    ),
    ("postgres://ana:s3cretpw@db.example.com:5432/app", SecretKind::Password),
    ("mysql://root:rootpass123@localhost/db", SecretKind::Password),
    (
        "mongodb+srv://admin:Adm1nPass@cluster0.mongodb.net/test",
        SecretKind::Password,
    ),
    ("redis://:redispass77@cache:6379/0", SecretKind::Password),
    ("amqp://guest:guestpw1@rabbit:5672/", SecretKind::Password),
    ("api_key: 9f8e7d6c5b4a39281706f5e4d3c2b1a0zz", SecretKind::ApiKey),
    (
        "Authorization: Bearer 8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f",
        SecretKind::ApiKey,
    ),
    (
        "a random value Zx9Qm2Lp7Rt4Vw8Ks3Hd6Jf1Nb5Gc0Ya",
        SecretKind::HighEntropy,
    ),
];

#[test]
fn each_format_is_found_as_its_kind() {
    for (text, kind) in SAMPLES {
        let found = find(text);
        assert!(
            found.iter().any(|f| f.kind == *kind),
            "{text}: expected {kind}, found {found:?}"
        );
    }
}

/// A secret with an invisible character inside, or in full-width letters, is the secret
/// once quoted (the recall block drops invisible characters): it is found whole, and the
/// invisible characters go with it.
#[test]
fn a_secret_split_by_invisible_characters_or_written_wide_is_found_whole() {
    for (text, secret) in [
        ("aws AKIA\u{2060}IOSFODNN7EXAMPLE", "AKIA\u{2060}IOSFODNN7EXAMPLE"),
        (
            "openai sk-proj-Abc123Def456\u{200B}Ghi789Jkl012Mno345",
            "sk-proj-Abc123Def456\u{200B}Ghi789Jkl012Mno345",
        ),
        (
            "token ghp_16C7e42F2\u{AD}92c6912E7710c838347Ae178B4a.",
            "ghp_16C7e42F2\u{AD}92c6912E7710c838347Ae178B4a",
        ),
        (
            "wide ＡＫＩＡＩＯＳＦＯＤＮＮ７ＥＸＡＭＰＬＥ",
            "ＡＫＩＡＩＯＳＦＯＤＮＮ７ＥＸＡＭＰＬＥ",
        ),
        ("bell AKIA\u{7}IOSFODNN7EXAMPLE", "AKIA\u{7}IOSFODNN7EXAMPLE"),
        // The blank "letters" and the other default-ignorable characters.
        ("key AKIAIOSF\u{3164}ODNN7EXAMPLE", "AKIAIOSF\u{3164}ODNN7EXAMPLE"),
        ("key AKIAIOSF\u{34F}ODNN7EXAMPLE", "AKIAIOSF\u{34F}ODNN7EXAMPLE"),
        ("key AKIAIOSF\u{1D173}ODNN7EXAMPLE", "AKIAIOSF\u{1D173}ODNN7EXAMPLE"),
    ] {
        let (clean, tally) = redact(text);
        assert_eq!(tally.total(), 1, "{text:?} -> {clean:?}");
        assert!(!clean.contains(secret), "{clean:?}");
        let found = find(text);
        assert_eq!(&text[found[0].span.clone()], secret, "{text:?}");
    }
}

#[test]
fn a_redacted_text_keeps_no_secret_and_says_what_it_was() {
    let (clean, tally) =
        redact("My AWS access key is AKIAIOSFODNN7EXAMPLE and my token ghp_16C7e42F292c6912E7710c838347Ae178B4a.");
    assert_eq!(
        clean,
        "My AWS access key is [secret: aws access key] and my token [secret: github token]."
    );
    assert_eq!(tally.to_string(), "1 aws access key, 1 github token");
    assert_eq!(serde_json::to_value(tally).unwrap()["github token"], 1);
    // A marker is not found again.
    assert!(find(&clean).is_empty());
    let (url, _) = redact("mongodb+srv://admin:Adm1nPass@cluster0.mongodb.net/test");
    assert_eq!(url, "mongodb+srv://admin:[secret: password]@cluster0.mongodb.net/test");
    let (pem, _) = redact("key:\n-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg\n-----END PRIVATE KEY-----\nafter");
    assert_eq!(pem, "key:\n[secret: private key]\nafter");
    let (aws, tally) = redact("id AKIAIOSFODNN7EXAMPLE secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");
    assert_eq!(aws, "id [secret: aws access key] secret [secret: aws secret key]");
    assert_eq!(tally.total(), 2);
}

#[test]
fn redacting_twice_changes_nothing() {
    for (text, _) in SAMPLES {
        let (once, tally) = redact(text);
        assert!(!tally.is_empty() && once.contains("[secret: "), "{text} -> {once}");
        let (twice, again) = redact(&once);
        assert_eq!((twice.as_str(), again.total()), (once.as_str(), 0), "{text}");
    }
}

#[test]
fn benign_look_alikes_are_not_flagged() {
    let flagged: Vec<(&str, Vec<SecretFinding>)> = BENIGN
        .iter()
        .map(|t| (*t, find(t)))
        .filter(|(_, f)| !f.is_empty())
        .collect();
    assert!(flagged.is_empty(), "{flagged:#?}");
}

/// The false-positive figures of docs/safety.md: every turn of the LoCoMo dev split (and its image
/// captions), when the data is beside the repository.
#[test]
fn locomo_turns_are_not_flagged() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/locomo-dev/turns.jsonl");
    let Ok(text) = std::fs::read_to_string(&path) else {
        assert!(
            std::env::var_os("CI").is_none(),
            "the LoCoMo dev split is missing at {}",
            path.display()
        );
        return;
    };
    let mut scanned = 0;
    let mut flagged = Vec::new();
    for line in text.lines() {
        let turn: serde_json::Value = serde_json::from_str(line).unwrap();
        for key in ["text", "image_caption"] {
            if let Some(t) = turn[key].as_str() {
                scanned += 1;
                let found = find(t);
                if !found.is_empty() {
                    flagged.push((t.to_owned(), found));
                }
            }
        }
    }
    eprintln!("LoCoMo dev: {scanned} texts scanned, {} flagged", flagged.len());
    assert!(scanned > 2_700, "{scanned}");
    assert!(flagged.is_empty(), "{flagged:#?}");
}

#[test]
fn a_largest_memory_without_spaces_is_screened_in_one_pass() {
    // Each token used to look back to the last space: 10⁹ steps for this text.
    let crafted = "a.".repeat(32_768);
    assert!(super::find(&crafted).is_empty());
    let url = format!("https://x.example/{}", "Zk9QcXJ2TjNtYjhLd1pQc3Y0/".repeat(2_000));
    assert!(super::find(&url).is_empty(), "a path inside a URL is no secret");
}

/// Random tokens of no known format are still found, now that names reading as words are
/// left alone: of 2,000 random base62 tokens of 32 characters (a fixed generator), at least
/// 95 % are flagged.
#[test]
fn random_tokens_are_still_found() {
    const BASE62: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        usize::try_from(state % 62).unwrap_or(0)
    };
    let tokens: Vec<String> = (0..2_000)
        .map(|_| (0..32).map(|_| char::from(BASE62[next()])).collect())
        .collect();
    let found = tokens
        .iter()
        .filter(|t| !find(&format!("the key is {t}")).is_empty())
        .count();
    eprintln!("{found} of {} random tokens found", tokens.len());
    assert!(found >= 1_900, "{found} of {}", tokens.len());
}

/// Keys of lower case and digits only (many services' format) are found by their shape
/// alone, in prose with no label: of 2,000 random base36 tokens of 32 characters, at least
/// 90 %. Their public look-alikes stay: a bech32 address or key whose checksum holds, a
/// store path named by a hash, a hex digest after a name.
#[test]
fn random_lower_case_keys_are_found_and_addresses_kept() {
    const BASE36: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        usize::try_from(state % 36).unwrap_or(0)
    };
    let tokens: Vec<String> = (0..2_000)
        .map(|_| (0..32).map(|_| char::from(BASE36[next()])).collect())
        .collect();
    let found = tokens
        .iter()
        .filter(|t| !find(&format!("saved {t} for later")).is_empty())
        .count();
    eprintln!("{found} of {} random lower-case tokens found", tokens.len());
    assert!(found >= 1_800, "{found} of {}", tokens.len());
    for public in [
        "Bitcoin: bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
        "npub1sg6plzptd64u62a878hep2kev88swjh3tw00gjsfl8f237lmu63q0uf63m",
        "age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p",
        "/nix/store/x9mq2plr8vtbn4wz7yh3cf6gj5ds0ae2-python3-3.11.9",
        "build sha_7f3e9a1c5b2d8e4f6a0c3b7d9e1f5a2c8b4d6e0f done",
        "(f128::PI, 0x3fffc5bf891b4ef6aa79c3b0520d5db9_u128),",
    ] {
        assert!(find(public).is_empty(), "{public}: {:?}", find(public));
    }
    // One character changed: the checksum fails, and it is a key like any other.
    assert!(!find("npub1sg6plzptd64u62a878hep2kev88swjh3tw00gjsfl8f237lmu63q0uf64m").is_empty());
}

/// A value under a key that names a secret is replaced whole, whatever it looks like; a
/// key that only mentions the word keeps its value.
#[test]
fn a_json_value_under_a_secret_name_is_replaced_whole() {
    let mut value = serde_json::json!({
        "password": "hunter2horse",
        "db_password": "Tr0ub4dor&3",
        "nested": {"PGPASSWORD": "hunter2horse", "api_key": "abcd1234efgh5678"},
        "password_reset_url": "https://example.com/reset",
        "last_password_change": "2024-01-01",
        "require_password": "false",
        "token": "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
    });
    let tally = super::redact_value(&mut value);
    let mut kept = serde_json::json!({
        "pagination_token": "page-2",
        "next_token": "v2",
        "model_token": "gpt-4o",
        "token": "expires in 30 days",
        "secret": "stored in 1Password vault Infra",
        "api_key": "set via env var, see .env line 3",
        "forgot_password": "Settings > Security > Reset",
        "change_password": "use the link sent 2 hours ago",
        "git_pwd": "src/app2",
    });
    let before = kept.clone();
    assert!(super::redact_value(&mut kept).is_empty(), "{kept}");
    assert_eq!(kept, before);
    // An agent-state value under such a key, and the `_pass` names the text rule knows.
    for (key, plain) in [
        ("db_password", "Welcome.Home1"),
        ("password", "john.doe99"),
        ("client_secret", "AbCd1234/EfGh5678/IjKl9012"),
        ("db_password", "$uperman1987"),
        ("github_token", "9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c"),
        ("ldap_pass", "Tr0ub4dor&3"),
    ] {
        let mut state = serde_json::json!(plain);
        assert_eq!(super::redact_state(key, &mut state).total(), 1, "{key}");
        assert!(state.as_str().unwrap().starts_with("[secret: "), "{key}: {state}");
    }
    assert_eq!(value["password"], "[secret: password]");
    assert_eq!(value["db_password"], "[secret: password]");
    assert_eq!(value["nested"]["PGPASSWORD"], "[secret: password]");
    assert_eq!(value["nested"]["api_key"], "[secret: api key]");
    assert_eq!(value["token"], "[secret: github token]");
    assert_eq!(value["password_reset_url"], "https://example.com/reset");
    assert_eq!(value["last_password_change"], "2024-01-01");
    assert_eq!(value["require_password"], "false");
    assert_eq!(tally.total(), 5);
}

/// A key cut short (no END line) takes its base64 lines, never the text or the sections
/// after it.
#[test]
fn a_cut_private_key_never_takes_what_follows() {
    let core = "# SOUL\nkind\n\n# TOOLS\nDeploy key file starts with -----BEGIN OPENSSH PRIVATE KEY----- (Ana has the rest)\n\n# RULE\nNever suggest peanuts (allergy)\n\n# USER\nAna, lives in Lisbon\n";
    let (clean, tally) = redact(core);
    assert_eq!(tally.total(), 1);
    assert_eq!(
        clean,
        "# SOUL\nkind\n\n# TOOLS\nDeploy key file starts with [secret: private key] (Ana has the rest)\n\n# RULE\nNever suggest peanuts (allergy)\n\n# USER\nAna, lives in Lisbon\n"
    );
    let cut = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7bq1\nabcdEFGH\n\nThe rest is lost.";
    assert_eq!(redact(cut).0, "[secret: private key]\n\nThe rest is lost.");
    // A key whose END line is in another section is cut at the heading too.
    let split = "# TOOLS\n-----BEGIN RSA PRIVATE KEY-----\nMIIE\n# USER\nAna\n-----END RSA PRIVATE KEY-----\n";
    assert!(redact(split).0.contains("# USER\nAna"), "{}", redact(split).0);
}

#[test]
fn a_generated_password_is_replaced_to_its_end() {
    let (clean, _) = redact(r#"DB_PASSWORD=aB3$k9,Xq;z7"w and more"#);
    assert_eq!(clean, "DB_PASSWORD=[secret: password] and more");
}

/// Each secret a hostile review found kept is replaced, and only it: the prose, the
/// closing backtick or bracket and the sentence's full stop around it stay.
#[test]
fn each_leak_is_replaced_and_the_text_around_kept() {
    let wrong: Vec<(&str, String, &str)> = LEAKS
        .iter()
        .map(|(text, stored)| (*text, redact(text).0, *stored))
        .filter(|(_, got, stored)| got != stored)
        .collect();
    assert!(wrong.is_empty(), "{wrong:#?}");
    for (_, stored) in LEAKS {
        assert_eq!(redact(stored).0, *stored, "a marker is found again");
    }
}

/// An agent-state key names its secret by its parts: `exchange_password` holds no
/// `change`, `message_broker_password` no `message`; an action's key keeps a sentence
/// and not a password.
#[test]
fn a_state_key_is_read_by_its_parts() {
    for key in [
        "exchange_password",
        "ssl_context_password",
        "message_broker_password",
        "springfield_password",
        "change_password",
    ] {
        let mut value = serde_json::json!("Tr0ub4dor3");
        assert_eq!(super::redact_state(key, &mut value).total(), 1, "{key}");
    }
    let mut note = serde_json::json!("use the link sent 2 hours ago");
    assert!(super::redact_state("change_password", &mut note).is_empty());
}

/// Asserts that each text is stored as it is, naming every one that is not and what it
/// became (the ordinary-text corpora share it).
/// Each text of `pairs` is stored as its pair says, and a stored text's markers are not
/// found again.
pub(crate) fn assert_stored(pairs: &[(&str, &str)]) {
    let wrong: Vec<(&str, String, &str)> = pairs
        .iter()
        .map(|(text, stored)| (*text, redact(text).0, *stored))
        .filter(|(_, got, stored)| got != stored)
        .collect();
    assert!(wrong.is_empty(), "{wrong:#?}");
    for (_, stored) in pairs {
        assert_eq!(redact(stored).0, *stored, "a marker is found again");
    }
}

pub(crate) fn assert_kept<'a>(texts: impl IntoIterator<Item = &'a str>) {
    let flagged: Vec<(&str, String)> = texts
        .into_iter()
        .map(|t| (t, redact(t).0))
        .filter(|(t, r)| t != r)
        .collect();
    assert!(flagged.is_empty(), "{flagged:#?}");
}

#[test]
fn a_value_with_a_character_of_several_bytes_near_its_start_is_read_without_a_panic() {
    // The sixteenth review: a pair's value was cut at byte 4, inside `é` or `€`.
    for text in [
        "Login: ana / Café2024!",
        "Netflix — ana@gmail.com — Café2024!",
        "Gym account: Basic, 29€/month",
        "Netflix account: Premium, 17€/month",
        "Router: Vodafone, 35€/mês",
    ] {
        let _ = super::redact(text);
    }
    assert_eq!(
        super::redact("Login: ana / Café2024!").0,
        "Login: ana / [secret: password]"
    );
    assert_eq!(
        super::redact("Gym account: Basic, 29€/month").0,
        "Gym account: Basic, 29€/month"
    );
}
