//! Which texts skip the pre-split call because they already are one short fact.
//!
//! The split step turns a raw text into self-contained items; for a text that is one short
//! statement it can only give the text back, so that call is skipped. The rule is
//! conservative: any sign of more than one fact sends the text to the split step as before.
//! A text skips the split only if all of these hold (after trimming):
//!
//! - one line: no line break (`\n`, `\r`, U+2028, U+2029) and no tab;
//! - short: at most [`MAX_SHORT_FACT_WIDTH`] columns, where a wide character (Hangul,
//!   kana, CJK ideographs, full-width forms) counts two, so about 25 English words or 75
//!   Korean/Chinese/Japanese characters (HAEMA 0.1.0 treated 220 characters or more as long
//!   enough to hold several facts);
//! - one sentence: no `.`, `!`, `…` (or `。`, `！`, `．`) followed by more text, except after a
//!   short title or initial (`Mr.`, `Dr.`, `J.`) or inside a number (`3.5`);
//! - not a question: no `?` or `？` (a question is not a fact to keep; the split step decides);
//! - not a list: it does not start with a list marker (`-`, `*`, `•`, `1.`, `1)`…) and has
//!   no `;`, `•`, `·`, `|`, or a colon followed by a space (`Shopping: milk, eggs`);
//! - not joined: no English coordinating word that often joins two facts (`and`, `but`,
//!   `or`, `also`, `plus`, `while`, `whereas`, `then`). Other languages rely on the sentence
//!   rule, and the reconstruction step still splits an item that holds independent facts.

/// Longest text (in columns, wide characters count two) that can skip the split step.
pub(crate) const MAX_SHORT_FACT_WIDTH: usize = 150;

const JOINING_WORDS: [&str; 8] = ["and", "but", "or", "also", "plus", "while", "whereas", "then"];
const ABBREVIATIONS: [&str; 10] = ["mr", "mrs", "ms", "dr", "prof", "st", "jr", "sr", "mt", "vs"];

/// Whether `text` is one short fact that needs no split call (see the module docs).
pub(crate) fn is_one_short_fact(text: &str) -> bool {
    let text = text.trim();
    !text.is_empty()
        && width(text) <= MAX_SHORT_FACT_WIDTH
        && !text.contains(['\n', '\r', '\t', '\u{2028}', '\u{2029}'])
        && !text.contains(['?', '？', ';', '；', '•', '·', '|'])
        && !text.contains(": ")
        && !text.contains('：')
        && !starts_with_list_marker(text)
        && sentence_count(text) == 1
        && !has_joining_word(text)
}

/// Columns: wide characters (Hangul, kana, CJK, full-width forms) count two.
fn width(text: &str) -> usize {
    text.chars().map(|c| if is_wide(c) { 2 } else { 1 }).sum()
}

fn is_wide(c: char) -> bool {
    matches!(u32::from(c),
        0x1100..=0x115F | 0x2E80..=0x303E | 0x3041..=0x33FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF
        | 0xA960..=0xA97F | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF | 0xFE30..=0xFE4F | 0xFF00..=0xFF60
        | 0xFFE0..=0xFFE6 | 0x20000..=0x3FFFD)
}

fn starts_with_list_marker(text: &str) -> bool {
    if text.starts_with(['-', '*', '+', '•', '·', '–', '—', '>', '#']) {
        return true;
    }
    let digits = text.chars().take_while(char::is_ascii_digit).count();
    let rest = &text[digits..];
    digits > 0 && (rest.starts_with(". ") || rest.starts_with(") "))
}

/// Sentences in `text`: a terminator followed by more text starts a new one.
fn sentence_count(text: &str) -> usize {
    let chars: Vec<char> = text.chars().collect();
    let mut count = 1;
    for (i, &c) in chars.iter().enumerate() {
        let wide_stop = matches!(c, '。' | '！' | '．');
        if !(wide_stop || matches!(c, '.' | '!' | '…')) {
            continue;
        }
        let rest = &chars[i + 1..];
        // Terminators in a row ("...", "!!", ".)") end one sentence once.
        if rest
            .first()
            .is_some_and(|n| matches!(n, '.' | '!' | '…' | '。' | '！' | '．'))
        {
            continue;
        }
        let more_text = rest.iter().any(|c| c.is_alphanumeric());
        if !more_text {
            continue;
        }
        let spaced = rest
            .first()
            .is_some_and(|n| n.is_whitespace() || matches!(n, '"' | '\'' | ')' | '”' | '’'));
        if wide_stop || (spaced && !ends_with_abbreviation(&chars[..i])) {
            count += 1;
        }
    }
    count
}

/// Whether the word before a `.` is a title or an initial (`Mr`, `J`), not a sentence end.
fn ends_with_abbreviation(before: &[char]) -> bool {
    let word: String = before
        .iter()
        .rev()
        .take_while(|c| c.is_alphabetic())
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    let single_initial = word.chars().count() == 1 && word.chars().all(char::is_uppercase);
    single_initial || ABBREVIATIONS.contains(&word.to_lowercase().as_str())
}

fn has_joining_word(text: &str) -> bool {
    text.split(|c: char| !c.is_alphanumeric())
        .any(|w| JOINING_WORDS.iter().any(|j| w.eq_ignore_ascii_case(j)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_short_statement_skips_the_split() {
        for text in [
            "Mina is allergic to peanuts.",
            "  Mina dislikes video calls before noon  ",
            "Mina's teacher, Mr. Lee, gives lessons on Fridays at 16:00.",
            "Mina's flight to Vienna for the masterclass leaves on 14 January.",
            "The concert lasts 2.5 hours",
            "J. K. Rowling is Mina's favourite author.",
            "Mina is preparing the Dvořák cello concerto for a March concert.",
            "Great news!",
            "서울 사무실 주소는 비서에게만 알려 주세요.",
            "사용자는 녹차를 좋아한다 🍵",
            "東京に住んでいる。",
            "Mina trinkt grünen Tee ohne Zucker.",
            "L'utilisatrice préfère les réponses courtes.",
        ] {
            assert!(is_one_short_fact(text), "should skip the split: {text:?}");
        }
    }

    #[test]
    fn anything_that_may_hold_more_than_one_fact_is_split() {
        let long = "Mina keeps a detailed practice journal in which she writes down the tempos, fingerings, bowings, the pieces she worked on each morning, how long she practised";
        assert!(long.chars().count() > MAX_SHORT_FACT_WIDTH);
        let long_korean = "민아는 매일 아침 일곱 시부터 아홉 시까지 첼로를 연습하며 연습 일지에 템포와 운지법을 꼼꼼하게 적어 두고 주말에는 한강을 따라 달리기를 하고 금요일 오후에는 이 선생님에게 레슨을 받는다";
        assert!(long_korean.chars().count() < MAX_SHORT_FACT_WIDTH && width(long_korean) > MAX_SHORT_FACT_WIDTH);
        for text in [
            "",
            "   ",
            "I'm 31. I have a dog.",
            "Mina moved to Seoul! Her sister is happy.",
            "Mina is busy... She practises a lot.",
            "- Mina likes tea",
            "* tea\n* coffee",
            "1. Buy strings",
            "2) Call Mr. Lee",
            "Mina likes tea\nMina hates coffee",
            "Shopping list: strings, rosin, a metronome",
            "Mina likes tea; Ana likes coffee",
            "tea • coffee",
            "What time is the concert?",
            "콘서트는 몇 시야？",
            "I like green tea and I live in Busan",
            "Mina runs on Sundays but not in winter",
            "Mina drinks black coffee in the morning now, and green tea without sugar after lunch.",
            "저는 서울에 삽니다. 고양이가 두 마리 있어요.",
            "私は東京に住んでいます。猫を二匹飼っています。",
            long,
            long_korean,
        ] {
            assert!(!is_one_short_fact(text), "should be split: {text:?}");
        }
    }
}
