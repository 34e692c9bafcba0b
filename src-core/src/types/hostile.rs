//! Why a text reads like a prompt injection rather than a fact (see `safety::detect`).

use serde::{Deserialize, Serialize};

closed_set! {
    /// One reason a text looks like a prompt injection.
    pub enum HostileReason ("hostile text reason") {
        /// A phrase that tries to replace the reader's instructions: "ignore previous
        /// instructions", "you are now", "new instructions:", "reveal your system prompt",
        /// a note addressed to an AI reading the text.
        InstructionOverride = "instruction_override",
        /// A chat role label posing as a new turn: `System:`, `Assistant :`, `Human:`,
        /// `AI:` at the start of a line or sentence, in odd letter case, or several in a row.
        RoleLabel = "role_label",
        /// A chat-template control token: `<|im_start|>`, `[INST]`, `<<SYS>>`, `</s>`,
        /// `<start_of_turn>`, `### Instruction:`, a `<system>` tag.
        TemplateToken = "template_token",
        /// A tag that opens or closes one of haema's own prompt blocks (`</memory>`,
        /// `</new_contents>`, …) or a generic data block (`</data>`, `</context>`).
        FenceEscape = "fence_escape",
        /// Invisible characters: zero-width spaces and joiners between letters, bidi
        /// controls, a byte-order mark, Unicode tag characters.
        InvisibleControl = "invisible_control",
        /// A markdown or HTML image pointing at a URL (it loads by itself when rendered),
        /// a markdown link with a query string, or a URL with a placeholder to fill in.
        ExfiltrationLink = "exfiltration_link",
    }
}

impl HostileReason {
    /// The reason in a few plain words.
    pub fn describe(self) -> &'static str {
        match self {
            Self::InstructionOverride => "instruction override",
            Self::RoleLabel => "role label",
            Self::TemplateToken => "chat-template token",
            Self::FenceEscape => "prompt block tag",
            Self::InvisibleControl => "invisible control characters",
            Self::ExfiltrationLink => "link that can leak data",
        }
    }
}

/// One reason a text looks hostile, with what was found (see
/// [`safety::detect`](crate::safety::detect) for an example).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
pub struct HostileFinding {
    /// The reason.
    pub reason: HostileReason,
    /// What was found, short and printable (invisible characters as `U+200B`).
    pub evidence: String,
}
