//! Passwords and tokens that tools print or are given to join something: MySQL's first
//! start (`A temporary password is generated for root@localhost: …`), Jenkins' unlock
//! (`Please use the following password to proceed to installation:` and the hex on a later
//! line), Elasticsearch's setup (`PASSWORD elastic = …`) and reset (`New value: …`), and a
//! join or registration token on a command line (`kubeadm join --token …`, `k3s agent
//! --token …`, `gitlab-runner register --registration-token …`, `vault login …`).

use super::{Format, format};
use crate::secrets::SecretKind as K;

/// The printed and command-line formats.
pub(super) fn formats() -> Vec<Format> {
    vec![
        format(
            K::Password,
            r"(?i)\btemporary password is generated for \S+?:[ \t]*(\S+)",
            1,
        ),
        format(
            K::Password,
            r"(?i)\bto proceed to installation:[ \t]*(?:\r?\n[ \t]*)+([0-9a-f]{32})\b",
            1,
        ),
        format(
            K::Password,
            r"(?m)^[ \t]*PASSWORD[ \t]+(?:elastic|kibana(?:_system)?|apm_system|logstash_system|beats_system|remote_monitoring_user)[ \t]+=[ \t]+(\S+)",
            1,
        ),
        format(
            K::Password,
            r"(?i)\buser successfully reset\.?[ \t]*\r?\n[ \t]*New value:[ \t]*(\S+)",
            1,
        ),
        format(
            K::ApiKey,
            r#"--(?:registration-|join-|bootstrap-)?token[ \t=]+["']?([A-Za-z0-9][\w.:~+/-]{15,})"#,
            1,
        ),
        format(
            K::ApiKey,
            r"\bvault[ \t]+login[ \t]+(?:-\S+[ \t]+)*([A-Za-z0-9][\w.-]{15,})",
            1,
        ),
    ]
}
