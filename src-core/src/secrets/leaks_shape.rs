//! Secrets an eighth, hostile review checked are still found once values are judged by
//! their shape and syntax (each with the text it must become).

/// A text holding a secret, and the text stored.
pub(crate) const LEAKS_SHAPE: &[(&str, &str)] = &[
    // Passwords in other languages, in CJK with the text after them kept.
    (
        r"WiFi密码是Sunflower42，记得明天改一下",
        r"WiFi密码是[secret: password]，记得明天改一下",
    ),
    (
        r"パスワードはSunflower42です。明日変更します。",
        r"パスワードは[secret: password]です。明日変更します。",
    ),
    (
        r"密码：Sunflower42（不要告诉别人）",
        r"密码：[secret: password]（不要告诉别人）",
    ),
    (
        r"비밀번호는 Sunflower42입니다. 내일 바꿀게요.",
        r"비밀번호는 [secret: password]입니다. 내일 바꿀게요.",
    ),
    (
        r"Le mot de passe est Tournesol42, ne le partage pas.",
        r"Le mot de passe est [secret: password], ne le partage pas.",
    ),
    (
        r"Das Passwort ist Sonnenblume42 – bitte nicht weitergeben.",
        r"Das Passwort ist [secret: password] – bitte nicht weitergeben.",
    ),
    (r"Mot de passe : Tournesol42", r"Mot de passe : [secret: password]"),
    (
        r"Le mot de passe du Wi-Fi : Tournesol42",
        r"Le mot de passe du Wi-Fi : [secret: password]",
    ),
    (r"パスワード: Sunflower42", r"パスワード: [secret: password]"),
    (
        r"Das Passwort lautet Sonnenblume42",
        r"Das Passwort lautet [secret: password]",
    ),
    (
        r"Das Passwort heißt Sonnenblume42",
        r"Das Passwort heißt [secret: password]",
    ),
    (r"El password es Girasol42", r"El password es [secret: password]"),
    (
        r"CREATE ROLE ana LOGIN PASSWORD 'correct horse';",
        r"CREATE ROLE ana LOGIN PASSWORD '[secret: password]';",
    ),
    (
        r"CREATE ROLE ana LOGIN PASSWORD 'sunflower';",
        r"CREATE ROLE ana LOGIN PASSWORD '[secret: password]';",
    ),
    (
        r"ALTER USER ana IDENTIFIED BY Sunflower42;",
        r"ALTER USER ana IDENTIFIED BY [secret: password];",
    ),
    (
        r"ALTER USER system IDENTIFIED BY oracle;",
        r"ALTER USER system IDENTIFIED BY [secret: password];",
    ),
    (
        r#""api_key": "kXmPqRsTuVwYzAbCdEfGhJkL""#,
        r#""api_key": "[secret: api key]""#,
    ),
    (
        r#"JWT_SECRET="supersecretjwtkeyvalue""#,
        r#"JWT_SECRET="[secret: api key]""#,
    ),
    (
        r"the webhook secret is whsec_kXmPqRsTuVwYzAbCdEfGh12",
        r"the webhook secret is [secret: api key]",
    ),
    (r"api-key: a8Kd93LxQ2mZp7Rt5Vw1", r"api-key: [secret: api key]"),
    (r"X-API-Key: a8Kd93LxQ2mZp7Rt5Vw1", r"X-API-Key: [secret: api key]"),
    (r"x-api-key = a8Kd93LxQ2mZp7Rt5Vw1", r"x-api-key = [secret: api key]"),
    (r"ApiKey=a8Kd93LxQ2mZp7Rt5Vw1", r"ApiKey=[secret: api key]"),
    (
        r"OpenAI key: sk-a8Kd93LxQ2mZp7Rt5Vw1Ny4Bc6Fh0Js3Ue9G",
        r"OpenAI key: [secret: openai api key]",
    ),
    (
        r#"my password is "sunflower""#,
        r#"my password is "[secret: password]""#,
    ),
    (
        r"the wifi password: bluebird42",
        r"the wifi password: [secret: password]",
    ),
    (
        r"The WiFi password is BlueBird42!",
        r"The WiFi password is [secret: password]",
    ),
    (r"wifi pw: BlueBird42", r"wifi pw: [secret: password]"),
    (
        r"SSID HomeNet, password BlueBird42.",
        r"SSID HomeNet, password [secret: password].",
    ),
    // Named, said, in commands, SQL, credential files, connection strings.
    (r"UPDATE_PASSWORD=Sunflower42", r"UPDATE_PASSWORD=[secret: password]"),
    (
        r#"update_password: "Sunflower42""#,
        r#"update_password: "[secret: password]""#,
    ),
    (
        r"Update_Password = Sunflower42 # set by ops",
        r"Update_Password = [secret: password] # set by ops",
    ),
    (r"JWT_SECRET=kXmPqRsTuVwYzAbCdEfGh", r"JWT_SECRET=[secret: api key]"),
    (
        r#"jwt_secret: "kXmPqRsTuVwYzAbCdEfGh""#,
        r#"jwt_secret: "[secret: api key]""#,
    ),
    (
        r"JWT_SECRET = kXmPqRsTuVwYzAbCdEfGh. Rotate monthly.",
        r"JWT_SECRET = [secret: api key]. Rotate monthly.",
    ),
    (
        r"The API key: a8Kd93LxQ2mZp7Rt5Vw1.",
        r"The API key: [secret: api key].",
    ),
    (r"API KEY = a8Kd93LxQ2mZp7Rt5Vw1", r"API KEY = [secret: api key]"),
    (
        r"My API key is a8Kd93LxQ2mZp7Rt5Vw1, don't share it.",
        r"My API key is [secret: api key], don't share it.",
    ),
    (
        r"Le mot de passe est Tournesol42.",
        r"Le mot de passe est [secret: password].",
    ),
    (
        r"Le mot de passe du wifi est Tournesol42",
        r"Le mot de passe du wifi est [secret: password]",
    ),
    (
        r"Das WLAN-Passwort ist Sonnenblume42.",
        r"Das WLAN-Passwort ist [secret: password].",
    ),
    (r"Passwort: Sonnenblume42", r"Passwort: [secret: password]"),
    (r"La contraseña es Girasol42.", r"La contraseña es [secret: password]."),
    (
        r"La contraseña del wifi es Girasol42",
        r"La contraseña del wifi es [secret: password]",
    ),
    (r"A senha é Girassol42", r"A senha é [secret: password]"),
    (r"De wachtwoord is Zonnebloem42", r"De wachtwoord is [secret: password]"),
    (r"Пароль: Podsolnukh42", r"Пароль: [secret: password]"),
    (r"パスワードはSunflower42です", r"パスワードは[secret: password]です"),
    (r"パスワード：Sunflower42", r"パスワード：[secret: password]"),
    (r"密码是Sunflower42", r"密码是[secret: password]"),
    (r"密码：Sunflower42", r"密码：[secret: password]"),
    (r"WiFi密码是 Sunflower42", r"WiFi密码是 [secret: password]"),
    (r"비밀번호는 Sunflower42입니다", r"비밀번호는 [secret: password]입니다"),
    (
        r#"sqlcmd -S db -U sa -P Sunflower42 -Q "SELECT 1""#,
        r#"sqlcmd -S db -U sa -P [secret: password] -Q "SELECT 1""#,
    ),
    (
        r"sqlcmd -S db -U sa -PSunflower42",
        r"sqlcmd -S db -U sa -P[secret: password]",
    ),
    (
        r"ldapsearch -x -D cn=admin,dc=ex -w Sunflower42 -b dc=ex",
        r"ldapsearch -x -D cn=admin,dc=ex -w [secret: password] -b dc=ex",
    ),
    (
        r"smbclient //srv/share -U ana%Sunflower42",
        r"smbclient //srv/share -U ana%[secret: password]",
    ),
    (
        r"smbclient //srv/share -U 'CORP\ana%Sunflower42'",
        r"smbclient //srv/share -U 'CORP\ana%[secret: password]'",
    ),
    (
        r"openssl pkcs12 -export -out c.pfx -passout pass:Sunflower42",
        r"openssl pkcs12 -export -out c.pfx -passout pass:[secret: password]",
    ),
    (
        r"openssl pkcs12 -in c.pfx -passin 'pass:Sunflower42'",
        r"openssl pkcs12 -in c.pfx -passin 'pass:[secret: password]'",
    ),
    (
        r"keytool -genkey -keystore ks.jks -storepass Sunflower42 -keypass Sunflower42",
        r"keytool -genkey -keystore ks.jks -storepass [secret: password] -keypass [secret: password]",
    ),
    (
        r"htpasswd -b .htpasswd ana Sunflower42",
        r"htpasswd -b .htpasswd ana [secret: password]",
    ),
    (
        r"net use Z: \\srv\share /user:CORP\ana Sunflower42",
        r"net use Z: \\srv\share /user:CORP\ana [secret: password]",
    ),
    (
        r"set -x DB_PASSWORD Sunflower42",
        r"set -x DB_PASSWORD [secret: password]",
    ),
    (
        r"set -gx DB_PASSWORD Sunflower42",
        r"set -gx DB_PASSWORD [secret: password]",
    ),
    (r"setx DB_PASSWORD Sunflower42", r"setx DB_PASSWORD [secret: password]"),
    (
        r#"setx DB_PASSWORD "Sunflower42""#,
        r#"setx DB_PASSWORD "[secret: password]""#,
    ),
    (
        r#"$env:DB_PASSWORD = "Sunflower42""#,
        r#"$env:DB_PASSWORD = "[secret: password]""#,
    ),
    (
        r"db.example.com:5432:app:ana:Sunflower42",
        r"db.example.com:5432:app:ana:[secret: password]",
    ),
    (r"*:*:*:ana:Sunflower42", r"*:*:*:ana:[secret: password]"),
    (
        r"ALTER USER ana WITH PASSWORD 'Sunflower42';",
        r"ALTER USER ana WITH PASSWORD '[secret: password]';",
    ),
    (
        r"alter role ana with encrypted password 'Sunflower42';",
        r"alter role ana with encrypted password '[secret: password]';",
    ),
    (
        r"ALTER USER 'ana'@'%' IDENTIFIED WITH mysql_native_password BY 'Sunflower42';",
        r"ALTER USER 'ana'@'%' IDENTIFIED WITH mysql_native_password BY '[secret: password]';",
    ),
    (
        r"SET PASSWORD FOR 'ana'@'%' = 'Sunflower42';",
        r"SET PASSWORD FOR 'ana'@'%' = '[secret: password]';",
    ),
    (
        r"SET PASSWORD FOR 'ana'@'%' = PASSWORD('Sunflower42');",
        r"SET PASSWORD FOR 'ana'@'%' = PASSWORD('[secret: password]');",
    ),
    (
        r"CREATE LOGIN ana WITH PASSWORD = 'Sunflower42';",
        r"CREATE LOGIN ana WITH PASSWORD = '[secret: password]';",
    ),
    (
        r"wifi_password: correct horse battery staple",
        r"wifi_password: [secret: password]",
    ),
    (
        r"DB_PASSWORD=correct horse battery staple",
        r"DB_PASSWORD=[secret: password]",
    ),
    (r"smtp_pass: abcd efgh ijkl mnop", r"smtp_pass: [secret: password]"),
    (
        r"GMAIL_APP_PASSWORD=abcd efgh ijkl mnop",
        r"GMAIL_APP_PASSWORD=[secret: password]",
    ),
    (
        r"Gmail app password: abcd efgh ijkl mnop",
        r"Gmail app password: [secret: password]",
    ),
    (
        r#"<add key="DbPassword" value="Sunflower42" />"#,
        r#"<add key="DbPassword" value="[secret: password]" />"#,
    ),
    (r"pw: Sunflower42", r"pw: [secret: password]"),
    (r"PW=Sunflower42", r"PW=[secret: password]"),
    (
        r"RABBITMQ_DEFAULT_PASS=Sunflower42",
        r"RABBITMQ_DEFAULT_PASS=[secret: password]",
    ),
    (
        r"rabbitmq_default_pass: guest2024",
        r"rabbitmq_default_pass: [secret: password]",
    ),
    (
        r"ansible_become_pass: Sunflower42",
        r"ansible_become_pass: [secret: password]",
    ),
    (
        r#"ansible_ssh_pass: "Sunflower42""#,
        r#"ansible_ssh_pass: "[secret: password]""#,
    ),
    (
        r"password: Sunflower42; api_key: a8Kd93LxQ2mZp7Rt5Vw1",
        r"password: [secret: password]; api_key: [secret: api key]",
    ),
    (
        r"user=ana password=Sunflower42,host=db",
        r"user=ana password=[secret: password],host=db",
    ),
    (r"(password: Sunflower42)", r"(password: [secret: password])"),
    (r"[password: Sunflower42]", r"[password: [secret: password]]"),
    (r"{password: Sunflower42}", r"{password: [secret: password]}"),
    (r#""password is Sunflower42""#, r#""password is [secret: password]""#),
    (r"'password: Sunflower42'", r"'password: [secret: password]'"),
    (r#"password: "Sunflower42"."#, r#"password: "[secret: password]"."#),
    (r"**Password:** Sunflower42.", r"**Password:** [secret: password]."),
    (r"Password:Sunflower42", r"Password:[secret: password]"),
    (r"Password：Sunflower42", r"Password：[secret: password]"),
    (
        r"password=Sunflower42&user=ana",
        r"password=[secret: password]&user=ana",
    ),
    (
        r"?user=ana&password=Sunflower42#frag",
        r"?user=ana&password=[secret: password]",
    ),
    (
        r"The password is Sunflower42 (changed in May).",
        r"The password is [secret: password] (changed in May).",
    ),
    (
        r#"The password is "Sunflower42" (changed in May)."#,
        r#"The password is "[secret: password]" (changed in May)."#,
    ),
    (
        r"Server=db;Database=app;User Id=sa;Password=Sunflower42;Encrypt=true;TrustServerCertificate=true",
        r"Server=db;Database=app;User Id=sa;Password=[secret: password];Encrypt=true;TrustServerCertificate=true",
    ),
    (
        r"Data Source=db;Initial Catalog=app;User ID=sa;Password=Sunflower42;",
        r"Data Source=db;Initial Catalog=app;User ID=sa;Password=[secret: password];",
    ),
    (
        r"host=db port=5432 user=ana password=Sunflower42 dbname=app sslmode=require",
        r"host=db port=5432 user=ana password=[secret: password] dbname=app sslmode=require",
    ),
    (
        r"https://example.com/login?password=Sunflower42&next=/home",
        r"https://example.com/login?password=[secret: password]&next=/home",
    ),
    (r"PASSWORD IS Sunflower42", r"PASSWORD IS [secret: password]"),
    (
        r"The password is: Sunflower42.",
        r"The password is: [secret: password].",
    ),
    (r"Password = 'Sunflower42'", r"Password = '[secret: password]'"),
    (r"password -> Sunflower42", r"password -> [secret: password]"),
    (r"Password was Sunflower42!", r"Password was [secret: password]"),
    (r"pass: Sunflower42", r"pass: [secret: password]"),
    (r"Pass: Sunflower42", r"Pass: [secret: password]"),
    (r"user/pass: ana/Sunflower42", r"user/pass: ana/[secret: password]"),
    (
        r"login: ana / pass: Sunflower42",
        r"login: ana / pass: [secret: password]",
    ),
    (
        r"https://ana:Sunflower42@db.example.com/app",
        r"https://ana:[secret: password]@db.example.com/app",
    ),
    (
        r"see https://ana:Sunflower42@db.example.com/{db}",
        r"see https://ana:[secret: password]@db.example.com/{db}",
    ),
    // Passwords by their shape; multi-word values assigned to an identifier.
    (
        r"Password: Sunflower42 (the wifi password)",
        r"Password: [secret: password] (the wifi password)",
    ),
    (
        r"My password is Sunflower42, same as my old password",
        r"My password is [secret: password], same as my old password",
    ),
    (r"the password is P@ss!", r"the password is [secret: password]"),
    (r"my password is hunter2", r"my password is [secret: password]"),
    (
        r"the password is correct-horse-battery-staple",
        r"the password is [secret: password]",
    ),
    (
        r"JWT_SECRET=mysupersecretjwtsigningkey",
        r"JWT_SECRET=[secret: api key]",
    ),
    (r"password: hunter2 # prod", r"password: [secret: password] # prod"),
    (
        r"PGPASSWORD=Sunflower42 psql -h db app",
        r"PGPASSWORD=[secret: password] psql -h db app",
    ),
    (r"USER: ana PASS: Sunflower42", r"USER: ana PASS: [secret: password]"),
    (r"wifi pass: BlueBird42", r"wifi pass: [secret: password]"),
    (
        r"set -Ux DB_PASSWORD Sunflower42",
        r"set -Ux DB_PASSWORD [secret: password]",
    ),
    (r"SET DB_PASSWORD Sunflower42", r"SET DB_PASSWORD [secret: password]"),
    (r"set DbPassword Sunflower42", r"set DbPassword [secret: password]"),
    // Tables, .netrc, Kubernetes env, SQL blocks.
    (
        r#"variable "db_password" {
  type    = string
  default = "Sunflower42"
}"#,
        r#"variable "db_password" {
  type    = string
  default = "[secret: password]"
}"#,
    ),
    (
        r"| Service | User | Password |
|---|---|---|
| db | ana | Sunflower42 |
| nas | admin | `Tr0ub4dor&3` |",
        r"| Service | User | Password |
|---|---|---|
| db | ana | [secret: password] |
| nas | admin | `[secret: password]` |",
    ),
    (
        r"machine api.example.com
  login ana
  password Sunflower42",
        r"machine api.example.com
  login ana
  password [secret: password]",
    ),
    (
        r"env:
  - name: DB_PASSWORD
    value: Sunflower42",
        r"env:
  - name: DB_PASSWORD
    value: [secret: password]",
    ),
    (
        r"```sql
CREATE USER app WITH PASSWORD 'Sunflower42';
GRANT SELECT ON ALL TABLES IN SCHEMA public TO app;
```",
        r"```sql
CREATE USER app WITH PASSWORD '[secret: password]';
GRANT SELECT ON ALL TABLES IN SCHEMA public TO app;
```",
    ),
    (
        r"| Key | Example |
|---|---|
| DB_PASSWORD | hunter2x |",
        r"| Key | Example |
|---|---|
| DB_PASSWORD | [secret: password] |",
    ),
    (
        r"| Service | URL | Password |
|---|---|---|
| Grafana | https://grafana.local | Sunflower42 |",
        r"| Service | URL | Password |
|---|---|---|
| Grafana | https://grafana.local | [secret: password] |",
    ),
    // A password manager's export, as CSV and as TSV: the password column of every row.
    (
        "name,url,username,password\nNetflix,https://www.netflix.com,jin@example.com,Sunflower42\nBank,https://bank.example,jin,\"Tr0ub4dor&3,x\"",
        "name,url,username,password\nNetflix,https://www.netflix.com,jin@example.com,[secret: password]\nBank,https://bank.example,jin,\"[secret: password]\"",
    ),
    (
        "url\tusername\tpassword\nhttps://mail.example\tjin\tSunflower42",
        "url\tusername\tpassword\nhttps://mail.example\tjin\t[secret: password]",
    ),
];

#[test]
fn blank_fields_and_cells_are_no_values_and_never_panic() {
    for text in [
        "a,password\n   ,   \n",
        "   ",
        "x\t \t\npassword\t \n",
        "| a | password |\n|---|---|\n|   |     |\n",
        "|   |",
    ] {
        assert_eq!(super::redact(text).0, text);
    }
}

#[test]
fn each_shaped_or_named_secret_is_replaced_and_the_text_around_kept() {
    super::tests::assert_stored(LEAKS_SHAPE);
}
