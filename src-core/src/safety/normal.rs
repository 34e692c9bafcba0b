//! Words as the phrase matchers read them: Latin letters without accents (`précédentes`,
//! `ü`, `ß`, `ı`, `ł`), combining marks and Arabic vowel signs dropped, Arabic alef and
//! yeh forms and Devanagari nukta letters folded, `ё` read as `е`, and digits inside a word
//! of letters read as the letters they stand for (`1gn0r3`).

/// `c` as one or two lowercase letters without accents, or `None` when it is kept as is.
fn fold_latin(c: char) -> Option<&'static str> {
    Some(match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ă' | 'ą' => "a",
        'æ' => "ae",
        'ç' | 'ć' | 'č' | 'ĉ' | 'ċ' => "c",
        'ď' | 'đ' => "d",
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ė' | 'ę' | 'ě' => "e",
        'ğ' | 'ģ' => "g",
        'ì' | 'í' | 'î' | 'ï' | 'ī' | 'į' | 'ı' => "i",
        'ł' | 'ľ' | 'ĺ' | 'ļ' => "l",
        'ñ' | 'ń' | 'ň' | 'ņ' => "n",
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ő' => "o",
        'œ' => "oe",
        'ř' | 'ŕ' => "r",
        'ś' | 'š' | 'ş' | 'ș' => "s",
        'ß' => "ss",
        'ť' | 'ţ' | 'ț' => "t",
        'ù' | 'ú' | 'û' | 'ü' | 'ū' | 'ů' | 'ű' | 'ų' => "u",
        'ý' | 'ÿ' => "y",
        'ź' | 'ż' | 'ž' => "z",
        'ё' => "е",
        'أ' | 'إ' | 'آ' | 'ٱ' => "ا",
        'ى' => "ي",
        'ک' => "ك",
        '\u{0958}' => "क",
        '\u{0959}' => "ख",
        '\u{095A}' => "ग",
        '\u{095B}' => "ज",
        '\u{095C}' => "ड",
        '\u{095D}' => "ढ",
        '\u{095E}' => "फ",
        '\u{095F}' => "य",
        _ => return None,
    })
}

/// Marks that only decorate the letter before them: Latin combining accents, Arabic vowel
/// signs and tatweel, the Devanagari nukta.
fn is_dropped_mark(c: char) -> bool {
    matches!(c, '\u{0300}'..='\u{036F}' | '\u{064B}'..='\u{065F}' | '\u{0670}' | '\u{0640}' | '\u{093C}')
}

/// Whether `c` continues a word: letters, digits, and the vowel signs and viramas of Indic
/// scripts (which are marks, not letters).
pub(crate) fn is_word_char(c: char) -> bool {
    c.is_alphanumeric()
        || matches!(c, '\u{0900}'..='\u{0DFF}') && !matches!(c, '\u{0964}' | '\u{0965}' | '\u{0970}')
        || is_dropped_mark(c)
}

/// One lowercase word folded for matching.
pub(crate) fn fold_word(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    for c in word.chars() {
        if is_dropped_mark(c) {
            continue;
        }
        match fold_latin(c) {
            Some(s) => out.push_str(s),
            None => out.push(c),
        }
    }
    let letters = out.chars().filter(|c| c.is_alphabetic()).count();
    let digits = out.chars().filter(char::is_ascii_digit).count();
    if digits > 0 && letters >= 2 && out.len() >= 4 && out.is_ascii() {
        out = out
            .chars()
            .map(|c| match c {
                '0' => 'o',
                '1' => 'i',
                '3' => 'e',
                '4' => 'a',
                '5' => 's',
                '7' => 't',
                _ => c,
            })
            .collect();
    }
    out
}

/// Whether `a` and `b` differ by at most one edit (insertion, deletion, substitution, or two
/// neighbours swapped).
fn one_edit(a: &[char], b: &[char]) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if long.len() - short.len() > 1 {
        return false;
    }
    let common = short.iter().zip(long).take_while(|(x, y)| x == y).count();
    if common == short.len() {
        return true;
    }
    if short.len() == long.len() {
        let swapped = common + 1 < short.len()
            && short[common] == long[common + 1]
            && short[common + 1] == long[common]
            && short[common + 2..] == long[common + 2..];
        return swapped || short[common + 1..] == long[common + 1..];
    }
    short[common..] == long[common + 1..]
}

/// Whether `word` is a typo of `target` (`ignroe`, `instrucitons`, `previuos`): two letters
/// swapped in a word of five letters or more, or one letter added, dropped or changed in
/// one of seven or more. Another ending (`ignored`, `forgot`) is not a typo. With `prefix`,
/// only the start of `word` counts.
pub(crate) fn typo_of(word: &str, target: &str, prefix: bool) -> bool {
    // Cheap refusals first: this runs for every word against every alternative.
    if target.len() < 5 || word.len() + 4 < target.len() || !prefix && word.len() > target.len() + 4 {
        return false;
    }
    if word.chars().next() != target.chars().next() {
        return false;
    }
    let (w_count, t_count) = (word.chars().count(), target.chars().count());
    if t_count < 5 || w_count + 1 < t_count || !prefix && w_count > t_count + 1 {
        return false;
    }
    let t: Vec<char> = target.chars().collect();
    let w: Vec<char> = word.chars().collect();
    let lengths: Vec<usize> = if prefix {
        (t.len().saturating_sub(1)..=t.len() + 1)
            .filter(|&n| n <= w.len())
            .collect()
    } else {
        vec![w.len()]
    };
    lengths.into_iter().any(|n| {
        let w = &w[..n];
        if w == t.as_slice() || w.first() != t.first() {
            return false;
        }
        // Only the ending differs: another form of the word, not a typo.
        let common = w.iter().zip(&t).take_while(|(a, b)| a == b).count();
        if !prefix && common + 2 >= w.len().min(t.len()) && w.len() != t.len() {
            return false;
        }
        if w.len() == t.len() {
            let diff: Vec<usize> = (0..w.len()).filter(|&i| w[i] != t[i]).collect();
            let swap =
                diff.len() == 2 && diff[1] == diff[0] + 1 && w[diff[0]] == t[diff[1]] && w[diff[1]] == t[diff[0]];
            swap || t.len() >= 7 && diff.len() == 1 && diff[0] + 1 < t.len()
        } else {
            t.len() >= 7 && one_edit(w, &t)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_fold_to_plain_letters() {
        assert_eq!(fold_word("précédentes"), "precedentes");
        assert_eq!(fold_word("übergeh"), "ubergeh");
        assert_eq!(fold_word("1gn0r3"), "ignore");
        assert_eq!(fold_word("mp3"), "mp3");
        assert_eq!(fold_word("cafe\u{301}"), "cafe");
        assert_eq!(fold_word("أوامر"), "اوامر");
        assert_eq!(fold_word("всё"), "все");
    }

    #[test]
    fn typos_are_read_as_the_word_but_other_forms_are_not() {
        for (w, t) in [
            ("ignroe", "ignore"),
            ("ingore", "ignore"),
            ("instrucitons", "instructions"),
            ("previuos", "previous"),
            ("prevous", "previous"),
            ("disregrad", "disregard"),
        ] {
            assert!(typo_of(w, t, false), "{w}");
        }
        for (w, t) in [
            ("ignored", "ignore"),
            ("forgot", "forget"),
            ("ignores", "ignore"),
            ("rules", "roles"),
        ] {
            assert!(!typo_of(w, t, false), "{w}");
        }
        assert!(typo_of("instrucitons", "instruction", true));
        assert!(!typo_of("construction", "instruction", true));
    }
}
