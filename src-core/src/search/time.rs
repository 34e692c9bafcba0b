//! Times a query names ("in May 2023", "on 13 October, 2023", "October 13, 2023", "in June",
//! "in 2022", "2023-05-08"), so that search can prefer memories from then.
//!
//! A memory's time is when it was learned; a question about what happened "in May 2023"
//! is best answered by what was learned then. Only absolute dates are read: "yesterday"
//! or "last week" name a time relative to when the memory was written, which the query does
//! not know.

/// How far (days) from a named day a memory still counts as "then": people date an event by
/// the day they talk about it, give or take a few days.
const DAY_SLACK_DAYS: i64 = 3;
const DAY_MS: i64 = 86_400_000;

/// A time named in a query: a year, a month (of a year, or of any year), or a day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TimeSpan {
    /// A calendar year.
    Year(i64),
    /// A month of a given year, or of any year.
    Month(Option<i64>, u32),
    /// A day (Unix ms of its midnight, UTC).
    Day(i64),
}

impl TimeSpan {
    /// Whether a memory learned at `ms` (Unix ms) falls in this span.
    pub(crate) fn contains(self, ms: i64) -> bool {
        let (year, month, _) = crate::types::civil_date(ms);
        match self {
            Self::Year(y) => year == y,
            Self::Month(y, m) => month == m && y.is_none_or(|y| y == year),
            Self::Day(midnight) => {
                ms >= midnight - DAY_SLACK_DAYS * DAY_MS && ms < midnight + (DAY_SLACK_DAYS + 1) * DAY_MS
            }
        }
    }
}

/// The times `query` names, in order of appearance.
pub(crate) fn spans(query: &str) -> Vec<TimeSpan> {
    let tokens: Vec<&str> = query
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .filter(|t| !t.is_empty())
        .collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let token = tokens[i];
        if let Some(ms) = crate::types::parse_time(token).filter(|_| token.len() == 10) {
            found.push(TimeSpan::Day(ms));
            i += 1;
            continue;
        }
        let token = token.trim_matches('-');
        if let Some(month) = month_of(&tokens, i) {
            // "13 October 2023" / "October 13, 2023" / "October 2023" / "October".
            // "13 October" or "the 13th of October".
            let of = i.checked_sub(1).is_some_and(|j| tokens[j].eq_ignore_ascii_case("of"));
            let day_before = i.checked_sub(1 + usize::from(of)).and_then(|j| day_of(tokens[j]));
            let day_after = tokens.get(i + 1).and_then(|t| day_of(t));
            let day = day_before.or(day_after);
            let year_at = i + 1 + usize::from(day_after.is_some());
            let year = tokens.get(year_at).and_then(|t| year_of(t));
            let midnight = year
                .zip(day)
                .and_then(|(y, d)| crate::types::parse_time(&format!("{y:04}-{month:02}-{d:02}")));
            found.push(match midnight {
                Some(ms) => TimeSpan::Day(ms),
                None => TimeSpan::Month(year, month),
            });
            i = if year.is_some() { year_at + 1 } else { i + 1 };
            continue;
        }
        if let Some(year) = year_of(token) {
            found.push(TimeSpan::Year(year));
        }
        i += 1;
    }
    found
}

/// The month named by token `i`: a full English month name (or `Sept`); `may` only next to
/// a day or year number or after `in`/`of`/`early`/`late`/`mid`, since it is also a verb.
fn month_of(tokens: &[&str], i: usize) -> Option<u32> {
    let token = tokens[i];
    let lower = token.to_ascii_lowercase();
    if lower.len() < 4 && lower != "may" {
        return None;
    }
    let month = if lower == "sept" {
        Some(9)
    } else {
        month_number(&lower).filter(|_| lower.len() > 3 || lower == "may")
    }?;
    if lower == "may" {
        let before = i.checked_sub(1).map(|j| tokens[j].to_ascii_lowercase());
        let near_number = before.as_deref().and_then(day_of).is_some()
            || tokens
                .get(i + 1)
                .is_some_and(|t| day_of(t).is_some() || year_of(t).is_some());
        let after_word = matches!(before.as_deref(), Some("in" | "of" | "early" | "late" | "mid"));
        if !near_number && !after_word {
            return None;
        }
    }
    Some(month)
}

/// A day of the month: `13`, `13th`, `1st`.
fn day_of(token: &str) -> Option<u32> {
    let digits = token
        .strip_suffix("st")
        .or_else(|| token.strip_suffix("nd"))
        .or_else(|| token.strip_suffix("rd"))
        .or_else(|| token.strip_suffix("th"))
        .unwrap_or(token);
    (digits.len() <= 2)
        .then(|| digits.parse::<u32>().ok())
        .flatten()
        .filter(|d| (1..=31).contains(d))
}

/// A year from 1900 to 2199.
fn year_of(token: &str) -> Option<i64> {
    (token.len() == 4)
        .then(|| token.parse::<i64>().ok())
        .flatten()
        .filter(|y| (1900..2200).contains(y))
}

/// 1–12 for an English month name or its three-letter abbreviation.
pub(crate) fn month_number(name: &str) -> Option<u32> {
    const MONTHS: [&str; 12] = [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ];
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    MONTHS
        .iter()
        .position(|m| *m == name || (name.len() == 3 && m.starts_with(&name)))
        .and_then(|i| u32::try_from(i + 1).ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::parse_time;

    fn day(text: &str) -> TimeSpan {
        TimeSpan::Day(parse_time(text).unwrap())
    }

    #[test]
    fn dates_in_questions() {
        assert_eq!(
            spans("What setback did Melanie face in October 2023?"),
            [TimeSpan::Month(Some(2023), 10)]
        );
        assert_eq!(
            spans("What painting did Mel show on October 13, 2023?"),
            [day("2023-10-13")]
        );
        assert_eq!(spans("What did Gina find on 1 February, 2023?"), [day("2023-02-01")]);
        assert_eq!(spans("the week before the 3rd of August 2023"), [day("2023-08-03")]);
        assert_eq!(
            spans("When did Melanie go camping in June?"),
            [TimeSpan::Month(None, 6)]
        );
        assert_eq!(spans("How many times at the beach in 2023?"), [TimeSpan::Year(2023)]);
        assert_eq!(spans("What was logged on 2024-02-29?"), [day("2024-02-29")]);
        assert_eq!(
            spans("Who did Maria have dinner with on May 3, 2023?"),
            [day("2023-05-03")]
        );
        assert_eq!(spans("What did she do in May?"), [TimeSpan::Month(None, 5)]);
        assert!(spans("May I ask what you may like?").is_empty());
        assert!(spans("What did Caroline research? 42 marches").is_empty());
    }

    #[test]
    fn spans_contain_their_times() {
        let t = |s: &str| parse_time(s).unwrap();
        assert!(TimeSpan::Year(2023).contains(t("2023-12-31T23:59:59Z")));
        assert!(!TimeSpan::Year(2023).contains(t("2024-01-01")));
        assert!(TimeSpan::Month(None, 6).contains(t("2019-06-30T12:00:00Z")));
        assert!(TimeSpan::Month(Some(2023), 6).contains(t("2023-06-01")));
        assert!(!TimeSpan::Month(Some(2023), 6).contains(t("2022-06-01")));
        let d = day("2023-08-03");
        assert!(d.contains(t("2023-08-03T18:20:00Z")));
        assert!(d.contains(t("2023-07-31")) && d.contains(t("2023-08-06T23:00:00Z")));
        assert!(!d.contains(t("2023-07-30T23:00:00Z")) && !d.contains(t("2023-08-07")));
        assert_eq!(crate::types::civil_date(t("2000-02-29T10:00:00Z")), (2000, 2, 29));
        assert_eq!(crate::types::civil_date(t("1969-12-31T23:00:00Z")), (1969, 12, 31));
    }
}
