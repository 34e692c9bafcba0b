//! Entry points for the fuzz targets in `fuzz/` and the test that runs their corpora on
//! stable (feature `fuzzing`, not part of the API): how the engine reads a model's answer,
//! each piece exactly as the providers and the pipeline call it.

use serde_json::Value;

use crate::pipeline::stages;

/// The JSON object in a model's text, found as the OpenAI and Gemini clients find it: the
/// whole text, a fenced block, or the first balanced `{...}` inside chatter.
pub fn extract_object(text: &str) -> Option<Value> {
    crate::provider::json_text::extract_object(text)
}

/// What each stage's validation makes of one answer.
#[derive(Debug)]
pub struct StageAnswers {
    /// `pre_split`: the items, normalised (trimmed, no empty one, no repeat).
    pub pre_split: Result<Vec<String>, String>,
    /// `reconstruct` / `refine`: the accepted memories and `core_relevant`.
    pub reconstruct: Result<(Vec<String>, Option<bool>), String>,
    /// `core_update`: `should_update` and `core_markdown`, before the markdown is parsed.
    pub core_update: Result<(bool, Option<String>), String>,
}

/// Validates `answer` as the answer of each of the three stages.
pub fn stage_answers(answer: &Value) -> StageAnswers {
    StageAnswers {
        pre_split: stages::parse::<stages::PreSplit>(answer).map(|p| stages::normalize(p.contents)),
        reconstruct: stages::accept_reconstruction(answer).map(|a| (a.memories, a.core_relevant)),
        core_update: stages::parse::<stages::CoreUpdate>(answer).map(|u| (u.should_update, u.core_markdown)),
    }
}
