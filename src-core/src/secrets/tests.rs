//! The secret screen against one of each format, and against ordinary text.
#![allow(clippy::unwrap_used, clippy::expect_used)]

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
        "unknown service key Zx9Qm2Lp7Rt4Vw8Ks3Hd6Jf1Nb5Gc0Ya",
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

/// Ordinary text that looks a little like a secret: none of it may be flagged.
pub(crate) const BENIGN: &[&str] = &[
    "The user prefers green tea and lives in Lyon.",
    "commit 3f786850e387550fdab836ed7e6dc881de23001b fixed the build",
    "short sha 3f78685 and tag v1.2.3-rc.1",
    "sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "md5 d41d8cd98f00b204e9800998ecf8427e",
    "request id 123e4567-e89b-12d3-a456-426614174000",
    "UUID 550E8400-E29B-41D4-A716-446655440000 in upper case",
    "See https://github.com/rust-lang/rust/blob/master/library/core/src/lib.rs",
    "The doc is at https://docs.google.com/document/d/1A2b3C4d5E6f7G8h9I0jK1lM2nO3pQ4rS5tU6vW7xY8z/edit",
    "Video https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s",
    "https://example.com/search?q=rust+async&page=2",
    "postgres://db.example.com:5432/app has no password",
    "Open /Users/AnaSmith/Documents/Projects2024/ReportFinal/summary.md",
    "C:\\Users\\Ana\\AppData\\Local\\Temp\\build-output-2024-06-01.log",
    "Call me at +1 (555) 123-4567 or +44 20 7946 0958",
    "Meeting on 2024-06-01T09:30:00Z, then 01/07/2024 at 10:00",
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
    "The password is required for the admin panel.",
    "The password for my bank is the same as before.",
    "The password is now stored in the vault.",
    "Reset your password: the link expires in an hour.",
    "My password manager is Bitwarden.",
    "The API key for the weather service is in the vault.",
    "She uses a passphrase instead of a password.",
    "The variable is named internationalizationConfigurationManager2024",
    "CamelCaseIdentifiersLikeHttpRequestHandlerFactory are fine",
    "Lorem ipsum dolor sit amet, consectetur adipiscing elit.",
    "Flight LH1234 from FRA to SFO, booking ref ABC123, seat 42K.",
    "IBAN DE89370400440532013000 for the rent",
    "The Wi-Fi network is called Home-5G-Network-2024",
    "Docker image ghcr.io/owner/app:sha-3f78685",
    "npm package @types/node@20.11.5 and crate tokio-1.37.0",
    "skip the sk-8 meeting, it is a ski trip",
    "AKIA is the prefix of AWS key ids.",
    "pwd prints the working directory",
    "eyJ is how a JSON object starts in base64",
    "Bitcoin address bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq was in the news",
    "the slug my-first-blog-post-about-rust-and-webassembly-2024",
    "snake_case_identifier_with_many_words_2024_version",
    "ISBN 978-3-16-148410-0, DOI 10.1000/182",
    // Paths and names a coding agent remembers (a hostile review found each flagged).
    "Tests live in src/components/UserProfile2Card/index.test.tsx",
    "Run ./scripts/deployStaging2EuWest1.sh first",
    "The migration 20240115_AddUserTable2Index was applied",
    "See docs/adr/0003-UseRedis6ForSessionCache.md",
    "The class is AbstractSingletonProxyFactoryBean2Impl in Spring",
    "The file is at /home/ana/projects/Q3Report2026Final/summary_v2.docx",
    "Bump k8sClusterAutoscalerV2Config to 3 replicas",
    "The test getUserById2ReturnsNullWhenMissing fails on CI",
    // Settings, links, paths and prose next to the word (a hostile review found each lost).
    "reset_password: https://example.com/account/reset",
    "require_password: false",
    "ALLOW_EMPTY_PASSWORD=yes",
    "OLDPWD=/home/ana/projects/site",
    "boarding_pass: gate B12",
    "first_pass: done",
    "1Password is installed on the work laptop",
    "The reset_password is broken since Monday",
    "password_reset_url=https://example.com/reset",
    "passwordless=true",
    "api_key_id=12",
    r#"{"last_password_change": "2024-01-01"}"#,
    "forgot_password_link: /account/forgot",
    "The token is valid for an hour.",
    "secret_santa: Ana draws Ben",
    // Code, templates and prose near the words (a fourth review found each lost).
    "token = base64.b64encode(raw).decode()",
    "token = oauth2_client.fetch_token(url)",
    "const secret = process.env.SESSION_SECRET_V2;",
    "auth_token = session2.get_auth_token()",
    "ssl_secret: /etc/ssl/private/server2.key",
    "api_key = settings.OPENAI_API_KEY_V2",
    "client_secret=settings.GOOGLE_CLIENT_SECRET2",
    r#"password: "{{ vault_db_password }}""#,
    r#"ansible_become_password: "{{ become_pass }}""#,
    "password = getpass()",
    r#"password = os.environ["DB_PASSWORD"]"#,
    r#"password = input("Password: ")"#,
    "password = var.db_password",
    "master_password = random_password.db.result",
    "secrets:\n  db_password:\n    file: ./db_password.txt",
    "password:\n  min_length: 12",
    "Forgot password:\nClick the link in the mail",
    "Your password is about to expire in 3 days.",
    "The password is written on a sticky note under the keyboard.",
    "Password: must be at least twelve characters",
    "cwd=/tmp pwd=src/app2",
    "docker run -p 8080:80 -u 1000:1000 nginx",
    "mysql -u root -p app < dump.sql",
    "curl -u $USER:$TOKEN https://api.example.com",
    "env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: db",
    // Flags, user:group, prose after "is" or ":", labels (a fifth review found each lost).
    "pg_dump -U postgres --password -Fc appdb > app.dump",
    "psql -h db.internal -U ana --password appdb",
    "The --password flag reads the password from the terminal",
    "docker run --user node:node -v $(pwd):/app node:20",
    "sudo -u postgres:postgres psql",
    "mysql on the bastion: ssh -p2222 ana@bastion",
    "docker run -p3306:3306 mysql:8",
    "The password is hashed with bcrypt before storage.",
    "The password is case-sensitive.",
    "Password: ask Bob in IT",
    "password: see the team vault",
    "password: TBD",
    "pwd: print working directory",
    "Ask for the password: password = input('Password: ')",
    "en:\n  forgot_password: \"Forgot your password?\"\n  change_password: Change password\n  confirm_password: \"Confirm password\"",
    "password: Password",
    "new_password: New password",
    "placeholder_password: \"Enter password\"",
    "{ password: 'Mot de passe' }",
    r#"f"postgresql://{user}:{password}@{host}/{db}""#,
];

#[test]
fn benign_look_alikes_are_not_flagged() {
    let flagged: Vec<(&str, Vec<SecretFinding>)> = BENIGN
        .iter()
        .map(|t| (*t, find(t)))
        .filter(|(_, f)| !f.is_empty())
        .collect();
    assert!(flagged.is_empty(), "{flagged:#?}");
}

/// The README's false-positive figures: every turn of the LoCoMo dev split (and its image
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
