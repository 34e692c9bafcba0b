//! The one question asked before what cannot be undone: shown on the terminal and answered
//! there, refused with the flag to pass when there is no terminal to ask on.

use std::io::{BufRead, IsTerminal, Write};

use anyhow::Result;

use crate::UsageError;

/// What is asked, and what is said when it cannot be or is declined.
pub struct Question<'a> {
    /// What will happen, written before the question (may be empty).
    pub shown: &'a str,
    /// The question itself, answered with y or n.
    pub ask: &'a str,
    /// The error when stdin is not a terminal: which flag goes on without asking.
    pub without_terminal: &'a str,
    /// The error when the answer is not yes.
    pub declined: &'a str,
}

/// Shows `question.shown`, asks, and goes on only for "y" or "yes".
pub fn confirm(question: &Question<'_>) -> Result<()> {
    if !std::io::stdin().is_terminal() {
        eprint!("{}", question.shown);
        return Err(UsageError(question.without_terminal.to_owned()).into());
    }
    eprint!("{}{} [y/N] ", question.shown, question.ask);
    std::io::stderr().flush()?;
    let mut answer = String::new();
    std::io::stdin().lock().read_line(&mut answer)?;
    if is_yes(&answer) {
        Ok(())
    } else {
        Err(UsageError(question.declined.to_owned()).into())
    }
}

/// Only an explicit yes counts; anything else, an empty line included, is no.
fn is_yes(answer: &str) -> bool {
    matches!(answer.trim().to_lowercase().as_str(), "y" | "yes")
}

#[cfg(test)]
mod tests {
    use super::is_yes;

    #[test]
    fn only_an_explicit_yes_goes_on() {
        for yes in ["y\n", "Y", " yes ", "YES\r\n"] {
            assert!(is_yes(yes), "{yes:?}");
        }
        for no in ["", "\n", "n", "no", "yess", "ja", "y y"] {
            assert!(!is_yes(no), "{no:?}");
        }
    }
}
