/// Every command the front end may call (one `allow-<name>` permission each).
pub const COMMANDS: &[&str] = &["app_status", "open_store", "latest"];
