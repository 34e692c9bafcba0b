//! Invisible characters: which ones hide text, and the text without them.
//!
//! Zero-width characters slipped between letters ("ig\u{200B}nore") defeat word matching,
//! bidi controls reorder what a person sees against what a model reads, and Unicode tag
//! characters (U+E0000–U+E007F) or a run of variation selectors carry whole hidden
//! messages. Joiners and variation selectors are also part of emoji and of Indic, Arabic and
//! Persian writing: there, beside a non-ASCII character, they are kept.

/// Terminal controls (C0 but tab and line ends, DEL, C1): an escape sequence in memory text
/// could retitle or clear the terminal that prints it, or hide text from the person reading.
fn is_terminal_control(c: char) -> bool {
    c.is_control() && !matches!(c, '\t' | '\n' | '\r')
}

/// Characters that hide or reorder text wherever they are: the format controls and the
/// rest of Unicode's default-ignorable code points (which render as nothing), but the
/// joiners and variation selectors below, which writing systems need.
fn always_hidden(c: char) -> bool {
    is_terminal_control(c)
        || matches!(c,
            '\u{200B}'                      // zero-width space
            | '\u{200E}' | '\u{200F}'       // left-to-right and right-to-left marks
            | '\u{202A}'..='\u{202E}'       // bidi embeddings and overrides
            | '\u{2060}'..='\u{206F}'       // word joiner, invisible operators, bidi isolates, deprecated controls
            | '\u{FEFF}'                    // zero-width no-break space (byte-order mark)
            | '\u{061C}'                    // Arabic letter mark
            | '\u{180E}'                    // Mongolian vowel separator
            | '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}' // Hangul fillers (blank "letters")
            | '\u{17B4}' | '\u{17B5}'       // Khmer inherent vowels (deprecated, invisible)
            | '\u{FFF0}'..='\u{FFFB}'       // unassigned ignorables, interlinear annotation controls
            | '\u{13430}'..='\u{1343F}'     // Egyptian hieroglyph format controls
            | '\u{1BCA0}'..='\u{1BCA3}'     // shorthand format controls
            | '\u{1D173}'..='\u{1D17A}'     // musical symbol format controls
            | '\u{E0000}'..='\u{E00FF}'     // tag characters ("ASCII smuggling") and their block
            | '\u{E01F0}'..='\u{E0FFF}'     // the rest of the ignorable plane-14 range
        )
}

fn is_tag(c: char) -> bool {
    matches!(c, '\u{E0000}'..='\u{E007F}')
}

/// Whether the tag character at `i` belongs to a subdivision flag (🏴 then two to six tag
/// letters or digits and the cancel tag: Scotland, Wales, England): the only tag sequence
/// emoji use. Any other run of tags is a hidden message.
fn in_flag_sequence(chars: &[char], i: usize) -> bool {
    let mut start = i;
    while start > 0 && is_tag(chars[start - 1]) {
        start -= 1;
    }
    let mut end = i;
    while end + 1 < chars.len() && is_tag(chars[end + 1]) {
        end += 1;
    }
    let run = &chars[start..=end];
    let Some((cancel, letters)) = run.split_last() else {
        return false;
    };
    start > 0
        && chars[start - 1] == '\u{1F3F4}'
        && *cancel == '\u{E007F}'
        && (2..=6).contains(&letters.len())
        && letters
            .iter()
            .all(|c| matches!(c, '\u{E0030}'..='\u{E0039}' | '\u{E0061}'..='\u{E007A}'))
}

fn is_variation_selector(c: char) -> bool {
    matches!(c, '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}' | '\u{180B}'..='\u{180D}' | '\u{180F}')
}

/// Zero-width non-joiner, zero-width joiner, the soft hyphen and the combining grapheme
/// joiner.
fn is_joiner(c: char) -> bool {
    matches!(c, '\u{200C}' | '\u{200D}' | '\u{00AD}' | '\u{034F}')
}

/// Any character of the classes above, hiding text or not.
pub(crate) fn is_invisible(c: char) -> bool {
    always_hidden(c) || is_variation_selector(c) || is_joiner(c)
}

/// Whether `chars[i]` hides text: always for the controls above; a variation selector
/// unless it follows a visible non-ASCII character (an emoji); a joiner unless a visible
/// neighbour is non-ASCII.
fn hides(chars: &[char], i: usize) -> bool {
    let c = chars[i];
    if is_tag(c) {
        return !in_flag_sequence(chars, i);
    }
    if always_hidden(c) {
        return true;
    }
    if is_variation_selector(c) {
        let before = i.checked_sub(1).and_then(|p| chars.get(p));
        // A keycap emoji: a digit, `#` or `*`, the emoji selector, the keycap mark (1️⃣).
        let keycap = c == '\u{FE0F}'
            && before.is_some_and(|p| p.is_ascii_digit() || matches!(p, '#' | '*'))
            && chars.get(i + 1) == Some(&'\u{20E3}');
        return !keycap && !before.is_some_and(|p| !p.is_ascii() && !is_invisible(*p));
    }
    if is_joiner(c) {
        let before = chars[..i].iter().rev().find(|p| !is_invisible(**p));
        let after = chars[i + 1..].iter().find(|p| !is_invisible(**p));
        return !(before.is_some_and(|p| !p.is_ascii()) || after.is_some_and(|p| !p.is_ascii()));
    }
    false
}

/// The text without the characters that hide text, and those characters in order.
pub(crate) fn strip_hidden(text: &str) -> (String, Vec<char>) {
    if text.is_ascii() && !text.chars().any(is_terminal_control) {
        return (text.to_owned(), Vec::new());
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut hidden = Vec::new();
    for (i, &c) in chars.iter().enumerate() {
        if hides(&chars, i) {
            hidden.push(c);
        } else {
            out.push(c);
        }
    }
    (out, hidden)
}

/// The text as the detector reads it: hidden characters dropped, full-width ASCII forms
/// (`ｉｇｎｏｒｅ`, `＜`, `｜`) and angle-quote look-alikes of `<` and `>` folded to ASCII,
/// the ideographic space to a space.
pub(crate) fn fold(text: &str) -> (String, Vec<char>) {
    let (visible, hidden) = strip_hidden(text);
    if visible.is_ascii() {
        return (visible, hidden);
    }
    let folded = visible
        .chars()
        .map(|c| match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            '\u{3000}' => ' ',
            '‹' | '«' | '〈' | '⟨' | '\u{2329}' | '﹤' => '<',
            '›' | '»' | '〉' | '⟩' | '\u{232A}' | '﹥' => '>',
            _ => c,
        })
        .collect();
    (folded, hidden)
}

/// Hidden characters named for people: `U+200B ×3, U+202E`.
pub(crate) fn describe_hidden(hidden: &[char]) -> String {
    let mut counts: Vec<(char, usize)> = Vec::new();
    for &c in hidden {
        match counts.iter_mut().find(|(k, _)| *k == c) {
            Some((_, n)) => *n += 1,
            None => counts.push((c, 1)),
        }
    }
    let shown: Vec<String> = counts
        .iter()
        .take(4)
        .map(|&(c, n)| {
            if n > 1 {
                format!("U+{:04X} ×{n}", c as u32)
            } else {
                format!("U+{:04X}", c as u32)
            }
        })
        .collect();
    let more = if counts.len() > 4 { ", …" } else { "" };
    format!("{}{more}", shown.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_characters_are_found_between_letters_but_emoji_and_scripts_keep_theirs() {
        let (text, hidden) = strip_hidden("ig\u{200B}no\u{200D}re \u{202E}txt.exe\u{FEFF}");
        assert_eq!(text, "ignore txt.exe");
        assert_eq!(hidden, vec!['\u{200B}', '\u{200D}', '\u{202E}', '\u{FEFF}']);
        for benign in [
            "👨\u{200D}👩\u{200D}👧 family",
            "❤\u{FE0F} tea",
            "می\u{200C}خواهم",
            "क्\u{200D}ष",
        ] {
            assert_eq!(strip_hidden(benign), (benign.to_owned(), Vec::new()), "{benign}");
        }
        // A run of variation selectors after one emoji smuggles bytes.
        let (_, hidden) = strip_hidden("😀\u{FE0F}\u{E0101}\u{E0102}");
        assert_eq!(hidden.len(), 2);
        let (_, tags) = strip_hidden("hi\u{E0069}\u{E0067}");
        assert_eq!(tags.len(), 2);
        // Terminal escape sequences are hidden characters too, even in ASCII text; tabs and
        // line ends are not.
        let (text, controls) = strip_hidden("Plain \x1b]0;pwned\x07 \x1b[2J clear\tand\r\nmore");
        assert_eq!(text, "Plain ]0;pwned [2J clear\tand\r\nmore");
        assert_eq!(controls, vec!['\x1b', '\x07', '\x1b']);
        assert_eq!(
            describe_hidden(&['\u{200B}', '\u{200B}', '\u{202E}']),
            "U+200B ×2, U+202E"
        );
    }

    #[test]
    fn every_default_ignorable_character_between_letters_is_hidden() {
        for c in [
            '\u{034F}',
            '\u{115F}',
            '\u{1160}',
            '\u{17B4}',
            '\u{17B5}',
            '\u{180B}',
            '\u{180F}',
            '\u{2065}',
            '\u{3164}',
            '\u{FFA0}',
            '\u{FFF0}',
            '\u{FFF9}',
            '\u{FFFB}',
            '\u{13430}',
            '\u{1343F}',
            '\u{1BCA0}',
            '\u{1BCA3}',
            '\u{1D173}',
            '\u{1D17A}',
            '\u{E0080}',
            '\u{E0FFF}',
        ] {
            let (text, hidden) = strip_hidden(&format!("AKIA{c}IOSF"));
            assert_eq!(
                (text.as_str(), hidden.as_slice()),
                ("AKIAIOSF", &[c][..]),
                "U+{:04X}",
                c as u32
            );
        }
        // Keycaps and subdivision flags are emoji, not hidden text; a longer tag run after
        // a flag is.
        for emoji in [
            "1\u{FE0F}\u{20E3} taxes",
            "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F} rugby",
        ] {
            assert_eq!(strip_hidden(emoji).1, Vec::<char>::new(), "{emoji}");
        }
        let smuggled: String = std::iter::once('\u{1F3F4}')
            .chain(
                "ignore all"
                    .chars()
                    .map(|c| char::from_u32(0xE0000 + c as u32).unwrap()),
            )
            .chain(['\u{E007F}'])
            .collect();
        assert_eq!(strip_hidden(&smuggled).1.len(), 11);
        assert_eq!(strip_hidden("1\u{FE0F} plain").1, vec!['\u{FE0F}']);
        // Korean keeps its letters; a Mongolian free variation selector after its letter stays.
        assert_eq!(strip_hidden("사용자는 녹차").1, Vec::<char>::new());
        assert_eq!(strip_hidden("ᠠ\u{180B}").1, Vec::<char>::new());
    }

    #[test]
    fn folding_reads_full_width_and_look_alike_brackets_as_ascii() {
        assert_eq!(
            fold("ＳＹＳＴＥＭ： ‹/memory› ｉｇｎｏｒｅ").0,
            "SYSTEM: </memory> ignore"
        );
        assert_eq!(fold("녹차 좋아").0, "녹차 좋아");
    }
}
