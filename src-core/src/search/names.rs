//! The names a question asks about: what ranks a memory that has them all first.

use crate::text::terms::is_stop_word;

/// The names in `query`: its capitalised words that are neither function words nor months,
/// lower-cased (`What did Caroline tell Mel in May?` → `caroline`, `mel`). A memory that
/// has them all is about whom the question is about.
pub(crate) fn names(query: &str) -> Vec<String> {
    let mut names: Vec<String> = query
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().next().is_some_and(char::is_uppercase))
        .map(str::to_lowercase)
        .filter(|w| !is_stop_word(w) && super::time::month_number(w).is_none())
        .collect();
    names.sort();
    names.dedup();
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_capitalised_content_words() {
        assert_eq!(
            names("What did Caroline tell Mel in May? When? Caroline's"),
            ["caroline", "mel"]
        );
        assert_eq!(names("Did I go to Busan in June 2023?"), ["busan"]);
        assert!(names("what did she say?").is_empty());
    }
}
