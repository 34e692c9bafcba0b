//! Code, configs, command lines, test logs and tables an eighth, hostile review found
//! destroyed by the seventh pass: a value is a secret there when its syntax or its shape
//! says so (an identifier assigned, a statement that creates a user, base64 of
//! `user:pass`), not because a word stands near it.

/// Ordinary text that must be stored as it is.
pub(crate) const BENIGN_CONFIG: &[&str] = &[
    // Code, commands and settings near the word.
    r"`-P password` sets the password",
    r"use `--password` to be prompted",
    r"sqlcmd -P is deprecated; use -G or a trusted connection",
    r#"sqlcmd -S db -U sa -P $SA_PASSWORD -Q "SELECT 1""#,
    r#"sqlcmd -S db -U sa -P "$SA_PASSWORD""#,
    r#"ldapsearch -x -D cn=admin -w "$LDAP_PW" -b dc=example"#,
    r"ldapsearch -x -D cn=admin -W -b dc=example",
    r"smbclient //srv/share -U ana",
    r"smbclient -L srv -N",
    r"openssl pkcs12 -export -out cert.pfx -passout env:PFX_PASS",
    r"openssl genrsa -aes256 -passout file:pass.txt 2048",
    r"keytool -importcert -storepass:env STOREPASS -keystore ks.jks",
    r#"keytool -list -keystore ks.jks -storepass "$KS_PASS""#,
    r"htpasswd -c /etc/nginx/.htpasswd ana",
    r"htpasswd -B -C 12 .htpasswd ana",
    r"net use Z: \\srv\share /persistent:yes",
    r"net use Z: \\srv\share /user:CORP\ana *",
    r"set -x EDITOR vim",
    r"set -gx PATH $HOME/bin $PATH",
    r#"setx PATH "%PATH%;C:\tools""#,
    r"set password_file /run/secrets/db",
    r"ALTER USER ana PASSWORD EXPIRE;",
    r"ALTER USER ana WITH PASSWORD NULL;",
    r"CREATE USER ana WITH PASSWORD :'pw';",
    r"ALTER USER ana IDENTIFIED BY VALUES 'S:ABC';",
    r"password VARCHAR(255) NOT NULL,",
    r"password_hash TEXT NOT NULL",
    r"CREATE TABLE users (id serial, email text, password text);",
    r#"<input type="password" name="pw" autocomplete="new-password">"#,
    r#"<input type="password" name="password" value="" required>"#,
    r#"<input name="password" value="{{ old('password') }}">"#,
    r#"<add key="PasswordExpiryDays" value="90" />"#,
    r#"<add key="RequirePassword" value="true" />"#,
    r##"<add key="AdminPassword" value="#{AdminPassword}#" />"##,
    r#"variable "db_password" { type = string, sensitive = true }"#,
    r"for first_pass in range(3):",
    r"first_pass: done",
    r"first_pass: 2024-05-01",
    r"render_pass: shadow_v2",
    r"bypass: true",
    r"compass: NNE-45",
    r"passport: X1234567",
    r"Passport no: C01X00T47",
    r"passenger: Ana2",
    r"pw reset flow is broken",
    r"PW reset email goes to spam",
    r"pw: see 1Password",
    r"the pw hash migration",
    r"api key rotation is due next week",
    r"JWT secret length must be 256 bits",
    r"the secret to good bread is time",
    r"token bucket rate limiter",
    r"The secret is patience",
    r"pwd is /home/ana/projects",
    r"$ pwd",
    r"os.chdir(pwd)",
    r"cd $(pwd)/build",
    r#"let pw = try keychain.get("pw")"#,
    r#"val pw = prefs.getString("pw", null)"#,
    r"var pw = Console.ReadLine();",
    r"$pw = $_POST['pw'];",
    r"pw = params[:pw]",
    r"const pw = process.env.PW;",
    r#"let pw = env::var("PW")?;"#,
    r#"pw := os.Getenv("PW")"#,
    r#"read -s -p "Password: " pw"#,
    r"read -rsp 'Password: ' DB_PASSWORD",
    r#"password := os.Getenv("DB_PASSWORD")"#,
    r#"String password = System.getenv("DB_PASSWORD");"#,
    r"val password: String = BuildConfig.PASSWORD",
    r"let password = try Keychain.password(for: account)",
    r#"var password = configuration["Db:Password"];"#,
    r"$password = getenv('DB_PASSWORD');",
    r#"password = ENV.fetch("DB_PASSWORD")"#,
    r#"password = input("Password: ")"#,
    r"const password = core.getInput('password');",
    r#"let password = rpassword::prompt_password("Password: ")?;"#,
    r"test_password_is_required_when_signup",
    r"it('password is hashed before save')",
    r"fn password_is_rejected_when_too_short()",
    r"[INFO] password is valid for user ana",
    r"WARN password was rotated for svc-backup",
    r"ERROR: password is incorrect (attempt 3/5)",
    r"2024-05-01T10:00:00Z auth: password accepted for ana",
    r"auth: password rejected for ana from 10.0.0.5",
    r"sshd[123]: Failed password for invalid user admin from 10.0.0.5 port 22 ssh2",
    r"sshd[123]: Accepted password for ana from 10.0.0.5 port 50022 ssh2",
    r"Changelog: password is now optional for local accounts",
    r"v2.3: password is no longer stored in plain text",
    r"Fixed: password was logged at debug level",
    r"Breaking: the password is now read from a file",
    r"The password flag is deprecated.",
    r"The password must be at least 12 characters.",
    r"The password is case sensitive.",
    r"The password cannot contain spaces.",
    r"The password expires after 90 days.",
    r"Password expiry: 90 days",
    r"Password length: 16",
    r"Password hint: my dog's name",
    r"Password policy: 12 chars, 1 digit",
    r"Password manager: Bitwarden",
    r"Password strength: strong",
    r"password_min_length: 12",
    r"password_expiry_days: 90",
    r"password_hash: argon2id",
    r"password_hash_algorithm: Argon2id",
    r"password_reset_url: https://example.com/reset",
    r"PASSWORD_HASHERS = ['django.contrib.auth.hashers.Argon2PasswordHasher']",
    r"AUTH_PASSWORD_VALIDATORS = []",
    r"PASSWORD_MIN_LENGTH=12",
    r"PASSWORD_RESET_TIMEOUT=3600",
    r"PASSWORD_EXPIRY=90d",
    r"password_auth: enabled",
    r"PasswordAuthentication no",
    r"PermitEmptyPasswords no",
    r"ChallengeResponseAuthentication no",
    r#"pwd_context = CryptContext(schemes=["bcrypt"], deprecated="auto")"#,
    r"password: required, string, min 12",
    r"password (string, required): the user's password",
    r"--password <PASSWORD>  The password to use",
    r"-p, --password=PASSWORD  password to use when connecting",
    r"-P password    Password (prompted if omitted)",
    r"mysql -u root -p",
    r"mysql -u root -p mydb < dump.sql",
    r"psql -U ana -W mydb",
    r#"psql "host=db user=ana password=$PGPASSWORD""#,
    r"export PGPASSWORD=$(cat ~/.pgpass)",
    r"The .pgpass format is hostname:port:database:username:password",
    r"localhost:5432:*:ana:*",
    r"~/.pgpass must be chmod 0600",
    r"Use `IDENTIFIED BY` to set a password in MySQL.",
    r"Use `WITH PASSWORD 'x'` in Postgres.",
    r"identified by the team as a blocker",
    r"It was identified by 'git bisect' as the culprit",
    r"The Wi-Fi password is on the fridge.",
    r"the wifi password is printed on the router",
    r"Wifi password: on the back of the router",
    r"My password is the same as my email",
    r"The password for staging is different from prod.",
    r"the password we use for the NAS is in 1Password",
    r"Reset your password via the link we sent.",
    // 'set … to', flags talked about, test results, passes of other kinds.
    r"She set password expiry to 90 days on the staging Keycloak.",
    r"set password expiry to 90 days",
    r"We set password length to 16.",
    r"I set password rotation for the service accounts",
    r"Then set password authentication to no in sshd_config",
    r"set password_authentication true",
    r"set password reset links to expire after 1 hour",
    r"Please set password hashing to argon2",
    r"-keypass defaults to -storepass if omitted",
    r"keytool -storepass option is required for PKCS12",
    r"-storepass value must be at least 6 characters",
    r"sqlcmd -P flag passes the password in clear text",
    r"sqlcmd -P option exposes the password",
    r"bcp -P argument is visible in ps output",
    r"With ldapsearch, -w secret passes it on the command line; prefer -W or -y file",
    r"ldapsearch -w option exposes it in ps",
    r"sshpass -p argument shows up in ps",
    r"docker login -p value leaks into shell history",
    r"redis-cli -a flag is unsafe; use REDISCLI_AUTH",
    r"net use Z: \\srv\share /user:ana savecred",
    r"htpasswd -b mode puts the password on the command line",
    r"htpasswd -bc .htpasswd ana newpassword",
    r"set -x PATH $PATH ~/bin",
    r"The `set password` command in Redis 6 is ACL SETUSER",
    r"mysqladmin -u root password newpass",
    r"mysql -u root -p<password>",
    r"mysql -u root -pPASSWORD db",
    r"mysql -p is safer than -pPASSWORD",
    r"curl -u user:pass https://api.example.com",
    r#"curl -u "$USER:$PASS" https://api.example.com"#,
    r"curl -u ana: https://api.example.com",
    r"wget --user=ana --ask-password https://x",
    r"git clone https://oauth2:$TOKEN@gitlab.com/x.git",
    r"--- PASS: TestParseV2 (0.00s)",
    r"--- PASS: TestLogin_WithOTP (0.01s)",
    r"PASS: test_auth_2fa",
    r"PASS: test-suite-1",
    r"FAIL: test_auth_2fa",
    r"Pass: 3/3",
    r"first_pass: v2_done",
    r"second_pass: O3_inline",
    r"pw: hash_v2 migration",
    r"the pw hash_v2 migration is done",
    r"PW: see 1Password",
    r"e2e pass: run_2024_05_01",
    r"Passcode: six digits",
    r"Passcode: 4-digit",
    r"The password is 128 bits of entropy",
    r"The password is 100% random",
    r"The password is 4-6 words",
    r"Day pass: DP-7788X9",
    r"e-pass: ABC123",
    // Public ids and cursors; names under a key's name; password managers; labels.
    r"Commit 3f786850e387550fdab836ed7e6dc881de23001b fixed it",
    r"Merged in a1b2c3d, reverted in 9f8e7d6",
    r"UUID 550e8400-e29b-41d4-a716-446655440000",
    r"sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    r#"The base64 of "hello world" is aGVsbG8gd29ybGQ="#,
    r"Caffeine is C8H10N4O2 and glucose C6H12O6",
    r"IBAN DE89370400440532013000 for rent",
    r"IBAN: GB82 WEST 1234 5698 7654 32",
    r"Ref: INV-2024-000123-AB",
    r"Call me at +351 912 345 678",
    r"Tracking number 1Z999AA10123456784",
    r"Order #A8K9-33LX-Q2MZ shipped",
    r"Flight TP1234 on 2024-06-01T10:35:00+01:00",
    r"Serial: C02XK1ZJJG5H",
    r"VIN WVWZZZ1JZXW000001",
    r"ISBN 978-3-16-148410-0",
    r"docker image sha256:a3ed95caeb02ffe68cdd9fd84406680ae93d633cb16422d00e8c7c22955b46d4",
    r"npm i lodash@4.17.21",
    r"Python 3.12.1, Node v20.11.0, Go 1.22.0",
    r"Model gpt-4o-mini-2024-07-18 works best",
    r"Use claude-3-5-sonnet-20241022 for review",
    r"AWS region eu-west-1, instance i-0abcd1234efgh5678",
    r"arn:aws:iam::123456789012:role/DeployRole",
    r"Stripe customer cus_NffrFeUfNV2Hib",
    r"YouTube video dQw4w9WgXcQ",
    r"Spotify track 4uLU6hMCjMI75M1A2tKUQC",
    r"token bucket with 100 tokens per second",
    r"next_token: null",
    r"pageToken: CAoQAA",
    r"next_page_token: CiAKGjBpNDd2Nmp3Zm9sZ3M",
    r#"csrf_token: "{{ csrf_token() }}""#,
    r"resumeToken: 8263A1B2C3D4E5F6",
    r"cancel_token: ct-2024-05",
    r"The secret sauce is garlic",
    r"secret: none, it's public",
    r"The webhook secret is rotated monthly",
    r"The session secret lives in Vault",
    r"Our secret weapon is caching",
    r"client secret: stored in Azure Key Vault",
    r"API key: in the team vault",
    r"api_key: ${OPENAI_API_KEY}",
    r"private_key_path: ~/.ssh/id_ed25519",
    r"signing_key: ~/.gnupg/ABCD1234EF567890.asc",
    r"license_key: TRIAL",
    r"master_key: see docs/master-key.md",
    r"encryption_key_id: arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab",
    r"imagePullSecret: ghcr-registry-credentials",
    r"tlsSecret: wildcard-example-com-tls",
    r"webhookSecret: github-webhook-secret",
    r"credentialsSecret: aws-credentials-secret",
    r#"auth.existingSecret: "postgres-credentials""#,
    r"sealedSecret: my-app-sealed-secret",
    r"secretName: wildcard-example-com-tls",
    r"existingSecret: pg-creds",
    r"adminSecret: keycloak-admin-credentials",
    r"JWT_SECRET=change-this-in-production",
    r"tokenSecret: oauth-token-signing-secret",
    r"access_token: ${{ secrets.ACCESS_TOKEN }}",
    r"client_secret: stored-in-azure-keyvault",
    r"api_key: ask-the-platform-team",
    r"API_KEY=provided-by-the-vendor",
    r"JWT_SECRET=correct-horse-battery-staple",
    r"Password: 1Password",
    r"Password: Passbolt",
    r"Password: KeePassXC",
    r"Password: gopass",
    r"Password: in gopass under infra/db",
    r"Password: pass show infra/db",
    r"pass: the standard unix password manager",
    r"pass: gopass-compatible store v2",
    r"Passport.js local strategy with bcrypt",
    r"passport: passport-local@1.0.0",
    r"Passkeys replace the password in iOS 17",
    r"The password is Passbolt-managed",
    r"Password is stored via Passbolt",
    r#"Password: Keychain item "db-prod""#,
    r"Password: op://Private/db/password",
    r"Password: vault kv get -field=password secret/db",
    r"Password: `op read op://vault/db/password`",
    r"password: from $(pass show db)",
    r#"password = keyring.get_password("db", "ana")"#,
    r"The password is in LastPass",
    r"The password is LastPass-protected",
    r#""password": "Mot de passe","#,
    r#""password": "Passwort","#,
    r#""password": "Contraseña","#,
    r#""password": "パスワード","#,
    r#""password": "密码","#,
    r#""password": "Password","#,
    r#""password": "Enter password","#,
    r#""password": "Your password","#,
    r#""password": "Wachtwoord","#,
    r#""password": "Пароль","#,
    r#""password": "Senha","#,
    r#""password": "Hasło","#,
    r#""password": "Lösenord","#,
    r#""password_required": "パスワードは必須です","#,
    r#""password_too_short": "Le mot de passe est trop court","#,
    r#""passwordInvalid": "La contraseña es inválida","#,
    r#""password_mismatch": "Die Passwörter stimmen nicht überein","#,
    r#""password_weak": "Das Passwort ist zu schwach","#,
    r#""password_label": "Kennwort","#,
    r"password: Mot de passe",
    r"password: Passwort",
    r"password: Contraseña",
    r"password: Hasło",
    r"password: Lösenord",
    r"password: Adgangskode",
    r"password: Salasana",
    r"password: Пароль",
    r"password: 비밀번호",
    r"password: パスワード",
    r"password: Parola d'ordine",
    r"password: Palavra-passe",
    r"password: Wachtwoord",
    r"confirm_password: Confirmer le mot de passe",
    r"new_password: Nouveau mot de passe",
    r"login.password: Mot de passe",
    r"auth.password.label = Passwort",
    r"auth.password = Passwort",
    r"password = Contraseña",
    r#"<label for="password">Mot de passe</label>"#,
    r#"<input type="password" placeholder="Mot de passe">"#,
    r#"msgid "Password""#,
    r#"msgstr "Mot de passe""#,
    // Whole texts: Markdown tables, YAML, SQL and a profile.
    r"| Setting | Default | Description |
|---|---|---|
| `password` | — | The database password |
| password_min_length | 12 | Minimum length |
| password | required | Password for login |
| PASSWORD | string | Password of the DB user |
| pwd | /srv/app | Working dir |",
    r"| Field | Type | Notes |
|-------|------|-------|
| email | text | unique |
| password | text | bcrypt hash |
| password_hash | varchar(60) | bcrypt |",
    r"| Option | Value |
| --- | --- |
| Password | Hidden |
| Password | Required |
| Password policy | Strong |
| Password | 12 chars |
| Password | Yes |
| Password | ✅ |",
    r"| Account | Password | Notes |
|---|---|---|
| Netflix | in 1Password | shared |
| Bank | see vault | 2FA |",
    r"env:
  - name: DB_PASSWORD
    valueFrom:
      secretKeyRef:
        name: db-secret
        key: password
  - name: LOG_LEVEL
    value: debug",
    r"auth:
  existingSecret: my-release-postgresql
  secretKeys:
    adminPasswordKey: postgres-password
    userPasswordKey: password",
    r"spring:
  datasource:
    url: jdbc:postgresql://db:5432/app
    username: app
    password: ${DB_PASSWORD}",
    r"```yaml
password: !vault |
  $ANSIBLE_VAULT;1.1;AES256
  6231353765643062
```",
    r#"```bash
read -s -p "Password: " PASSWORD
echo
export PGPASSWORD="$PASSWORD"
```"#,
    r"| User | Password | Role |
|---|---|---|
| ana | (in vault) | admin |",
    r"| Name | Password | Expires |",
    r"| Column | Description |
| password | Hashed |
| password | Encrypted at rest |",
    r"ALTER USER app PASSWORD EXPIRE;
She set password expiry to 90 days.",
    r"CREATE TABLE users (id bigint, password_hash text NOT NULL);
She set password expiry to 90 days.",
    r#"log.Fatal("password is required")
She set password expiry to 90 days."#,
    r"She set password expiry to 90 days. The password is read from a file in prod.",
    r#"Ana Silva, backend engineer in Lisbon. Speaks Portuguese, English and some Japanese.

## Preferences
- Prefers Go and Rust; dislikes Java.
- Password manager: Bitwarden. The password is never pasted into chat.
- Wants the JWT secret length to be 256 bits; api key rotation every 90 days.
- A senha é obrigatória in all forms (she writes UI copy in Portuguese).
- パスワードは8文字以上 — her rule for the Japanese app.

## Settings she uses

| Setting | Value | Notes |
|---|---|---|
| editor | nvim | with LazyVim |
| password_min_length | 16 | company policy |
| Password | Bitwarden | never plain text |
| shell | fish | `set -x EDITOR nvim` |

## Snippets

```go
pw := os.Getenv("DB_PASSWORD")
if pw == "" {
    log.Fatal("password is required")
}
```

```sql
ALTER USER app PASSWORD EXPIRE;
CREATE TABLE users (id bigint, password_hash text NOT NULL);
```

```fish
set -gx PATH $HOME/.cargo/bin $PATH
```

She set password expiry to 90 days on the staging Keycloak. The password is read from a file in prod."#,
];

#[test]
fn configs_logs_and_tables_keep_what_is_no_secret() {
    super::tests::assert_kept(BENIGN_CONFIG.iter().copied());
}
