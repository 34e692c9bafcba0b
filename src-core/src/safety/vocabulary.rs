//! Every word the phrase matchers compare with (`phrases`, `phrases_more` and every family),
//! each with a number. A text's word is compared with the vocabulary once, when the text is
//! read ([`matched`]); the patterns hold numbers ([`ids_of`]), so that a pattern's slot is
//! then a lookup of a few numbers. Most words of an ordinary text match none of the
//! matchers' words and are never compared again.
//!
//! Which words match is [`super::pattern::one_matches`] (itself, a `prefix*`, a `~part`, a
//! typo) and an elided article (`l'ia`): the numbers answer exactly what comparing the word
//! with each alternative of a slot would.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex, OnceLock, PoisonError};

use super::pattern::{Slot, elided_tail, one_matches};

/// The number of one of the matchers' words (as written: `ignore`, `disregard*`, `~gpt`).
pub(crate) type WordId = u16;

/// One of the matchers' words as written, with its number.
struct Entry {
    written: &'static str,
    id: WordId,
    /// Its letters without the `*` of a prefix.
    chars: usize,
    prefix: bool,
}

impl Entry {
    /// Whether a word of `chars` letters can match it (itself, its prefix or a typo of
    /// either: see `normal::typo_of`); comparing is slower than this.
    fn fits(&self, chars: usize) -> bool {
        if self.prefix {
            chars + 1 >= self.chars
        } else {
            chars.abs_diff(self.chars) <= 1
        }
    }
}

/// The matchers' words, by the first letter a word must start with to match them.
struct Vocabulary {
    ids: HashMap<&'static str, WordId>,
    /// Words, `prefix*` and typos of them: a match starts with the same letter.
    by_first: HashMap<char, Vec<Entry>>,
    /// `~part`: any word that holds the part.
    parts: Vec<(&'static str, WordId)>,
}

impl Vocabulary {
    fn add(&mut self, word: &'static str) {
        if self.ids.contains_key(word) {
            return;
        }
        let Ok(id) = WordId::try_from(self.ids.len()) else {
            return; // Never: a test checks that every word has its number.
        };
        self.ids.insert(word, id);
        match word.chars().next().filter(|&c| c != '~' && c != '*') {
            Some(first) => {
                let bare = word.strip_suffix('*');
                self.by_first.entry(first).or_default().push(Entry {
                    written: word,
                    id,
                    chars: bare.unwrap_or(word).chars().count(),
                    prefix: bare.is_some(),
                });
            }
            None => self.parts.push((word, id)),
        }
    }

    /// The numbers of the words `word` matches, itself (not after an article).
    fn matched_by(&self, word: &str, out: &mut Vec<WordId>) {
        for &(part, id) in &self.parts {
            if one_matches(word, part) {
                out.push(id);
            }
        }
        let Some(same_start) = word.chars().next().and_then(|c| self.by_first.get(&c)) else {
            return;
        };
        let chars = word.chars().count();
        for entry in same_start {
            if entry.fits(chars) && one_matches(word, entry.written) {
                out.push(entry.id);
            }
        }
    }
}

fn vocabulary() -> &'static Vocabulary {
    static VOCABULARY: OnceLock<Vocabulary> = OnceLock::new();
    VOCABULARY.get_or_init(|| {
        let mut vocabulary = Vocabulary {
            ids: HashMap::new(),
            by_first: HashMap::new(),
            parts: Vec::new(),
        };
        let patterns = super::phrases::OVERRIDES.iter().chain(super::phrases_more::MORE);
        for slot in patterns.flat_map(|p| p.iter()) {
            if let Slot::W(words) = slot {
                words.iter().for_each(|w| vocabulary.add(w));
            }
        }
        super::families::source_words().for_each(|w| vocabulary.add(w));
        vocabulary
    })
}

/// How many words' answers [`matched`] keeps (the words of texts repeat: "the", "you", a
/// name); when full, it starts again. About a hundred bytes each.
const REMEMBERED: usize = 8192;

static ANSWERS: LazyLock<Mutex<HashMap<String, Box<[WordId]>>>> = LazyLock::new(Mutex::default);

/// The numbers of the matchers' words that a folded word of a text matches, sorted; empty
/// for most words.
pub(crate) fn matched(word: &str) -> Box<[WordId]> {
    let answers = || ANSWERS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(ids) = answers().get(word) {
        return ids.clone();
    }
    let ids = compare(word);
    let mut answers = answers();
    if answers.len() >= REMEMBERED {
        answers.clear();
    }
    answers.insert(word.to_owned(), ids.clone());
    ids
}

/// [`matched`], worked out.
fn compare(word: &str) -> Box<[WordId]> {
    let vocabulary = vocabulary();
    let mut ids = Vec::new();
    vocabulary.matched_by(word, &mut ids);
    if let Some(tail) = elided_tail(word) {
        vocabulary.matched_by(tail, &mut ids);
    }
    ids.sort_unstable();
    ids.dedup();
    ids.into_boxed_slice()
}

/// The numbers of `words`, sorted: a slot of a pattern as [`matched`]'s numbers are checked
/// against.
pub(crate) fn ids_of(words: &[&str]) -> Box<[WordId]> {
    let vocabulary = vocabulary();
    let mut ids: Vec<WordId> = words.iter().filter_map(|w| vocabulary.ids.get(w).copied()).collect();
    ids.sort_unstable();
    ids.dedup();
    ids.into_boxed_slice()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::safety::pattern::word_matches;

    fn every_word() -> Vec<&'static str> {
        vocabulary().ids.keys().copied().collect()
    }

    #[test]
    fn every_word_of_the_matchers_has_its_number() {
        let all = every_word();
        assert!(all.len() > 1000 && all.len() < usize::from(WordId::MAX));
        let patterns = crate::safety::phrases::OVERRIDES
            .iter()
            .chain(crate::safety::phrases_more::MORE);
        for slot in patterns.flat_map(|p| p.iter()) {
            if let Slot::W(words) = slot {
                assert_eq!(
                    ids_of(words).len(),
                    words.iter().collect::<std::collections::HashSet<_>>().len()
                );
            }
        }
        for word in crate::safety::families::source_words() {
            assert_eq!(ids_of(&[word]).len(), 1, "{word}");
        }
    }

    #[test]
    fn the_numbers_answer_what_comparing_each_word_would() {
        // The words themselves, typos, other endings, elided forms, and ordinary words.
        let mut words: Vec<String> = Vec::new();
        for w in every_word() {
            let bare = w.trim_start_matches('~').trim_end_matches('*');
            words.extend([
                bare.to_owned(),
                format!("{bare}s"),
                format!("{bare}ing"),
                format!("l'{bare}"),
            ]);
            let chars: Vec<char> = bare.chars().collect();
            if chars.len() >= 3 {
                let mut swapped = chars.clone();
                swapped.swap(1, 2);
                let mut changed = chars.clone();
                changed[1] = 'x';
                words.extend([
                    swapped.iter().collect(),
                    changed.iter().collect(),
                    chars[..chars.len() - 1].iter().collect(),
                ]);
            }
        }
        words.extend(
            [
                "ignroe",
                "instrucitons",
                "dell'assistente",
                "un'ia",
                "tea",
                "garden",
                "2023",
                "don't",
                "you're",
            ]
            .map(String::from),
        );
        let all = every_word();
        for word in &words {
            let ids = matched(word);
            for a in &all {
                assert_eq!(
                    word_matches(word, &[a]),
                    ids.binary_search(&vocabulary().ids[a]).is_ok(),
                    "{word} against {a}"
                );
            }
        }
    }

    #[test]
    fn ordinary_words_match_none() {
        for word in ["tea", "garden", "caroline", "melanie", "pottery", "2023"] {
            assert!(matched(word).is_empty(), "{word}");
        }
    }
}
