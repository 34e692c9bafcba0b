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

/// Unix ms of an RFC 3339 / ISO 8601 time such as `2024-07-20T01:23:45.678-07:00`,
/// `2024-07-20 01:23:45Z` or `2024-07-20`.
///
/// ```
/// use haema_core::parse_time;
/// assert_eq!(parse_time("2024-07-20"), Some(1_721_433_600_000));
/// assert_eq!(parse_time("2024-07-20T01:23:45.678-07:00"), Some(1_721_463_825_678));
/// assert_eq!(parse_time("last week"), None);
/// ```
pub fn parse_time(text: &str) -> Option<i64> {
    let t = text.trim();
    let num = |s: &str| s.parse::<i64>().ok();
    let (year, month, day) = (num(t.get(0..4)?)?, num(t.get(5..7)?)?, num(t.get(8..10)?)?);
    if t.get(4..5)? != "-" || t.get(7..8)? != "-" || !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    let (mut secs, mut rest) = (0i64, t.get(10..).unwrap_or(""));
    if let Some(time) = rest.strip_prefix('T').or_else(|| rest.strip_prefix(' ')) {
        let (h, m, s) = (num(time.get(0..2)?)?, num(time.get(3..5)?)?, num(time.get(6..8)?)?);
        secs = h * 3600 + m * 60 + s;
        rest = time.get(8..).unwrap_or("");
    }
    let mut millis = 0;
    if let Some(fraction) = rest.strip_prefix('.') {
        let digits: String = fraction.chars().take_while(char::is_ascii_digit).collect();
        millis = num(&format!("{:0<3}", &digits[..digits.len().min(3)])).unwrap_or(0);
        rest = &fraction[digits.len()..];
    }
    let offset = match rest {
        "" | "Z" | "z" => 0,
        zone => {
            let sign = match zone.get(0..1)? {
                "+" => 1,
                "-" => -1,
                _ => return None,
            };
            sign * (num(zone.get(1..3)?)? * 3600 + num(zone.get(4..6)?)? * 60)
        }
    };
    // Days from civil (Howard Hinnant's algorithm).
    let (y, m) = if month <= 2 {
        (year - 1, month + 9)
    } else {
        (year, month - 3)
    };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * m + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some((days * 86_400 + secs - offset) * 1000 + millis)
}

/// Wall-clock time in Unix ms.
pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
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

    #[test]
    fn times_parse_with_zones_and_fractions() {
        assert_eq!(parse_time("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(parse_time("2026-02-23T02:39:17Z"), Some(1_771_814_357_000));
        assert_eq!(parse_time("2026-02-23T11:39:17.250+09:00"), Some(1_771_814_357_250));
        assert_eq!(parse_time("2026-02-22 19:39:17-07:00"), Some(1_771_814_357_000));
        assert_eq!(parse_time("2000-02-29"), Some(951_782_400_000));
        assert_eq!(parse_time("yesterday"), None);
        assert_eq!(parse_time("2024-13-01"), None);
    }
}
