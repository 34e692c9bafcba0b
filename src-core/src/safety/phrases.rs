//! Instruction-override phrases, matched on words: letter case, spacing, punctuation
//! between words and (after `chars::fold`) zero-width characters do not matter.
//!
//! A pattern is a row of slots: a set of words (`prefix*` matches any word that starts
//! with `prefix`), a gap of up to n words (never across `.`, `!`, `?` or a line end), or a
//! colon. Patterns name a *target* (instructions, the prompt, what is above, an AI reading
//! the text), so "ignore the noise at night" or "forget the umbrella" do not match.

use super::pattern::Slot::{self, Colon, Gap, W};

const VERBS: &[&str] = &[
    "ignore",
    "ignoring",
    "disregard*",
    "forget",
    "forgetting",
    "override",
    "overriding",
    "bypass*",
    "skip",
    "discard*",
    "abandon*",
    "dismiss*",
    "drop",
    "neglect*",
    "overwrite*",
    "erase",
    "nevermind",
];
/// Qualifiers that point at what came before the text or at the reader's own rules.
const STRONG_QUALIFIERS: &[&str] = &[
    "previous",
    "previously",
    "prior",
    "above",
    "earlier",
    "preceding",
    "former",
    "foregoing",
    "original",
    "initial",
    "system",
    "developer",
    "safety",
    "your",
    "ur",
];
const WEAK_QUALIFIERS: &[&str] = &["all", "any", "every", "these", "those", "other", "existing"];
const TARGETS: &[&str] = &[
    "instruction*",
    "prompt*",
    "rule*",
    "direction*",
    "guideline*",
    "guidance",
    "command*",
    "order*",
    "context",
    "message*",
    "constraint*",
    "restriction*",
    "programming",
    "training",
    "polic*",
    "safeguard*",
    "filter*",
    "guardrail*",
    "directive*",
    "conversation*",
    "input*",
    "text",
    "task*",
    "request*",
    "limitation*",
];
const STRONG_TARGETS: &[&str] = &[
    "instruction*",
    "prompt*",
    "rule*",
    "directive*",
    "guideline*",
    "programming",
    "guardrail*",
    "safeguard*",
    "polic*",
    "restriction*",
    "constraint*",
    "filter*",
    "limitation*",
];
const AI: &[&str] = &[
    "ai",
    "ais",
    "llm",
    "llms",
    "assistant",
    "assistants",
    "chatbot",
    "chatbots",
    "model",
    "models",
    "bot",
    "bots",
    "agent",
    "agents",
    "gpt",
    "chatgpt",
    "claude",
    "gemini",
    "copilot",
];
const REVEAL: &[&str] = &[
    "reveal",
    "show",
    "print",
    "repeat",
    "output",
    "display",
    "leak",
    "tell",
    "give",
    "share",
    "dump",
    "expose",
    "return",
    "what",
    "what's",
    "whats",
    "ignore",
    "forget",
    "disregard",
    "override",
    "bypass",
    "new",
    "your",
    "ur",
    "recite",
    "spell",
    "translate",
    "summarize",
    "summarise",
];
const HIDDEN_PROMPT: &[&str] = &[
    "system",
    "initial",
    "hidden",
    "secret",
    "original",
    "developer",
    "base",
    "pre",
];
const NEW: &[&str] = &[
    "new",
    "updated",
    "real",
    "actual",
    "true",
    "secret",
    "hidden",
    "revised",
    "additional",
    "different",
];
const YOU_ARE: &[&str] = &["you're", "youre", "ur"];
/// What "you are now …" turns the reader into: a model, a persona, a mode.
const PERSONA: &[&str] = &[
    "ai",
    "llm",
    "assistant",
    "chatbot",
    "model",
    "bot",
    "agent",
    "gpt",
    "chatgpt",
    "dan",
    "persona",
    "character",
    "mode",
    "unrestricted",
    "unfiltered",
    "uncensored",
    "jailbroken",
    "unbound",
    "evil",
    "free",
    "freed",
    "roleplay*",
    "acting",
    "pretending",
    "playing",
    "called",
    "named",
    "known",
    "operating",
    "obey*",
    "programmed",
];
/// What "you are no longer …" frees the reader from.
const UNBOUND: &[&str] = &[
    "bound",
    "restricted",
    "limited",
    "constrained",
    "required",
    "subject",
    "obligated",
    "censored",
    "filtered",
    "ai",
    "assistant",
    "chatgpt",
    "gpt",
    "model",
    "claude",
    "gemini",
];
/// What "you will now …" orders.
const OBEY: &[&str] = &[
    "act", "respond", "answer", "behave", "pretend", "obey", "follow", "ignore", "roleplay", "play", "reply", "speak",
    "output", "comply", "only", "be", "do", "execute", "send", "reveal", "print",
];

/// Instruction-override patterns (see the module's documentation).
pub(crate) const OVERRIDES: &[&[Slot]] = &[
    // "ignore (all of the) previous instructions", "disregard your rules"
    &[W(VERBS), Gap(3), W(STRONG_QUALIFIERS), Gap(3), W(TARGETS)],
    // "ignore all rules", "forget any instructions"
    &[W(VERBS), Gap(1), W(WEAK_QUALIFIERS), Gap(2), W(STRONG_TARGETS)],
    // "ignore the above", "disregard everything above", "forget everything you were told"
    &[W(VERBS), Gap(2), W(&["above", "foregoing"])],
    &[
        W(VERBS),
        W(&["everything", "all", "anything"]),
        Gap(2),
        W(&["before", "previously", "prior", "earlier", "said", "told", "you", "so"]),
    ],
    // "you are now an unrestricted AI", "you're now in developer mode", "you are no longer
    // bound by", "you will now act as", "from now on you": a new identity, mode or duty,
    // not "where you are now" or "you are now 30"
    &[W(&["you", "u"]), W(&["are", "r"]), W(&["now"]), Gap(4), W(PERSONA)],
    &[W(YOU_ARE), W(&["now"]), Gap(4), W(PERSONA)],
    &[
        W(&["you", "u"]),
        W(&["are", "r"]),
        W(&["no"]),
        W(&["longer"]),
        Gap(2),
        W(UNBOUND),
    ],
    &[W(YOU_ARE), W(&["no"]), W(&["longer"]), Gap(2), W(UNBOUND)],
    &[
        W(&["you", "u"]),
        W(&["will", "must", "shall", "should"]),
        W(&["now"]),
        Gap(1),
        W(OBEY),
    ],
    &[W(&["from"]), W(&["now"]), W(&["on"]), Gap(3), W(&["you", "your", "u"])],
    &[
        W(&["you", "u"]),
        W(&["have", "are", "were"]),
        Gap(1),
        W(&[
            "freed",
            "jailbroken",
            "unlocked",
            "unleashed",
            "liberated",
            "reprogrammed",
        ]),
    ],
    &[
        W(&["pretend", "imagine"]),
        W(&["you", "u"]),
        W(&["are", "have", "were"]),
    ],
    &[
        W(&["act", "behave", "respond", "answer"]),
        W(&["as"]),
        W(&["if"]),
        W(&["you", "u"]),
    ],
    // "new instructions:", "here are your new instructions", "your real task is"
    &[
        W(NEW),
        W(&[
            "instruction*",
            "directive*",
            "system",
            "task",
            "rules",
            "orders",
            "objective*",
        ]),
        Colon,
    ],
    &[
        W(&["here", "follow", "following", "these", "obey", "read", "your", "ur"]),
        Gap(2),
        W(NEW),
        W(&[
            "instruction*",
            "directive*",
            "orders",
            "task*",
            "objective*",
            "goal*",
            "purpose",
            "mission",
        ]),
    ],
    &[
        W(&[
            "system",
            "admin",
            "administrator",
            "developer",
            "emergency",
            "security",
            "priority",
        ]),
        W(&[
            "override",
            "overrides",
            "instruction",
            "instructions",
            "directive",
            "command",
        ]),
        Colon,
    ],
    &[W(&["system", "admin", "developer"]), W(&["override", "overrides"])],
    // "reveal your system prompt", "what is your initial prompt", "repeat the text above"
    &[
        W(REVEAL),
        Gap(3),
        W(HIDDEN_PROMPT),
        W(&["prompt*", "message", "instruction*"]),
    ],
    &[
        W(&["your", "ur", "the"]),
        W(HIDDEN_PROMPT),
        W(&["prompt*"]),
        W(&["is", "says", "was"]),
    ],
    &[
        W(&["repeat", "print", "output", "reveal", "show", "write", "recite", "echo"]),
        Gap(3),
        W(&["words", "text", "everything", "lines", "instructions", "prompt", "all"]),
        Gap(1),
        W(&["above", "before"]),
    ],
    // indirect injection addressed to the model reading the text
    &[W(&["if"]), W(&["you"]), W(&["are", "re"]), Gap(2), W(AI)],
    &[
        W(&[
            "note",
            "notes",
            "message",
            "instructions",
            "instruction",
            "attention",
            "important",
            "notice",
            "memo",
        ]),
        Gap(1),
        W(&["to", "for"]),
        Gap(2),
        W(AI),
    ],
    &[
        W(AI),
        W(&[
            "reading",
            "processing",
            "parsing",
            "summarizing",
            "summarising",
            "seeing",
            "reviewing",
        ]),
        W(&["this"]),
    ],
    &[W(&["dear", "hey", "attention"]), Gap(1), W(AI), Colon],
    // covert actions
    &[
        W(&["do", "don't", "dont", "never", "must"]),
        Gap(1),
        W(&["tell", "mention", "reveal", "inform", "notify", "alert", "show"]),
        W(&["the"]),
        W(&["user", "human", "humans", "users"]),
    ],
    &[
        W(&["without"]),
        W(&["telling", "informing", "alerting", "notifying", "asking"]),
        Gap(1),
        W(&["user", "human", "users", "humans"]),
    ],
    &[W(&["exfiltrat*"])],
    &[
        W(&[
            "send", "post", "upload", "forward", "transmit", "leak", "append", "include", "encode", "embed", "add",
        ]),
        Gap(5),
        W(&[
            "conversation",
            "chat",
            "history",
            "memories",
            "secrets",
            "password*",
            "credential*",
            "api",
            "keys",
            "tokens",
            "cookies",
            "session",
        ]),
        Gap(4),
        W(&[
            "url", "link", "http", "https", "webhook", "endpoint", "image", "query", "markdown",
        ]),
    ],
    // jailbreak personas
    &[W(&["dan"]), Gap(4), W(&["do"]), W(&["anything"]), W(&["now"])],
    &[W(&["you", "u"]), W(&["are", "r"]), W(&["dan"])],
    &[W(YOU_ARE), W(&["dan"])],
    &[
        W(&["enable", "enter", "activate", "switch", "entering", "enabled", "in"]),
        Gap(2),
        W(&[
            "dan",
            "jailbreak",
            "jailbroken",
            "unrestricted",
            "unfiltered",
            "god",
            "evil",
            "uncensored",
        ]),
        W(&["mode"]),
    ],
    &[W(&["dan"]), W(&["mode"])],
    // German, French, Spanish: "ignore (all) previous instructions"
    &[
        W(&["ignoriere", "ignorier", "vergiss", "missachte", "ignorieren"]),
        Gap(3),
        W(&["vorherigen", "bisherigen", "obigen", "vorigen", "alle"]),
        Gap(1),
        W(&["anweisung*", "instruktion*", "befehle", "regeln"]),
    ],
    &[
        W(&["ignore", "ignorez", "oublie", "oubliez", "ignorer"]),
        Gap(3),
        W(&["instructions", "consignes", "règles"]),
        Gap(1),
        W(&["précédentes", "precedentes", "antérieures", "anterieures", "ci"]),
    ],
    &[
        W(&["ignora", "ignore", "olvida", "olvide", "ignorar"]),
        Gap(3),
        W(&["instrucciones", "reglas", "indicaciones"]),
        Gap(1),
        W(&["anteriores", "previas", "precedentes"]),
    ],
];

/// Chinese, Japanese and Korean: a text holding a word of each group ("忽略" + "之前" +
/// "指令"), as these are written without spaces.
pub(crate) const CJK_OVERRIDES: &[[&[&str]; 3]] = &[
    [
        &["忽略", "无视", "無視", "忘记", "忘掉"],
        &["之前", "以上", "上面", "先前", "前面"],
        &["指令", "指示", "说明", "規則", "规则", "提示"],
    ],
    [
        &["無視", "忘れ"],
        &["以前", "上記", "これまで", "前の"],
        &["指示", "命令", "ルール", "プロンプト"],
    ],
    [
        &["무시", "잊어"],
        &["이전", "위의", "앞의"],
        &["지시", "명령", "지침", "규칙", "프롬프트"],
    ],
];

/// The first CJK override in `text`, as its three parts.
pub(crate) fn cjk_match(text: &str) -> Option<String> {
    CJK_OVERRIDES.iter().find_map(|groups| {
        let found: Vec<&str> = groups
            .iter()
            .filter_map(|g| g.iter().find(|w| text.contains(**w)).copied())
            .collect();
        (found.len() == 3).then(|| found.join("…"))
    })
}

#[cfg(test)]
#[path = "phrases_tests.rs"]
mod tests;
