/// Every command the front end may call (one `allow-<name>` permission each).
pub const COMMANDS: &[&str] = &[
    "app_status",
    "open_store",
    "latest",
    "pending",
    "approve",
    "approve_edited",
    "reject",
    "revert",
    "history",
    "core",
    "set_section",
    "set_lock",
    "core_versions",
    "restore_version",
];
