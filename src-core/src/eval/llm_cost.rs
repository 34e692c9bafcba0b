//! What `add()` costs in LLM calls and prompt characters, measured deterministically.
//!
//! [`replay_adds`] replays the `add` changesets of a haema export (such as the bundled demo
//! sample), in order, through the real pipeline in a temporary store. Its providers are in
//! process: an LLM that answers each stage with the answer recorded for that add in the
//! export (and, for a stage the recording has no answer for, by a fixed rule) while counting
//! calls and prompt characters, and a bag-of-words hashing embedder (the one the demo sample
//! was made with). Nothing goes over the network, so the figures are the same on every run.
//!
//! After each add the replay makes the decision the export records for that changeset:
//! committed → approve, rejected → reject, reverted → approve (and revert where the export's
//! revert changeset comes), anything else stays pending. Core versions that a
//! person wrote (not made by a changeset) are applied before the first add made after them;
//! locks are applied at the start.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};

use async_trait::async_trait;
use serde::Serialize;
use serde_json::{Value, json};

use crate::config::MergeSettings;
use crate::provider::{Embedder, Llm, ProviderError, ProviderErrorKind, StructuredRequest, hash_vector};
use crate::transfer::Record;
use crate::types::{
    Changeset, ChangesetId, ChangesetKind, ChangesetStatus, CoreAuthor, CoreVersionId, LlmCall, MemoryStatus,
};
use crate::{
    config::{ReviewPolicy, Settings},
    error::{Error, Result},
    memory::Memory,
    pipeline::AddInput,
    types::core_md::CoreSections,
};

/// LLM calls and prompt characters of a stream of adds.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct LlmCost {
    /// Adds replayed.
    pub adds: usize,
    /// LLM calls they made (every attempt counts).
    pub llm_calls: usize,
    /// Characters (Unicode scalar values) of the system and user prompts of those calls.
    /// The answer schema is not counted.
    pub prompt_chars: usize,
    /// The same per stage (`pre_split`, `reconstruct`, `refine`, `core_update`), by name.
    pub stages: Vec<StageCost>,
}

/// Calls and prompt characters of one stage.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct StageCost {
    /// Stage name.
    pub stage: String,
    /// Calls.
    pub calls: usize,
    /// Characters of their system and user prompts.
    pub prompt_chars: usize,
}

impl LlmCost {
    /// LLM calls per add (0 when there were no adds).
    pub fn calls_per_add(&self) -> f64 {
        ratio(self.llm_calls, self.adds)
    }

    /// Prompt characters per add (0 when there were no adds).
    pub fn prompt_chars_per_add(&self) -> f64 {
        ratio(self.prompt_chars, self.adds)
    }
}

#[allow(clippy::cast_precision_loss)]
fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

/// How each recorded add is given to `add()` again.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ReplayInputs {
    /// As it was recorded: the raw text when there was one, else the list of items.
    #[default]
    AsRecorded,
    /// Always as one text (the raw text, or the items one per line), as an agent that calls
    /// `add(str)` would.
    AsText,
}

/// How to replay.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayOptions {
    /// How inputs are given.
    pub inputs: ReplayInputs,
    /// Remove `core_relevant` from the recorded reconstruction answers, so that the core
    /// step runs after every add as in HAEMA (a model that does not answer it).
    pub strip_core_relevant: bool,
    /// Related-memory lookup; must be what the export was made with to find the same
    /// related memories (see [`Replay::related_mismatches`]).
    pub merge: MergeSettings,
    /// Length of the hashing embedder's vectors.
    pub dims: usize,
}

impl ReplayOptions {
    /// The settings the bundled demo sample was made with (`make_demo_sample`): one related
    /// memory per new content within cosine distance 0.75, 64-number hashing vectors.
    pub fn demo() -> Self {
        Self {
            inputs: ReplayInputs::AsRecorded,
            strip_core_relevant: false,
            merge: MergeSettings {
                top_k: 1,
                distance_cutoff: 0.75,
            },
            dims: 64,
        }
    }
}

impl Default for ReplayOptions {
    fn default() -> Self {
        Self::demo()
    }
}

/// The memories and core of a store, for comparing two stores.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StoreState {
    /// Active memories' texts, sorted.
    pub active: Vec<String>,
    /// Pending memories' texts, sorted.
    pub pending: Vec<String>,
    /// The current core.md (its newest version), rendered from its four sections.
    pub core: String,
}

impl StoreState {
    /// The state a haema export describes.
    ///
    /// # Errors
    /// The text is not a haema export, or its newest core version does not parse.
    pub fn from_export(export_jsonl: &str) -> Result<Self> {
        let records = parse_export(export_jsonl)?;
        let mut active = Vec::new();
        let mut pending = Vec::new();
        let mut core: Option<(CoreVersionId, String)> = None;
        for record in records {
            match record {
                Record::Memory(m) if m.status == MemoryStatus::Active => active.push(m.content),
                Record::Memory(m) if m.status == MemoryStatus::Pending => pending.push(m.content),
                Record::CoreVersion(v) if core.as_ref().is_none_or(|(id, _)| v.id > *id) => {
                    core = Some((v.id, v.content));
                }
                _ => {}
            }
        }
        active.sort();
        pending.sort();
        let core = core.map(|(_, c)| c).unwrap_or_else(|| CoreSections::default().render());
        Ok(Self {
            active,
            pending,
            core: CoreSections::parse(&core)?.render(),
        })
    }
}

/// What a replay measured and left.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Replay {
    /// Calls and prompt characters.
    pub cost: LlmCost,
    /// The replayed store at the end.
    pub state: StoreState,
    /// Changesets (ids in the export) whose replay found other related memories than the
    /// recording did; empty when the replay used the export's lookup settings.
    pub related_mismatches: Vec<ChangesetId>,
}

/// Replays the adds of a haema export and counts what they cost (see the module docs).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")] async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # let dir = tempfile::tempdir()?; let memory = haema_core::Memory::open_with(dir.path(), Default::default(), None, None).await?;
/// use haema_core::eval::llm_cost::{ReplayOptions, StoreState, replay_adds};
/// // A store without an LLM records its adds as given; the replay puts an LLM in.
/// memory.add("The user is vegetarian.").await?;
/// memory.add("The user moved to Lyon.\nThey work at a bakery.").await?;
/// let mut export = Vec::new();
/// memory.export_jsonl(&mut export).await?;
/// let export = String::from_utf8(export)?;
/// let replay = replay_adds(&export, &ReplayOptions::demo()).await?;
/// let cost = &replay.cost;
/// println!("{:.1} LLM calls, {:.0} prompt characters per add", cost.calls_per_add(), cost.prompt_chars_per_add());
/// assert_eq!(cost.adds, 2);
/// assert_eq!(StoreState::from_export(&export)?.active.len(), 2);
/// assert_eq!(replay.state.active.len(), 3); // the replay's split made two facts of the second text
/// # Ok(()) }
/// ```
///
/// # Errors
/// The text is not a haema export, or the temporary store fails.
pub async fn replay_adds(export_jsonl: &str, options: &ReplayOptions) -> Result<Replay> {
    let records = parse_export(export_jsonl)?;
    let mut changesets: Vec<Changeset> = Vec::new();
    let mut person_cores = Vec::new();
    let mut locks = Vec::new();
    for record in records {
        match record {
            Record::Changeset(c) => changesets.push(*c),
            Record::CoreVersion(v)
                if v.changeset_id.is_none() && matches!(v.author, CoreAuthor::User | CoreAuthor::External) =>
            {
                person_cores.push(v);
            }
            Record::Lock { section } => locks.push(section),
            _ => {}
        }
    }
    changesets.sort_by_key(|c| c.id);
    person_cores.sort_by_key(|v| v.id);

    let dir = tempfile::tempdir().map_err(|source| Error::Io {
        action: "create directory",
        path: std::env::temp_dir(),
        source,
    })?;
    let llm = Arc::new(CountingLlm::new(options.strip_core_relevant));
    let embedder = Arc::new(HashingEmbedder { dims: options.dims });
    let settings = Settings {
        review: ReviewPolicy::Review,
        merge: options.merge,
        ..Settings::default()
    };
    let memory = Memory::open_with(dir.path(), settings, Some(llm.clone()), Some(embedder)).await?;
    for section in locks {
        memory.set_section_lock(section, true).await?;
    }
    let mut person_cores = person_cores.into_iter().peekable();
    let mut related_mismatches = Vec::new();
    let mut replayed_ids = HashMap::new();
    let mut adds = 0;
    for recorded in &changesets {
        while let Some(version) = person_cores.next_if(|v| v.created_at_ms <= recorded.created_at_ms) {
            memory.replace_core(&version.content).await?;
        }
        if recorded.kind == ChangesetKind::Revert {
            if let Some(id) = recorded.reverts_id.and_then(|r| replayed_ids.get(&r)) {
                memory.revert(*id).await?;
            }
            continue;
        }
        llm.expect(&recorded.llm_calls);
        let outcome = memory.add(replay_input(recorded, options.inputs)).await?;
        adds += 1;
        let Some(id) = outcome.changeset else { continue };
        replayed_ids.insert(recorded.id, id);
        let replayed = memory.changeset(id).await?;
        if related_texts(&replayed) != related_texts(recorded) {
            related_mismatches.push(recorded.id);
        }
        if replayed.status == ChangesetStatus::Pending {
            match recorded.status {
                ChangesetStatus::Committed | ChangesetStatus::Reverted => {
                    memory.approve(id).await?;
                }
                ChangesetStatus::Rejected => {
                    memory.reject(id).await?;
                }
                ChangesetStatus::Pending | ChangesetStatus::Stale => {}
            }
        }
    }
    let mut export = Vec::new();
    memory.export_jsonl(&mut export).await?;
    drop(memory);
    let state = StoreState::from_export(&String::from_utf8_lossy(&export))?;
    let mut cost = llm.cost();
    cost.adds = adds;
    Ok(Replay {
        cost,
        state,
        related_mismatches,
    })
}

/// [`replay_adds`] of the bundled demo sample (`src-tui/assets/demo.jsonl`) with
/// [`ReplayOptions::demo`]: the cost of its stream of adds.
///
/// # Errors
/// As [`replay_adds`].
pub async fn demo_stream_cost(sample_jsonl: &str) -> Result<LlmCost> {
    Ok(replay_adds(sample_jsonl, &ReplayOptions::demo()).await?.cost)
}

fn parse_export(text: &str) -> Result<Vec<Record>> {
    if !crate::transfer::is_export(text) {
        return Err(Error::InvalidArgument("the text is not a haema export".into()));
    }
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).map_err(|e| Error::InvalidArgument(format!("line {} of the export: {e}", i + 1)))
        })
        .collect()
}

fn replay_input(recorded: &Changeset, inputs: ReplayInputs) -> AddInput {
    match (&recorded.raw_input, inputs) {
        (Some(raw), _) => AddInput::Text(raw.clone()),
        (None, ReplayInputs::AsRecorded) => AddInput::Items(recorded.inputs.clone()),
        (None, ReplayInputs::AsText) => AddInput::Text(recorded.inputs.join("\n")),
    }
}

fn related_texts(changeset: &Changeset) -> Vec<&str> {
    let mut texts: Vec<&str> = changeset.related.iter().map(|r| r.content.as_str()).collect();
    texts.sort_unstable();
    texts
}

/// Answers each stage with the next answer recorded for it in the current add; counts.
struct CountingLlm {
    strip_core_relevant: bool,
    state: Mutex<CountingState>,
}

#[derive(Default)]
struct CountingState {
    recorded: HashMap<String, VecDeque<LlmCall>>,
    stages: BTreeMap<String, StageCost>,
}

impl CountingLlm {
    fn new(strip_core_relevant: bool) -> Self {
        Self {
            strip_core_relevant,
            state: Mutex::default(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, CountingState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The recorded calls of the next add.
    fn expect(&self, calls: &[LlmCall]) {
        let mut state = self.lock();
        state.recorded.clear();
        for call in calls {
            state
                .recorded
                .entry(call.stage.as_str().to_owned())
                .or_default()
                .push_back(call.clone());
        }
    }

    fn cost(&self) -> LlmCost {
        let state = self.lock();
        let stages: Vec<StageCost> = state.stages.values().cloned().collect();
        LlmCost {
            adds: 0,
            llm_calls: stages.iter().map(|s| s.calls).sum(),
            prompt_chars: stages.iter().map(|s| s.prompt_chars).sum(),
            stages,
        }
    }
}

#[async_trait]
impl Llm for CountingLlm {
    fn id(&self) -> String {
        "replay:counting".into()
    }

    async fn generate_structured(&self, request: StructuredRequest<'_>) -> std::result::Result<Value, ProviderError> {
        let mut state = self.lock();
        let stage = state
            .stages
            .entry(request.name.to_owned())
            .or_insert_with(|| StageCost {
                stage: request.name.to_owned(),
                ..StageCost::default()
            });
        stage.calls += 1;
        stage.prompt_chars += request.system.chars().count() + request.user.chars().count();
        let recorded = state.recorded.get_mut(request.name).and_then(VecDeque::pop_front);
        drop(state);
        match recorded {
            Some(LlmCall {
                answer: Some(mut answer),
                ..
            }) => {
                if self.strip_core_relevant
                    && let Some(object) = answer.as_object_mut()
                {
                    object.remove("core_relevant");
                }
                Ok(answer)
            }
            // A call that got no answer (the provider failed); what kind is not recorded.
            Some(LlmCall { error, .. }) => Err(ProviderError::new(
                self.id(),
                ProviderErrorKind::Network,
                error.unwrap_or_else(|| "no answer was recorded".into()),
            )),
            None => Ok(rule_answer(&request)),
        }
    }
}

/// The answer for a stage the recording has none for: a split keeps each line of the raw
/// text as one item; a reconstruction keeps related and new contents as they are; a core
/// update declines.
fn rule_answer(request: &StructuredRequest<'_>) -> Value {
    match request.name {
        "pre_split" => {
            let lines: Vec<String> = crate::pipeline::prompts::block_items(request.user, "raw_input")
                .iter()
                .flat_map(|t| t.lines().map(str::trim).filter(|l| !l.is_empty()).map(str::to_owned))
                .collect();
            json!({ "contents": lines })
        }
        "reconstruct" | "refine" => {
            let mut items = crate::pipeline::prompts::block_items(request.user, "related_memories");
            items.extend(crate::pipeline::prompts::block_items(request.user, "new_contents"));
            json!({ "memories": items, "coverage": "complete" })
        }
        _ => json!({ "should_update": false, "core_markdown": null }),
    }
}

/// The demo sample's embedder: a bag of hashed words (see [`hash_vector`]).
struct HashingEmbedder {
    dims: usize,
}

#[async_trait]
impl Embedder for HashingEmbedder {
    fn id(&self) -> String {
        format!("replay:hash-{}", self.dims)
    }

    fn dims(&self) -> usize {
        self.dims
    }

    async fn embed_query(&self, texts: &[String]) -> std::result::Result<Vec<Vec<f32>>, ProviderError> {
        Ok(texts.iter().map(|t| hash_vector(t, self.dims)).collect())
    }

    async fn embed_document(&self, texts: &[String]) -> std::result::Result<Vec<Vec<f32>>, ProviderError> {
        self.embed_query(texts).await
    }
}
