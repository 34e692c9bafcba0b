//! Passwords on command lines (`--password 'X'`, `curl -u ana:X`, `mysql -pX`,
//! `sqlcmd -P X`, `keytool -storepass X`, `set -x DB_PASSWORD X`) and in credential files
//! (`.netrc`, `.pgpass`, Maven's settings, SQL, Docker's and npm's auth).

use super::{ANY_GROUP, Format, VALUE, format};
use crate::secrets::SecretKind as K;
use crate::secrets::values::Form;

/// The command-line and credential-file formats.
pub(super) fn formats() -> Vec<Format> {
    vec![
        // `--password 'X'` (a bare `--password` makes psql and mysql ask: see
        // `beside_the_word`), `curl -u ana:X`, `http -a ana:X`, `mysql -u root -pX`,
        // `sshpass -p X`, `docker login -p X`, `redis-cli -a X`.
        format(
            K::Password,
            r#"(?:^|\s)--password[ \t]+(?:'([^'\n]{3,})'|"([^"\n]{3,})")"#,
            ANY_GROUP,
        ),
        format(
            K::Password,
            r#"\b(?:curl|wget|http|https)\b[^\n|;&]*?\s(?:-u|--user|-a|--auth)[ \t=]+(?:'[^':\n]*:([^'\n]{3,})'|"[^":\n]*:([^"\n]{3,})"|["']?[^\s:'"]*[A-Za-z][^\s:'"]*:([^\s'"]{3,}))"#,
            ANY_GROUP,
        ),
        format(
            K::Password,
            r#"\b(?:mysql|mysqldump|mariadb)(?:[ \t]+(?:-[uhPDS][ \t]*[^\s\-]\S*|--[a-z\-]+(?:=\S+)?|-[A-Za-z]))*[ \t]+-p(?:'([^'\n]{3,})'|"([^"\n]{3,})"|([^\s'"\-][^\s'"]{2,}))"#,
            ANY_GROUP,
        ),
        format(
            K::Password,
            &format!(
                r#"\b(?:sshpass|(?:docker|podman|buildah|skopeo|nerdctl|oc|az|cf)[ \t]+login\b[^\n|;&]*?)[ \t]+-p[ \t]+{VALUE}"#
            ),
            ANY_GROUP,
        )
        .form(Form::Flag),
        format(
            K::Password,
            &format!(r#"\bredis-cli\b[^\n|;&]*?[ \t](?:-a|--pass)[ \t]+{VALUE}"#),
            ANY_GROUP,
        )
        .form(Form::Flag),
        // `sqlcmd -P X`, `ldapsearch -w X`, `smbclient -U ana%X`, `openssl … -passout
        // pass:X`, `keytool -storepass X`, `htpasswd -b file ana X`, `net use … /user:ana X`.
        format(
            K::Password,
            &format!(r#"\b(?:sqlcmd|bcp|osql)\b[^\n|;&]*?[ \t]-P[ \t]*{VALUE}"#),
            ANY_GROUP,
        )
        .form(Form::Flag),
        format(
            K::Password,
            &format!(
                r#"\bldap(?:search|add|modify|delete|passwd|whoami|compare|modrdn)\b[^\n|;&]*?[ \t]-w[ \t]+{VALUE}"#
            ),
            ANY_GROUP,
        )
        .form(Form::Flag),
        format(
            K::Password,
            r#"\b(?:smbclient|rpcclient|smbmap|smbcacls|net)\b[^\n|;&]*?[ \t](?:-U|--user(?:name)?)[ \t=]+["']?[^\s%'"]+%([^\s'"]{3,})"#,
            1,
        ),
        format(
            K::Password,
            r#"(?:^|\s)-pass(?:in|out|word)?[ \t]+["']?pass:([^\s'"]{3,})"#,
            1,
        ),
        format(
            K::Password,
            &format!(r#"(?:^|\s)-(?:store|key|srcstore|deststore|srckey|destkey)pass[ \t]+{VALUE}"#),
            ANY_GROUP,
        )
        .form(Form::Flag),
        format(
            K::Password,
            &format!(
                r#"\bhtpasswd\b(?:[ \t]+-[A-Za-z]+)*[ \t]+-[A-Za-z]*b[A-Za-z]*(?:[ \t]+-[A-Za-z]+)*[ \t]+\S+[ \t]+\S+[ \t]+{VALUE}"#
            ),
            ANY_GROUP,
        )
        .form(Form::Flag),
        format(
            K::Password,
            &format!(r#"(?i)\bnet[ \t]+use\b[^\n]*?[ \t]/user:\S+[ \t]+{VALUE}"#),
            ANY_GROUP,
        )
        .form(Form::Flag),
        // fish's `set -x DB_PASSWORD X` (a flag, or a name written as an identifier: `set
        // password length to 16` is prose) and Windows' `setx DB_PASSWORD X`.
        format(
            K::Password,
            &format!(
                r#"(?i)\b(?:set(?:[ \t]+-[a-z]+)+|setx)[ \t]+[a-z0-9_]*?(?:password|passwd|pwd|_pass)[ \t]+{VALUE}"#
            ),
            ANY_GROUP,
        ),
        format(
            K::Password,
            &format!(
                r#"\b(?:set|SET)[ \t]+(?:[A-Za-z0-9]*_[A-Za-z0-9_]*?(?i:password|passwd|pwd|pass)|[A-Z0-9_]*(?:PASSWORD|PASSWD|PWD)|[A-Za-z0-9]*[a-z0-9](?:Password|Passwd|Pwd))[ \t]+{VALUE}"#
            ),
            ANY_GROUP,
        ),
        // More tools: `mongosh -u admin -p …`, `psexec -u ana -p …`, `rdesktop -p …`, `zip -P …`,
        // `7z a -p…`, `xfreerdp /p:…`, `lftp -u ana,…`, `net user ana … /add`, `echo "ana:…" |
        // chpasswd`, Redis's `requirepass …` / `masterauth …`, PowerShell's
        // `ConvertTo-SecureString "…" -AsPlainText`.
        format(
            K::Password,
            &format!(r#"\b(?:mongo|mongosh|mongodump|mongorestore|mongoexport|mongoimport|psexec|rdesktop|zip)\b[^\n|;&]*?[ \t]-[pP][ \t]+{VALUE}"#),
            ANY_GROUP,
        )
        .form(Form::Flag),
        format(K::Password, r"\b(?:7z|rar|unrar)[ \t]+[a-z]\b[^\n|;&]*?[ \t]-h?p([^\s'\x22\-]{3,})", 1),
        // `ipmitool … -P …`, macOS's `security add-generic-password … -w …`, a Dockerfile's
        // `ENV DB_PASSWORD …`, csh's `setenv DB_PASSWORD …`, SQLCipher's `PRAGMA key = '…'`,
        // MongoDB's `db.changeUserPassword("ana", "…")`, kickstart's `rootpw`, LDAP's
        // `olcRootPW:` and `bindpw`, Windows' `netsh wlan show profile` line `Key Content : …`,
        // Debian's `wpa-psk …`, OpenWrt's `option key '…'`.
        format(K::Password, &format!(r"\bipmitool\b[^\n|;&]*?[ \t]-P[ \t]+{VALUE}"), ANY_GROUP).form(Form::Flag),
        format(
            K::Password,
            &format!(r"\bsecurity[ \t]+add-(?:generic|internet)-password\b[^\n|;&]*?[ \t]-w[ \t]+{VALUE}"),
            ANY_GROUP,
        )
        .form(Form::Flag),
        format(
            K::Password,
            &format!(r"(?m)(?:^[ \t]*ENV|\bsetenv)[ \t]+[A-Za-z0-9_]*(?i:password|passwd|pwd|_pass)[ \t]+{VALUE}"),
            ANY_GROUP,
        )
        .form(Form::Flag),
        format(
            K::Password,
            r#"(?i)\bPRAGMA[ \t]+(?:re)?key[ \t]*=[ \t]*(?:"([^"\n]{3,})"|'([^'\n]{3,})')"#,
            ANY_GROUP,
        ),
        format(
            K::Password,
            r#"\bchangeUserPassword\([ \t]*["'][^"'\n]*["'][ \t]*,[ \t]*(?:"([^"\n]{3,})"|'([^'\n]{3,})')"#,
            ANY_GROUP,
        ),
        format(
            K::Password,
            &format!(r"(?im)^[ \t]*(?:rootpw(?:[ \t]+--plaintext)?|olcRootPW[ \t]*:|bindpw|wpa-psk)[ \t]+{VALUE}"),
            ANY_GROUP,
        )
        .form(Form::Flag),
        format(K::Password, r"(?m)^[ \t]*Key[ \t]+Content[ \t]*:[ \t]*(\S[^\r\n]{2,62}?)[ \t]*$", 1).form(Form::Said),
        format(K::Password, r"(?m)^[ \t]*option[ \t]+key[ \t]+'([^'\n]{8,63})'", 1),
        format(K::Password, r"(?i)\bxfreerdp\b[^\n]*?[ \t]/p:([^\s'\x22]{3,})", 1),
        format(K::Password, r"\blftp\b[^\n|;&]*?[ \t]-u[ \t]+[^,\s]+,([^\s'\x22]{3,})", 1),
        format(K::Password, r"(?i)\bnet[ \t]+user[ \t]+\S+[ \t]+([^\s/*]\S{2,})[ \t]+/add\b", 1),
        format(
            K::Password,
            r#"\becho[ \t]+["']?[\w.\-]+:([^"'\s]{3,})["']?[ \t]*\|[ \t]*(?:sudo[ \t]+)?chpasswd"#,
            1,
        ),
        format(K::Password, &format!(r"(?im)^[ \t]*(?:requirepass|masterauth)[ \t]+{VALUE}"), ANY_GROUP),
        // `unzip -P …`, `openssl enc … -k …`, `openssl passwd -1 …`, `ssh-keygen … -N "…"`,
        // a password piped in (`echo … | sudo -S`, `echo … | passwd --stdin ana`, `<(echo …)`,
        // `vncpasswd -f <<< …`).
        format(K::Password, &format!(r"\bunzip\b[^\n|;&]*?[ \t]-P[ \t]+{VALUE}"), ANY_GROUP).form(Form::Flag),
        format(K::Password, &format!(r"\bopenssl[ \t]+(?:enc|aes\S*|des\S*)\b[^\n|;&]*?[ \t]-k[ \t]+{VALUE}"), ANY_GROUP).form(Form::Flag),
        format(K::Password, &format!(r"\bopenssl[ \t]+passwd\b(?:[ \t]+-\S+)*[ \t]+{VALUE}"), ANY_GROUP).form(Form::Flag),
        format(K::Password, &format!(r"\bssh-keygen\b[^\n|;&]*?[ \t]-N[ \t]+{VALUE}"), ANY_GROUP).form(Form::Flag),
        format(
            K::Password,
            &format!(r"\becho[ \t]+{VALUE}[ \t]*\|[ \t]*(?:sudo[ \t]+-S|sudo[ \t]+-\w*S|passwd[ \t]+--stdin|\S*passwd\b)"),
            ANY_GROUP,
        )
        .form(Form::Flag),
        format(K::Password, &format!(r"<\([ \t]*echo[ \t]+{VALUE}[ \t]*\)"), ANY_GROUP).form(Form::Flag),
        format(K::Password, &format!(r"\b\w*passwd\b[^\n|;&]*?<<<[ \t]*{VALUE}"), ANY_GROUP).form(Form::Flag),
        format(
            K::Password,
            r#"(?i)\bConvertTo-SecureString[ \t]+(?:-String[ \t]+)?(?:"([^"\n]{3,})"|'([^'\n]{3,})')[^\n]*-AsPlainText"#,
            ANY_GROUP,
        ),
        // The switches first (`ConvertTo-SecureString -AsPlainText "…" -Force`), or the text
        // piped in (`"…" | ConvertTo-SecureString -AsPlainText`).
        format(
            K::Password,
            r#"(?i)\bConvertTo-SecureString(?:[ \t]+-(?:AsPlainText|Force)\b)+[ \t]+(?:-String[ \t]+)?(?:"([^"\n]{3,})"|'([^'\n]{3,})')"#,
            ANY_GROUP,
        ),
        format(
            K::Password,
            r#"(?i)(?:"([^"\n]{3,})"|'([^'\n]{3,})')[ \t]*\|[ \t]*ConvertTo-SecureString\b[^\n]*-AsPlainText"#,
            ANY_GROUP,
        ),
        // Secret stores' commands: `aws ssm put-parameter … --value …`, `aws secretsmanager
        // create-secret … --secret-string …`, `az keyvault secret set … --value …`, `gh secret
        // set NAME --body …`, a value piped into `gcloud secrets create` (or `versions add`) or into a registry's
        // `login --password-stdin`;
        // an expect script's answer to a password prompt (`expect "password:"; send "…\r"`);
        // Oracle's `user/password@db` (`sqlplus`, `jdbc:oracle:thin:`, `CONNECT`, `conn` at
        // SQL*Plus's prompt, `rman target`, `userid=`).
        format(
            K::Password,
            &format!(
                r#"\b(?:aws[ \t]+ssm[ \t]+put-parameter\b[^\n|;&]*?--type[ \t=]+SecureString\b[^\n|;&]*?[ \t]--value|aws[ \t]+secretsmanager[ \t]+(?:create-secret|put-secret-value|update-secret)\b[^\n|;&]*?[ \t]--secret-string|az[ \t]+keyvault[ \t]+secret[ \t]+set\b[^\n|;&]*?[ \t]--value|gh[ \t]+secret[ \t]+set\b[^\n|;&]*?[ \t](?:--body|-b))[ \t=]+{VALUE}"#
            ),
            ANY_GROUP,
        )
        .form(Form::Flag),
        // `--type SecureString` after the value (a `String` parameter is no secret).
        format(
            K::Password,
            &format!(
                r#"\baws[ \t]+ssm[ \t]+put-parameter\b[^\n|;&]*?[ \t]--value[ \t=]+{VALUE}[^\n|;&]*?--type[ \t=]+SecureString\b"#
            ),
            ANY_GROUP,
        )
        .form(Form::Flag),
        format(
            K::Password,
            &format!(
                r#"\b(?:echo(?:[ \t]+-n)?|printf(?:[ \t]+["']%s["'])?)[ \t]+{VALUE}[ \t]*\|[ \t]*(?:gcloud[ \t]+secrets[ \t]+(?:create|versions[ \t]+add)|docker[ \t]+secret[ \t]+create|(?:sudo[ \t]+)?(?:docker|podman|nerdctl|buildah|skopeo|oras|crane|helm[ \t]+registry)[ \t]+login\b[^\n|;&]*?--password-stdin)\b"#
            ),
            ANY_GROUP,
        )
        .form(Form::Flag),
        format(
            K::Password,
            r#"(?i)\bexpect[ \t]+(?:-[a-z]+[ \t]+)?"[^"\n]*(?:pass(?:word|phrase|code)?|pin)[^"\n]*"[\s;}]*send[ \t]+(?:--[ \t]+)?"([^"\n]{3,}?)(?:\\r|\\n)?""#,
            1,
        ),
        format(
            K::Password,
            r#"(?:\b(?i:jdbc:oracle:(?:thin|oci8?):)|\b(?:sqlplus|rman|expdp|impdp|sqlldr)(?:[ \t]+-[A-Za-z]+)*[ \t]+["']?|\brman[ \t]+(?:target|auxiliary|catalog)[ \t]*=?[ \t]*["']?|\b(?:CONNECT|CONN)[ \t]+|(?m:^)[ \t]*(?:SQL>[ \t]*)?(?i:conn(?:ect)?)[ \t]+|\b(?i:userid)[ \t]*=[ \t]*["']?)[A-Za-z0-9_$#.]+/([^@/\s'"]{3,})(?:@|["']?(?:\s|$))"#,
            1,
        )
        .form(Form::Flag),
        // Redis's `AUTH …` at its prompt or for its `default` user (SMTP's `AUTH PLAIN` is none), RabbitMQ's `rabbitmqctl add_user ana …`, KeePass's XML
        // export (`<Key>Password</Key><Value>…</Value>`).
        format(
            K::Password,
            &format!(
                r"(?m)(?:(?:redis|\d{{1,3}}(?:\.\d{{1,3}}){{3}}:\d+)>[ \t]*AUTH[ \t]+(?:default[ \t]+)?|^[ \t]*AUTH[ \t]+default[ \t]+){VALUE}[ \t]*$"
            ),
            ANY_GROUP,
        )
        .form(Form::Flag),
        format(
            K::Password,
            &format!(r"\brabbitmqctl[ \t]+(?:add_user|change_password)[ \t]+\S+[ \t]+{VALUE}"),
            ANY_GROUP,
        )
        .form(Form::Flag),
        format(K::Password, r"<Key>Password</Key>[ \t]*<Value(?:[ \t][^>]*)?>([^<\n]{3,})</Value>", 1),
        // An ADO.NET or ODBC connection string's password in braces (`Password={a;b}`), which
        // is how one holding `;` is written.
        format(K::Password, r"(?i)(?:^|[;\s\x22'])(?:password|pwd)[ \t]*=[ \t]*\{([^{}\n]{3,})\}", 1),
        // Maven's `<password>…</password>`, `.netrc`'s `machine … login … password …` (on
        // one line or several), a `.pgpass` line (`host:port:db:user:password`).
        format(K::Password, r"(?i)<password>([^<\s]{3,})</password>", 1),
        // Other XML elements named so: `<AdminPassword>…</AdminPassword>`, `<Pass>…</Pass>`,
        // `<ApiKey>…</ApiKey>`, `<token>…</token>`, `<ClientSecret>…</ClientSecret>` (a key's
        // value is 20 characters or more: a .NET `<PublicKeyToken>` is 16 hex digits, public).
        format(
            K::Password,
            r"(?i)<(?:[a-z0-9_.:\-]*?(?:password|passwd|passphrase|pwd)|pass|pw)>[ \t]*([^<\s][^<\n]{2,}?)[ \t]*</[a-z0-9_.:\-]+>",
            1,
        ),
        format(
            K::ApiKey,
            r"(?i)<[a-z0-9_.:\-]*?(?:api_?key|access_?key|secret_?key|private_?key|client_?secret|token|secret)>[ \t]*([^<\s]{20,})[ \t]*</[a-z0-9_.:\-]+>",
            1,
        ),
        format(
            K::Password,
            r"\bmachine[ \t]+\S+\s+login[ \t]+\S+\s+password[ \t]+(\S{3,})",
            1,
        ),
        format(
            K::Password,
            r"(?m)^[ \t]*(?:[A-Za-z0-9.\-]*[A-Za-z][A-Za-z0-9.\-]*|\*|\d{1,3}(?:\.\d{1,3}){3}):(?:\d{1,5}|\*):[^:\s]+:[^:\s]+:([^:\s]{3,})[ \t]*$",
            1,
        )
        .form(Form::Pgpass),
        // SQL, in a statement that creates or alters a user, role or login: `ALTER USER ana
        // WITH PASSWORD '…'`, `CREATE USER … IDENTIFIED BY '…'` (or bare, as Oracle takes it),
        // `CREATE ROLE ana LOGIN PASSWORD '…'`; and `SET PASSWORD FOR … = '…'`. "It was
        // identified by 'git bisect'" is no statement.
        format(
            K::Password,
            r#"(?i)\b(?:create|alter)[ \t]+(?:user|role|login)\b[^;]{0,200}?\b(?:(?:(?:encrypted|unencrypted)[ \t]+)?password(?:[ \t]*=)?|identified(?:[ \t]+with[ \t]+\S+)?[ \t]+by)[ \t]+(?:'([^'\n]{3,})'|"([^"\n]{3,})"|([^\s'";:]{3,}))"#,
            ANY_GROUP,
        ),
        format(
            K::Password,
            r#"(?i)\bset[ \t]+password(?:[ \t]+for[ \t]+\S+)?[ \t]*=[ \t]*(?:password[ \t]*\([ \t]*)?(?:'([^'\n]{3,})'|"([^"\n]{3,})")"#,
            ANY_GROUP,
        ),
        // Docker's `config.json` (`"auth": "<base64 of user:password>"`) and npm's `_auth=`.
        format(K::Password, r#""auth"[ \t]*:[ \t]*"([A-Za-z0-9+/]{8,}={0,2})""#, 1).form(Form::Auth),
        format(K::Password, r"(?m):_auth[ \t]*=[ \t]*(\S{8,})", 1).form(Form::Auth),
        format(K::ApiKey, r"(?m):_authToken[ \t]*=[ \t]*(\S{8,})", 1),
    ]
}
