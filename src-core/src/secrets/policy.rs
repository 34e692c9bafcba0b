//! What happens to a change that held a secret (`secrets.policy`).

use super::SecretTally;

closed_set! {
    /// What happens to a change whose text held a secret. Either way the secret is
    /// replaced by its marker before anything is written: the original is in no file.
    #[derive(Default)]
    pub enum SecretPolicy ("secrets policy") {
        /// Store the text with the markers in place of the secrets (and say so).
        #[default]
        Redact = "redact",
        /// Store it the same way but leave the change for a person's review: approving it
        /// keeps the text with the markers, rejecting it drops it.
        Hold = "hold",
    }
}

impl SecretPolicy {
    /// The receipt of a change whose text held the secrets of `tally`, and whether the
    /// change waits for review (`held`).
    pub(crate) fn warning(self, tally: &SecretTally, held: bool) -> String {
        let then = match (self, held) {
            (Self::Hold, true) => {
                "; it waits for a person's review (secrets.policy = hold): approving it keeps the text with the markers"
            }
            _ => "",
        };
        format!("secrets were replaced by markers before anything was stored: {tally}{then}")
    }
}
