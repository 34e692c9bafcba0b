//! Timestamps for people: local time in the TUI, UTC in tests.

use chrono::{Local, TimeZone, Utc};

/// How times are shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Clock {
    /// The machine's time zone (`TZ`, `/etc/localtime`).
    Local,
    /// UTC (stable snapshots).
    Utc,
}

impl Clock {
    /// `2026-11-22 14:03` for Unix milliseconds.
    pub fn format(self, ms: i64) -> String {
        const FORMAT: &str = "%Y-%m-%d %H:%M";
        match self {
            Self::Local => Local
                .timestamp_millis_opt(ms)
                .single()
                .map_or_else(|| "?".to_owned(), |t| t.format(FORMAT).to_string()),
            Self::Utc => Utc
                .timestamp_millis_opt(ms)
                .single()
                .map_or_else(|| "?".to_owned(), |t| t.format(FORMAT).to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_minutes() {
        assert_eq!(Clock::Utc.format(1_795_000_000_000), "2026-11-18 11:06");
        assert_eq!(Clock::Utc.format(i64::MAX), "?");
    }
}
