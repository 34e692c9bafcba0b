//! Vendors' tokens and keys, known by their form (`ghp_…`, `AKIA…`, `hf_…`), and keys
//! known by the name they are given (`api_key=`, `JWT_SECRET=`, `Authorization: Bearer`).

use super::{ANY_GROUP, Format, KEY_VALUE, format};
use crate::secrets::SecretKind;

/// The formats of vendors' tokens, the most specific first.
pub(super) fn formats() -> Vec<Format> {
    use SecretKind as K;
    vec![
        // Mailgun's old API keys (`key-` and 32 hex digits) and an authenticator's seed
        // (`TOTP secret: JBSWY3DPEHPK3PXP`, base32).
        format(K::ApiKey, r"\bkey-[0-9a-f]{32}\b", 0),
        // The seed as sites show it: in groups of four, upper or lower case, after "TOTP:",
        // "2FA secret for GitHub:", "Authenticator setup key", "the 2FA seed … is", "Okta
        // Verify secret …", "the manual entry code for 2FA was …", `pyotp.TOTP("…")`.
        format(
            K::OtpSeed,
            r"(?i:\b(?:(?:totp|2fa|mfa|otp|two[- ]factor|authenticator)(?:[ \t]+(?:setup[ \t]+)?(?:seed|secret|key))?|(?:setup|verify)[ \t]+(?:key|secret)|manual[ \t]+entry[ \t]+(?:code|key))(?:[ \t]+for[ \t]+(?:[\w.\-]+[ \t]+){0,3}?[\w.\-]+)?(?:[ \t]*\([^)\n]{1,40}\))?)(?:[ \t]*[:=][ \t]*|[ \t]+(?:is|was)[ \t]+|[ \t]+)([A-Z2-7]{16,64}|[a-z2-7]{16,64}|[A-Z2-7]{4}(?:[ -][A-Z2-7]{4}){3,15}|[a-z2-7]{4}(?:[ -][a-z2-7]{4}){3,15})\b",
            1,
        ),
        format(K::OtpSeed, r#"\bTOTP\([ \t]*["']([A-Z2-7]{16,64})["']"#, 1),
        // A PEM private key, to its END line; when it is cut (no END line), its base64 lines
        // up to the first blank line or other character (a heading, a bracket): what follows
        // a cut key is never swallowed.
        format(
            K::PrivateKey,
            r"-----BEGIN[ A-Z0-9]{0,30}PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END[ A-Z0-9]{0,30}PRIVATE KEY(?: BLOCK)?-----|(?:[ \t]*\r?\n?[ \t]*[A-Za-z0-9+/=]+)*)",
            0,
        ),
        // A JSON-encoded service-account file names its key's id.
        format(K::PrivateKey, r#""private_key_id"\s*:\s*"([0-9a-fA-F]{16,})""#, 1),
        format(
            K::AwsAccessKey,
            r"\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b",
            0,
        ),
        format(
            K::AwsSecretKey,
            r#"(?i)\baws_?(?:secret_?(?:access_?)?key|secret)\b["']?\s*[:=]\s*["']?([A-Za-z0-9/+]{40})\b"#,
            1,
        ),
        format(K::GoogleApiKey, r"\bAIza[0-9A-Za-z_\-]{35}", 0),
        format(
            K::GithubToken,
            r"\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})",
            0,
        ),
        format(K::GitlabToken, r"\bgl(?:pat|dt|ptt|rt)-[A-Za-z0-9_\-]{20,}", 0),
        format(
            K::SlackWebhook,
            r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/]{20,}",
            0,
        ),
        format(K::SlackToken, r"\bxox[abposr]-[A-Za-z0-9-]{10,}", 0),
        format(
            K::DiscordWebhook,
            r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_\-]{20,}",
            0,
        ),
        format(
            K::DiscordToken,
            r"\b[MNO][A-Za-z0-9_\-]{23,27}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,40}\b",
            0,
        ),
        // Alone, or in a bot's URL (`https://api.telegram.org/bot<token>/sendMessage`).
        format(K::TelegramToken, r"(?:\b|bot)(\d{8,10}:AA[A-Za-z0-9_\-]{32,33})\b", 1),
        format(K::AnthropicKey, r"\bsk-ant-[A-Za-z0-9_\-]{20,}", 0),
        // A publishable key (`pk_live_`) is public: it is given to every browser.
        format(K::StripeKey, r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}", 0),
        format(
            K::OpenaiKey,
            r"\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_\-]{20,}",
            0,
        ),
        format(
            K::Jwt,
            r"\beyJ[A-Za-z0-9_\-]{5,}\.eyJ[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]{10,}",
            0,
        ),
        format(
            K::AzureKey,
            r"(?i)\b(?:AccountKey|SharedAccessKey|SharedAccessSignature)=([A-Za-z0-9+/=%]{20,})",
            1,
        ),
        // Hugging Face: a user token (`hf_` and 34 letters or digits) or an organisation's
        // (`api_org_`).
        format(K::HuggingfaceToken, r"\b(?:hf|api_org)_[A-Za-z0-9]{34}\b", 0),
        format(K::HaemaAgentKey, r"\bhaema_ak_[A-Za-z0-9]{40}\b", 0),
        // Tokens whose bodies are hex or upper case, which the random-token screen leaves
        // alone: Databricks, Pulumi, Supabase, New Relic, Mailchimp, ElevenLabs, LangSmith,
        // Firecrawl, Perplexity; IFTTT's webhook key; an Azure DevOps PAT under its name.
        format(
            K::ApiKey,
            r"\b(?:dapi[0-9a-f]{32}(?:-\d+)?|pul-[0-9a-f]{40}|sbp_[0-9a-f]{40}|NR(?:AK|JS|II|AA)-[A-Z0-9]{20,}|[0-9a-f]{32}-us\d{1,2}|sk_[0-9a-f]{40,64}|lsv2_(?:pt|sk)_[0-9a-f]{32}_[0-9a-f]{10}|fc-[0-9a-f]{32}|pplx-[A-Za-z0-9]{40,})\b",
            0,
        ),
        // More vendors' formats with hex or upper-case bodies, or parts the random-token
        // screen would cut: Buildkite, Sourcegraph, Shippo, GitLab OAuth secrets,
        // DigitalOcean OAuth, Dynatrace, HubSpot, Airtable, Mapbox's secret tokens, Twitch's
        // chat token, Asana, NuGet, an LND macaroon in hex.
        format(
            K::ApiKey,
            r"\b(?:bkua_[0-9a-f]{40}|sgp_(?:[0-9a-f]{16}_)?[0-9a-f]{40}|shippo_(?:live|test)_[0-9a-f]{40}|gloas-[0-9a-f]{64}|do[opr]_v1_[0-9a-f]{64}|dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{56,}|pat-(?:na|eu|ap)\d-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|pat[A-Za-z0-9]{14}\.[0-9a-f]{64}|sk\.eyJ[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]{20,}|oauth:[a-z0-9]{30}|\d/\d{13,16}/\d{13,16}:[0-9a-f]{32}|oy2[a-z0-9]{43}|0201036c6e64[0-9a-f]{60,}|dckr_pat_[A-Za-z0-9_\-]{20,}|[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8}|sdk-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b",
            0,
        ),
        // Webhooks whose URL is the secret: Zapier, Mattermost, Airtable.
        format(
            K::ApiKey,
            r"https://(?:hooks\.zapier\.com/hooks/catch/\d+/[A-Za-z0-9]+|[\w.-]+/hooks/[a-z0-9]{26}|hooks\.airtable\.com/workflows/v1/genericWebhook/[A-Za-z0-9/]{20,})/?",
            0,
        ),
        format(
            K::ApiKey,
            r"https://maker\.ifttt\.com/(?:trigger/[^/\s]+/(?:json/)?with/key|use)/([A-Za-z0-9_\-]{16,})",
            1,
        ),
        format(
            K::ApiKey,
            r#"(?:\bPAT|\b[A-Za-z0-9_]*_PAT|\b(?i:personal access token))\b["']?(?:[ \t]*[:=][ \t]*|[ \t]+is[ \t]+)["']?([a-z0-9]{52})\b"#,
            1,
        ),
        // A vendor's key in hex after its name: with `:` or "is", or ending its line ("Deepgram
        // key 7f3e…"; a cache's "key 5d41… expired" goes on). Not a GPG, SSH or public key, a
        // fingerprint or a cache's key (`values::NOT_A_SECRET_KEY`). And `wandb login …`.
        format(
            K::ApiKey,
            r"(?m)\b(?:[A-Z][A-Za-z0-9]+|[a-z][a-z0-9]+)[ \t]+(?:api[ \t]+)?(?:key|secret|token)(?:(?:[ \t]*[:=][ \t]*|[ \t]+is[ \t]+)([0-9a-f]{32,64}|[0-9A-F]{32,64})\b|[ \t]+([0-9a-f]{32,64}|[0-9A-F]{32,64})[ \t]*[.!]?[ \t]*$)",
            ANY_GROUP,
        ),
        format(
            K::ApiKey,
            r"\bwandb[ \t]+login(?:[ \t]+--\S+)*[ \t]+([0-9a-f]{40})\b",
            1,
        ),
        // "The key for the weather API is …"; OpenWeatherMap's `appid=`; SonarQube's and Sentry's
        // tokens (`squ_`, `sntryu_`) and `-Dsonar.login=`.
        format(
            K::ApiKey,
            r#"(?im)\bkey[ \t]+for[ \t]+(?:[\w.\-]+[ \t]+){0,3}[\w.\-]+[ \t]+is[ \t]+["']?([A-Za-z0-9+/=\-]{16,})["']?(?:[ \t]*$|[ \t]*[.,;!)](?:[ \t]|$)|[ \t]+)"#,
            1,
        ),
        format(K::ApiKey, r"[?&]appid=([0-9a-f]{32})\b", 1),
        format(K::ApiKey, r"\b(?:sq[upa]_[0-9a-f]{40}|sntry[us]_[0-9a-f]{64})\b", 0),
        format(K::ApiKey, r"-Dsonar\.(?:login|token)=([A-Za-z0-9_]{16,})", 1),
        // A JWT's signing secret in code: `jwt.verify(token, '…')`, `JWT.encode(payload, '…')`,
        // Go's `SignedString([]byte("…"))`, Java's `signWith(SignatureAlgorithm.HS256, "…")`.
        format(
            K::ApiKey,
            r#"(?:\b(?i:jwt)\.(?:encode|sign|verify|decode)\([^,()\n]+,|\bSignedString\([ \t]*\[\]byte\(|\bsignWith\([^,()\n]+,)[ \t]*(?:"([^"\n]{8,})"|'([^'\n]{8,})')"#,
            ANY_GROUP,
        ),
        format(K::ApiKey, r"(?i)\bcookie:[^\n]*?\bsession=([A-Za-z0-9%._\-]{16,})", 1),
        // A session's cookie: in a `Cookie:` header, or a session id's name given its value
        // (not a link's `?session=keynote-2024`).
        format(
            K::ApiKey,
            r"(?i)(?:^|[\s;'\x22])(?:session[_-]?id|sessid|phpsessid|jsessionid|asp\.net_sessionid|connect\.sid|laravel_session|remember_token|_[a-z0-9]+_session)=([A-Za-z0-9%._\-]{16,})",
            1,
        ),
        // Keys and salts of WordPress's `wp-config.php`; a signing secret written in code
        // (`jwt.sign(payload, '…')`, `createHmac('sha256', '…')`).
        format(
            K::ApiKey,
            r#"\bdefine\([ \t]*['"](?:AUTH|SECURE_AUTH|LOGGED_IN|NONCE)_(?:KEY|SALT)['"][ \t]*,[ \t]*(?:'([^'\n]{8,})'|"([^"\n]{8,})")"#,
            ANY_GROUP,
        ),
        format(
            K::ApiKey,
            r#"\b(?:jwt\.(?:encode|sign)\([^,()\n]+|createHmac\([ \t]*['"][\w-]+['"])[ \t]*,[ \t]*(?:"([^"\n]{8,})"|'([^'\n]{8,})')"#,
            ANY_GROUP,
        ),
        // Other services' tokens, known by their prefixes: npm, PyPI, Slack apps, webhook
        // signing secrets, Google OAuth client secrets and access tokens, SendGrid, Groq,
        // Linear, Notion, DigitalOcean, Shopify, Grafana, RubyGems.
        format(
            K::ApiKey,
            r"\b(?:npm_[A-Za-z0-9]{36}|pypi-AgE[A-Za-z0-9_\-]{50,}|xapp-\d-[A-Z0-9]{6,}-\d{6,}-[a-f0-9]{32,}|whsec_[A-Za-z0-9+/]{24,}={0,2}|GOCSPX-[A-Za-z0-9_\-]{24,}|ya29\.[A-Za-z0-9_\-]{20,}|SG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}|gsk_[A-Za-z0-9]{40,}|lin_api_[A-Za-z0-9]{32,}|secret_[A-Za-z0-9]{43}|dop_v1_[a-f0-9]{64}|shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}|glsa_[A-Za-z0-9_]{32,}|rubygems_[0-9a-f]{48})",
            0,
        ),
        // Roblox's session cookie, after its warning or under its name.
        format(
            K::ApiKey,
            r"_\|WARNING:-DO-NOT-SHARE-THIS\.[^|\n]{0,200}\|_([A-Za-z0-9]{40,})",
            1,
        ),
        format(
            K::ApiKey,
            r#"\.ROBLOSECURITY["']?[ \t]*[:=][ \t]*["']?([A-Za-z0-9]{40,})"#,
            1,
        ),
        // A key handed to a call after its quoted name: `os.Setenv("WEATHER_API_KEY", "…")`,
        // `req.Header.Set("X-API-Key", "…")`, `localStorage.setItem("apiKey", "…")`,
        // `.header("Authorization", "Bearer …")`; Rust's `.bearer_auth("…")`.
        format(
            K::ApiKey,
            r#"(?i)["'][\w.:\-]*?(?:api[_.\-]?key|apikey|access[_.\-]?key|auth[_.\-]?token|access[_.\-]?token|secret[_.\-]?key|client[_.\-]?secret|token|secret)["'][ \t]*,[ \t]*(?:"([^"\s]{12,})"|'([^'\s]{12,})')[ \t]*[),]"#,
            ANY_GROUP,
        ),
        format(
            K::ApiKey,
            r#"(?i)["']authorization["'][ \t]*,[ \t]*["'](?:basic|bearer|token)[ \t]+([A-Za-z0-9_\-+/.=:]{8,})["']"#,
            1,
        ),
        format(K::ApiKey, r#"\.bearer_auth\([ \t]*"([^"\s]{8,})"[ \t]*\)"#, 1),
        // .NET settings: `<add key="ApiKey" value="…"/>`.
        format(
            K::ApiKey,
            r#"(?i)\b(?:key|name)=["'][^"'\n]*?(?:api_?key|secret|token)["'][^>\n]*?\bvalue=["']([^"'\s]{12,})["']"#,
            1,
        ),
        // A name/value pair in JSON: `{"key": "api_key", "value": "…"}` (Postman, ECS).
        format(
            K::ApiKey,
            r#"(?i)"(?:name|key|parameterkey)"[ \t]*:[ \t]*"[^"\n]*?(?:api[_\-]?key|apikey|token|secret)[^"\n]*"[ \t]*,[ \t]*"(?:value|parametervalue)"[ \t]*:[ \t]*"([^"\s]{12,})""#,
            1,
        ),
    ]
}

/// Keys known by the name they are given, after every other format.
pub(super) fn named_keys() -> Vec<Format> {
    use SecretKind as K;
    vec![
        // A Kubernetes env entry: `- name: API_TOKEN` then `value: …`.
        format(
            K::ApiKey,
            r#"(?i)\bname:[ \t]*["']?[a-z0-9_.\-]*?(?:secret|token|api_?key)["']?[ \t]*\r?\n[ \t]*value:[ \t]*["']?([A-Za-z0-9_\-+/.=]{12,})"#,
            1,
        ),
        // HTTP authorization: `Authorization: token …`, `Basic …`, `Bearer …`.
        format(
            K::ApiKey,
            r#"(?i)\bauthorization["']?[ \t]*[:=][ \t]*["']?(?:token|basic|bearer|splunk|sso-key|apikey)[ \t]+([A-Za-z0-9_\-+/.=:]{12,})"#,
            1,
        ),
        // `api_key=…` and its kin, also as the end of a name (`SERVICE_API_KEY=`,
        // `ENCRYPTION_KEY=`) or in words ("the api key is …", "client secret: …", "Secret key:
        // <hex>", "The API key for Datadog is …").
        format(
            K::ApiKey,
            &format!(
                r#"(?i)\b[a-z0-9_]*?(?:api[_\- ]?key|apikey|access[_\- ]?token|auth[_\- ]?token|client[_\- ]?secret|(?:secret|encryption|master|private|signing|hmac|license|app|application|admin|aes|jwt|cookie|auth|session|crypto?|cipher|account|storage|write|deploy|server|service|root|subscription)[_\- ]?key|bearer)\b(?:[ \t]+for[ \t]+(?:[\w.\-]+[ \t]+){{0,3}}[\w.\-]+)?(?:[ \t]+(?:string|str|String))?(?:["']?\]?[ \t]*(?::=|<-|[:=])[ \t]*|[ \t]+(?:is|was)[ \t]+|[ \t]*){KEY_VALUE}"#
            ),
            ANY_GROUP,
        ),
        // A name ending in `secret` or `token`, assigned (`SESSION_SECRET=…`, `API_TOKEN: …`),
        // or "the webhook secret is …": the value of `openssl rand -hex 32` is hex, which the
        // random-token screen leaves alone.
        format(
            K::ApiKey,
            &format!(
                r#"(?i)\b[a-z0-9_.\-]*?(?:secret|token|secret_key_base)(?:[ \t]+for[ \t]+(?:[\w.\-]+[ \t]+){{0,3}}[\w.\-]+)?(?:[ \t]+(?:string|str|String))?(?:["']?\]?[ \t]*(?::=|<-|[:=])[ \t]*|[ \t]+is[ \t]+){KEY_VALUE}"#
            ),
            ANY_GROUP,
        ),
    ]
}
