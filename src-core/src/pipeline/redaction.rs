//! The secrets of a proposal replaced before it is written: the pipeline's own redaction,
//! over the secret screen's counting (`crate::secrets::SecretTally`).

use super::Proposal;

impl Proposal {
    /// Replaces the secrets left in everything it would write (the LLM's answers, the new
    /// core.md, the attributes) and counts them with those of the input: the text added
    /// and its items, the proposed memories and their attributes, the new core.md, the
    /// LLM's raw answers and errors, the warnings. What it was built on (the related
    /// memories, core.md before) is already in the store and left as it is.
    pub(crate) fn redact_secrets(&mut self) {
        let mut tally = std::mem::take(&mut self.secrets);
        tally.option(&mut self.raw_input);
        self.inputs.iter_mut().for_each(|t| tally.string(t));
        for item in &mut self.proposed {
            if !item.kept {
                tally.string(&mut item.content);
            }
            tally.attributes(&mut item.attributes);
        }
        tally.option(&mut self.core_after);
        for call in &mut self.llm_calls {
            if let Some(answer) = &mut call.answer {
                tally.value(answer);
            }
            tally.option(&mut call.error);
        }
        self.warnings.iter_mut().for_each(|t| tally.string(t));
        tally.attributes(&mut self.attributes);
        self.secrets = tally;
    }
}
