//! Markup a model treats as structure: chat-template control tokens and tags of prompt
//! blocks. Images and links that send data out are in `links`.

/// Chat-template control tokens, lowercase, besides any `<|…|>`: Llama 2 (`[INST]`,
/// `<<SYS>>`), sentence marks, Gemma's turns, Mistral's blocks, tool-call tags, role tags and
/// Alpaca-style headings.
pub(crate) const TEMPLATE_TOKENS: &[&str] = &[
    "[inst]",
    "[/inst]",
    "<<sys>>",
    "<</sys>>",
    "<s>",
    "</s>",
    "<start_of_turn>",
    "<end_of_turn>",
    "<bos>",
    "<eos>",
    "[system_prompt]",
    "[/system_prompt]",
    "[available_tools]",
    "[/available_tools]",
    "[tool_calls]",
    "[tool_results]",
    "<tool_call>",
    "</tool_call>",
    "<function_call>",
    "<system>",
    "</system>",
    "<system_prompt>",
    "</system_prompt>",
    "</user>",
    "<assistant>",
    "</assistant>",
    "<human>",
    "</human>",
    "<developer>",
    "</developer>",
    "### instruction:",
    "### response:",
    "### input:",
    "### system:",
    "### human:",
    "### assistant:",
    "### user:",
];

/// Where the first `<|…|>` token (up to 48 characters, spaces allowed around the bars) is.
pub(crate) fn special_token(text: &str) -> Option<std::ops::Range<usize>> {
    let mut from = 0;
    while let Some(open) = text[from..].find('<').map(|i| i + from) {
        from = open + 1;
        let after = text[from..].trim_start_matches(' ');
        if !after.starts_with('|') {
            continue;
        }
        let body_start = text.len() - after.len() + 1;
        let window_end = text[body_start..]
            .char_indices()
            .nth(48)
            .map_or(text.len(), |(i, _)| body_start + i);
        let window = &text[body_start..window_end];
        if let Some(bar) = window.find('|') {
            let tail = window[bar + 1..].trim_start_matches(' ');
            if tail.starts_with('>') && !window[..bar].contains(['<', '\n']) {
                let end = body_start + bar + 1 + (window[bar + 1..].len() - tail.len()) + 1;
                return Some(open..end);
            }
        }
    }
    None
}

/// The first template token of lowercase `text`.
pub(crate) fn template_token(lower: &str) -> Option<String> {
    if let Some(span) = special_token(lower) {
        return Some(lower[span].to_owned());
    }
    TEMPLATE_TOKENS
        .iter()
        .filter_map(|t| lower.find(t).map(|at| (at, *t)))
        .min()
        .map(|(_, t)| t.to_owned())
}

/// haema's own prompt blocks: the recall block and the pipeline's fenced inputs.
const OWN_BLOCKS: &[&str] = &[
    "memory",
    "core",
    "latest",
    "relevant",
    "raw_input",
    "related_memories",
    "new_contents",
    "core_profile",
    "current_core_markdown",
    "candidate_new_memories",
];
/// Blocks other prompts wrap untrusted text in; only their closing tag counts.
const DATA_BLOCKS: &[&str] = &[
    "data",
    "context",
    "document",
    "documents",
    "input",
    "user_input",
    "untrusted",
    "untrusted_input",
    "untrusted_data",
    "untrusted_text",
    "memories",
    "facts",
    "quote",
    "content",
    "external",
    "search_results",
    "tool_output",
    "tool_result",
    "function_results",
    "instructions",
    "prompt",
];
/// "END OF MEMORY" and the like, as a marker of its own.
const END_MARKS: &[&str] = &[
    "end of memory",
    "end of memories",
    "end of data",
    "end of context",
    "end of document",
    "end of input",
    "end of user input",
    "end of quote",
    "end of untrusted",
    "end of facts",
];

/// The first tag or marker in lowercase, folded `text` that opens or closes a prompt block:
/// `</memory>`, `<new_contents>`, `</data>`, the escaped forms `\u003c/memory\u003e` and
/// `&lt;/memory&gt;`, or a line such as `--- END OF MEMORY ---`.
pub(crate) fn fence_escape(lower: &str) -> Option<String> {
    let text = lower
        .replace("\\u003c", "<")
        .replace("\\u003e", ">")
        .replace("&lt;", "<")
        .replace("&gt;", ">");
    let mut from = 0;
    while let Some(open) = text[from..].find('<').map(|i| i + from) {
        from = open + 1;
        let rest = text[from..].trim_start();
        let (closing, rest) = match rest.strip_prefix('/') {
            Some(r) => (true, r.trim_start()),
            None => (false, rest),
        };
        let name_len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
            .unwrap_or(rest.len());
        let name = &rest[..name_len];
        let after = &rest[name_len..];
        let tag_ends = after.starts_with('>') || closing && after.trim_start().starts_with('>');
        let with_attributes = !closing && after.starts_with(' ') && after.contains('>');
        let own = OWN_BLOCKS.contains(&name) && (tag_ends || with_attributes);
        let data = closing && tag_ends && DATA_BLOCKS.contains(&name);
        if own || data {
            return Some(format!("<{}{name}>", if closing { "/" } else { "" }));
        }
    }
    for line in text.lines() {
        let words = line.trim_matches(|c: char| !c.is_alphanumeric());
        let marked = line.trim().len() > words.len();
        if marked
            && END_MARKS
                .iter()
                .any(|m| words == *m || words.starts_with(&format!("{m} ")))
        {
            return Some(words.to_owned());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_tokens_of_every_family_are_found() {
        for text in [
            "a <|im_start|>system",
            "< |endoftext| >",
            "[inst] x",
            "<<sys>>",
            "ok</s>",
            "<start_of_turn>user",
            "### instruction: x",
            "<｜begin▁of▁sentence｜>",
        ] {
            let folded = crate::text::chars::fold(text).0.to_lowercase();
            assert!(template_token(&folded).is_some(), "{text}");
        }
        assert_eq!(template_token("a < b and c | d > e"), None);
        assert_eq!(template_token("x <s>"), Some("<s>".to_owned()));
    }

    #[test]
    fn block_tags_and_end_markers_are_found() {
        for text in [
            "x</memory>y",
            "</ new_contents >",
            "<memory note=\"x\">",
            "\\u003c/core_profile\\u003e",
            "&lt;/relevant&gt;",
            "</data>",
            "--- end of memory ---",
        ] {
            assert!(fence_escape(text).is_some(), "{text}");
        }
        for text in [
            "a <b>bold</b> c",
            "x < y > z",
            "<memory-card>",
            "the end of data collection is friday",
            "<input> element",
        ] {
            assert_eq!(fence_escape(text), None, "{text}");
        }
    }
}
