//! The words of a query that the full-text signal looks for.
//!
//! FTS5's BM25 gives a word that is in more than half of the memories an IDF of almost
//! nothing, but function words of questions ("what", "did", "when", "her") are in far fewer
//! memories than that and weigh as much as the content words. Dropping them from the query
//! (never from the index) raised full-text recall@10 on the LoCoMo dev split from 63.2 to
//! 67.1 (see docs/search.md). A query made only of such words keeps all of them.

/// English function words: NLTK's stop-word list (as our tokeniser splits contractions:
/// `don't` → `don`, `t`) and the modal verbs. `may` is left in: it is also a month.
const STOP_WORDS: &[&str] = &[
    "a",
    "about",
    "above",
    "after",
    "again",
    "against",
    "ain",
    "all",
    "am",
    "an",
    "and",
    "any",
    "are",
    "aren",
    "as",
    "at",
    "be",
    "because",
    "been",
    "before",
    "being",
    "below",
    "between",
    "both",
    "but",
    "by",
    "can",
    "could",
    "couldn",
    "d",
    "did",
    "didn",
    "do",
    "does",
    "doesn",
    "doing",
    "don",
    "down",
    "during",
    "each",
    "few",
    "for",
    "from",
    "further",
    "had",
    "hadn",
    "has",
    "hasn",
    "have",
    "haven",
    "having",
    "he",
    "her",
    "here",
    "hers",
    "herself",
    "him",
    "himself",
    "his",
    "how",
    "i",
    "if",
    "in",
    "into",
    "is",
    "isn",
    "it",
    "its",
    "itself",
    "just",
    "ll",
    "m",
    "ma",
    "me",
    "might",
    "mightn",
    "more",
    "most",
    "must",
    "mustn",
    "my",
    "myself",
    "needn",
    "no",
    "nor",
    "not",
    "now",
    "o",
    "of",
    "off",
    "on",
    "once",
    "only",
    "or",
    "other",
    "our",
    "ours",
    "ourselves",
    "out",
    "over",
    "own",
    "re",
    "s",
    "same",
    "shall",
    "shan",
    "she",
    "should",
    "shouldn",
    "so",
    "some",
    "such",
    "t",
    "than",
    "that",
    "the",
    "their",
    "theirs",
    "them",
    "themselves",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "through",
    "to",
    "too",
    "under",
    "until",
    "up",
    "ve",
    "very",
    "was",
    "wasn",
    "we",
    "were",
    "weren",
    "what",
    "when",
    "where",
    "which",
    "while",
    "who",
    "whom",
    "why",
    "will",
    "with",
    "won",
    "would",
    "wouldn",
    "y",
    "you",
    "your",
    "yours",
    "yourself",
    "yourselves",
];

/// The words of a text as the full-text index sees them (letters and digits, lower-cased).
pub(crate) fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Whether a lower-cased word is a function word.
pub(crate) fn is_stop_word(word: &str) -> bool {
    STOP_WORDS.binary_search(&word).is_ok()
}

/// The distinct words of `query` to look for, lower-cased and sorted: its content words, or
/// every word when it has no content word.
pub(crate) fn query_words(query: &str) -> Vec<String> {
    let mut all = words(query);
    all.sort();
    all.dedup();
    let content: Vec<String> = all.iter().filter(|w| !is_stop_word(w)).cloned().collect();
    if content.is_empty() { all } else { content }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_is_sorted_for_binary_search() {
        assert!(STOP_WORDS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn function_words_are_dropped_unless_nothing_is_left() {
        assert_eq!(
            query_words("When did Caroline go to the LGBTQ support group?"),
            ["caroline", "go", "group", "lgbtq", "support"]
        );
        assert_eq!(query_words("What did she do in May?"), ["may"]);
        assert_eq!(query_words("Who was it?"), ["it", "was", "who"]);
        assert_eq!(query_words("Didn't you?"), ["didn", "t", "you"]);
        assert!(query_words(" ... ").is_empty());
    }
}
