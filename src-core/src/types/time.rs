//! Instants as people read them.

/// `2026-11-22 04:07:31 UTC` for Unix milliseconds.
///
/// ```
/// assert_eq!(haema_core::format_utc(1_795_320_451_250), "2026-11-22 04:07:31 UTC");
/// ```
pub fn format_utc(ms: i64) -> String {
    let rem = ms.div_euclid(1000).rem_euclid(86_400);
    let (year, month, day) = civil_date(ms);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// `2026-11-22T04:07:31.250Z` for Unix milliseconds: ISO 8601 in UTC, as HAEMA writes a
/// memory's `timestamp`.
///
/// ```
/// assert_eq!(haema_core::iso_utc(1_795_320_451_250), "2026-11-22T04:07:31.250Z");
/// ```
pub fn iso_utc(ms: i64) -> String {
    let rem = ms.div_euclid(1000).rem_euclid(86_400);
    let (year, month, day) = civil_date(ms);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        ms.rem_euclid(1000)
    )
}

/// (year, month, day) of Unix ms, UTC: the civil date from days since 1970-01-01 (Howard
/// Hinnant's `civil_from_days`).
pub(crate) fn civil_date(ms: i64) -> (i64, u32, u32) {
    let z = ms.div_euclid(86_400_000) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, u32::try_from(month).unwrap_or(1), u32::try_from(day).unwrap_or(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_formats_known_instants() {
        assert_eq!(format_utc(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(format_utc(1_771_814_357_000), "2026-02-23 02:39:17 UTC");
        assert_eq!(format_utc(951_782_400_000), "2000-02-29 00:00:00 UTC");
    }
}
