//! Secrets a hostile review found kept in clear (each with the text it must become: the
//! secret replaced, everything around it kept, a closing backtick or bracket included).

/// A text holding a secret, and the text stored.
pub(crate) const LEAKS: &[(&str, &str)] = &[
    // 1. A value in Markdown backticks is the value, and the closing backtick or bracket stays.
    (
        "The DB password is `Tr0ub4dor3`",
        "The DB password is `[secret: password]`",
    ),
    ("DB password: `Tr0ub4dor3`", "DB password: `[secret: password]`"),
    ("- **Password:** `Sunflower42`", "- **Password:** `[secret: password]`"),
    ("PASSWORD=`Sunflower42`", "PASSWORD=`[secret: password]`"),
    (
        "export DB_PASSWORD=`Sunflower42`",
        "export DB_PASSWORD=`[secret: password]`",
    ),
    (
        "Use `password: Sunflower42` in the config",
        "Use `password: [secret: password]` in the config",
    ),
    (
        "Set `DB_PASSWORD=Sunflower42` in .env",
        "Set `DB_PASSWORD=[secret: password]` in .env",
    ),
    (
        "SESSION_SECRET=`a8Kd93LxQ2mZp7Rt5Vw1Ny4B`",
        "SESSION_SECRET=`[secret: api key]`",
    ),
    ("password=Password123)", "password=[secret: password])"),
    // 4. Hugging Face tokens and other services' prefixed tokens.
    (
        "HF_TOKEN=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",
        "HF_TOKEN=[secret: hugging face token]",
    ),
    (
        "my hugging face token is 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.",
        "my hugging face token is [secret: hugging face token].",
    ),
    (
        "org token 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",
        "org token [secret: hugging face token]",
    ),
    (
        "NPM_TOKEN=npm_a8Kd93LxQ2mZp7Rt5Vw1Ny4Bc6Fh0Js3Ue9G",
        "NPM_TOKEN=[secret: api key]",
    ),
    (
        "SG.a8Kd93LxQ2mZp7Rt5Vw1Ny.4Bc6Fh0Js3Ue9GqW2eR4tY6uI8oP0aS2dF4gH6jK8",
        "[secret: api key]",
    ),
    // 5. Keys of any characters under a key's name; a quoted key taken whole.
    (
        "AZURE_CLIENT_SECRET=2Lx8Q~Wn7Ys2jPq9LrNl.oZ5mXc4RbUe_ToIPdvF",
        "AZURE_CLIENT_SECRET=[secret: api key]",
    ),
    (
        "Azure app client secret: 2Lx8Q~Wn7Ys2jPq9LrNl.oZ5mXc4RbUe_ToIPdvF",
        "Azure app client secret: [secret: api key]",
    ),
    (
        "SECRET_KEY = 'django-insecure-h8#k2$l!q9w@e3r^t5y&u7i*o0p-a_s+d=f'",
        "SECRET_KEY = '[secret: api key]'",
    ),
    ("API_KEY=Zx9!qW2#eR4$tY6%uI8oP0", "API_KEY=[secret: api key]"),
    ("JWT_SECRET=mysupersecretjwtsigningkey", "JWT_SECRET=[secret: api key]"),
    // 6. Passwords in other languages.
    (
        "le mot de passe du wifi est tournesol42",
        "le mot de passe du wifi est [secret: password]",
    ),
    (
        "le mot de passe est Tournesol42",
        "le mot de passe est [secret: password]",
    ),
    ("Mot de passe : Tournesol42", "Mot de passe : [secret: password]"),
    ("das Passwort ist Sonnenblume42", "das Passwort ist [secret: password]"),
    ("Passwort: Sonnenblume42", "Passwort: [secret: password]"),
    ("la contraseña es Girasol42", "la contraseña es [secret: password]"),
    ("contraseña: Girasol42", "contraseña: [secret: password]"),
    ("a senha é Girasol42", "a senha é [secret: password]"),
    ("wachtwoord: Zonnebloem42", "wachtwoord: [secret: password]"),
    ("пароль: Podsolnuh42", "пароль: [secret: password]"),
    ("パスワードは Himawari42 です", "パスワードは [secret: password] です"),
    ("密码是 Xiangrikui42", "密码是 [secret: password]"),
    ("비밀번호: Haebaragi42", "비밀번호: [secret: password]"),
    ("पासवर्ड: Surajmukhi42", "पासवर्ड: [secret: password]"),
    // 7. English phrasings: set to, was, with password, password's.
    (
        "I changed the wifi password to Sunflower42",
        "I changed the wifi password to [secret: password]",
    ),
    (
        "I set the router password to Sunflower42 yesterday",
        "I set the router password to [secret: password] yesterday",
    ),
    (
        "The admin password was reset to Sunflower42",
        "The admin password was reset to [secret: password]",
    ),
    (
        "The password was Sunflower42 but I changed it.",
        "The password was [secret: password] but I changed it.",
    ),
    (
        "My old password was Sunflower42",
        "My old password was [secret: password]",
    ),
    (
        "log in with password Sunflower42",
        "log in with password [secret: password]",
    ),
    (
        "Use the password Sunflower42 for the guest account",
        "Use the password [secret: password] for the guest account",
    ),
    ("password Sunflower42", "password [secret: password]"),
    ("My password's Sunflower42", "My password's [secret: password]"),
    (
        "the password I use for the NAS is Sunflower42",
        "the password I use for the NAS is [secret: password]",
    ),
    // 8. Lower-case, hyphenated and multi-word passwords after 'password is' / 'Password:':
    // since the eighth pass, only when they look like one or are quoted (a plain word said
    // in prose is kept: `benign_prose`).
    (
        "my wifi password is \"pineapple\" and the network is Home5G",
        "my wifi password is \"[secret: password]\" and the network is Home5G",
    ),
    (
        "the password is swordfish7 for the front door",
        "the password is [secret: password] for the front door",
    ),
    (
        "my password is correct-horse-battery-staple",
        "my password is [secret: password]",
    ),
    (
        "Password: bluebird42 for the guest network",
        "Password: [secret: password] for the guest network",
    ),
    (
        "Password: 'Sunflower' is the new one",
        "Password: '[secret: password]' is the new one",
    ),
    (
        "Passphrase: \"correct horse battery staple\"",
        "Passphrase: \"[secret: password]\"",
    ),
    (
        "DB_PASSWORD=correct horse battery staple",
        "DB_PASSWORD=[secret: password]",
    ),
    ("The password is swordfish7.", "The password is [secret: password]."),
    // 9. Credential files and command lines.
    (
        "db.example.com:5432:app:ana:Sunflower42",
        "db.example.com:5432:app:ana:[secret: password]",
    ),
    ("*:*:*:postgres:Tr0ub4dor3", "*:*:*:postgres:[secret: password]"),
    (
        "ALTER USER ana WITH PASSWORD 'Sunflower42';",
        "ALTER USER ana WITH PASSWORD '[secret: password]';",
    ),
    (
        "CREATE USER 'ana'@'%' IDENTIFIED BY 'Sunflower42';",
        "CREATE USER 'ana'@'%' IDENTIFIED BY '[secret: password]';",
    ),
    (
        "{\"auths\":{\"ghcr.io\":{\"auth\":\"YW5hOlN1bmZsb3dlcjQy\"}}}",
        "{\"auths\":{\"ghcr.io\":{\"auth\":\"[secret: password]\"}}}",
    ),
    (
        "machine github.com\nlogin ana\npassword Sunflower42",
        "machine github.com\nlogin ana\npassword [secret: password]",
    ),
    (
        "docker login -u ana --password Sunflower42",
        "docker login -u ana --password [secret: password]",
    ),
    (
        "mongosh \"mongodb://db\" --username admin --password Sunflower42",
        "mongosh \"mongodb://db\" --username admin --password [secret: password]",
    ),
    (
        "set -x DB_PASSWORD Sunflower42",
        "set -x DB_PASSWORD [secret: password]",
    ),
    ("setx DB_PASSWORD Sunflower42", "setx DB_PASSWORD [secret: password]"),
    (
        "http -a ana:Sunflower42 https://api.example.com",
        "http -a ana:[secret: password] https://api.example.com",
    ),
    (
        "curl -u 'ana:Sun flower 42' https://api.example.com",
        "curl -u 'ana:[secret: password]' https://api.example.com",
    ),
    ("| DB_PASSWORD | Sunflower42 |", "| DB_PASSWORD | [secret: password] |"),
    (
        "<add key=\"DbPassword\" value=\"Sunflower42\"/>",
        "<add key=\"DbPassword\" value=\"[secret: password]\"/>",
    ),
    (
        "variable \"db_password\" { default = \"Sunflower42\" }",
        "variable \"db_password\" { default = \"[secret: password]\" }",
    ),
    (
        "sqlcmd -S db -U sa -P Sunflower42",
        "sqlcmd -S db -U sa -P [secret: password]",
    ),
    (
        "ldapsearch -x -D cn=admin -w Sunflower42",
        "ldapsearch -x -D cn=admin -w [secret: password]",
    ),
    (
        "smbclient //nas/share -U ana%Sunflower42",
        "smbclient //nas/share -U ana%[secret: password]",
    ),
    (
        "openssl pkcs12 -export -passout pass:Sunflower42 -out a.p12",
        "openssl pkcs12 -export -passout pass:[secret: password] -out a.p12",
    ),
    (
        "keytool -list -keystore ks.jks -storepass Sunflower42",
        "keytool -list -keystore ks.jks -storepass [secret: password]",
    ),
    // 11. `_pass` and `pw` names.
    (
        "ansible_become_pass: Sunflower42",
        "ansible_become_pass: [secret: password]",
    ),
    ("ansible_ssh_pass: Sunflower42", "ansible_ssh_pass: [secret: password]"),
    (
        "RABBITMQ_DEFAULT_PASS=Sunflower42",
        "RABBITMQ_DEFAULT_PASS=[secret: password]",
    ),
    ("KEYSTORE_PASS=Sunflower42", "KEYSTORE_PASS=[secret: password]"),
    ("WIFI_PASS=Sunflower42", "WIFI_PASS=[secret: password]"),
    ("BASIC_AUTH_PASS=Sunflower42", "BASIC_AUTH_PASS=[secret: password]"),
    ("pass: Sunflower42", "pass: [secret: password]"),
    ("PASS=Sunflower42", "PASS=[secret: password]"),
    ("pw: Sunflower42", "pw: [secret: password]"),
    (
        "{\"user\":\"ana\",\"pass\":\"Sunflower42\"}",
        "{\"user\":\"ana\",\"pass\":\"[secret: password]\"}",
    ),
    // 12. A name's action read from its parts; an action with a password is still one.
    (
        "state set exchange_password Tr0ub4dor3",
        "state set exchange_password [secret: password]",
    ),
    (
        "--meta exchange_password=Tr0ub4dor3",
        "--meta exchange_password=[secret: password]",
    ),
    ("UPDATE_PASSWORD=Sunflower42", "UPDATE_PASSWORD=[secret: password]"),
    ("confirmPassword: Sunflower42", "confirmPassword: [secret: password]"),
    // 13. "api key" in words, keys under 24 characters.
    (
        "the api key is a8Kd93LxQ2mZp7Rt5Vw1",
        "the api key is [secret: api key]",
    ),
    ("api key: a8Kd93LxQ2mZp7Rt5V", "api key: [secret: api key]"),
];
