//! `Engine`: one open store, its methods the package's `Memory` calls. Arguments and
//! answers that have structure travel as JSON text in the shapes of `haema-core`'s types
//! ([`crate::args`]).

use std::sync::Arc;

use haema_core::provider::{Embedder, Llm};
use haema_core::{
    ChangesetFilter, ChangesetId, ChangesetStatus, ForgetRequest, ImportItem, LatestOptions, LatestStart, Memory,
    MemoryAttributes, MemoryFilter, MemoryId, OpenOptions, RecallOptions, ReviewPolicy, SearchOptions, Settings,
};
use pyo3::prelude::*;

use crate::args::{
    Contents, haema_error, invalid, json, marked_json, mode, parse, parse_scope, review_is_set, section, store_dir,
};
use crate::calls::run;
use crate::clients::{PyEmbedder, PyLlm};
use crate::marked;

/// One open store.
#[pyclass(frozen, module = "haema_rs._native")]
pub struct Engine {
    memory: Memory,
    /// The process that opened it: a child made by `fork()` must open the store again
    /// (SQLite's connections do not survive a fork).
    pid: u32,
}

impl Engine {
    fn new(memory: Memory) -> Self {
        Self {
            memory,
            pid: std::process::id(),
        }
    }

    /// Runs `work` on this engine's memory (see [`run`]).
    fn run<T, F, Fut>(&self, py: Python<'_>, work: F) -> PyResult<T>
    where
        T: Send,
        F: FnOnce(Memory) -> Fut,
        Fut: std::future::Future<Output = haema_core::Result<T>> + Send,
    {
        if self.pid != std::process::id() {
            return Err(haema_error(&haema_core::Error::InvalidState(
                "this Memory was opened in the parent of this process (before a fork): open the store again in this process".into(),
            )));
        }
        run(py, work(self.memory.clone()))
    }
}

#[pymethods]
impl Engine {
    /// Opens (or makes) the store at `path` with the program's own clients, as HAEMA's
    /// `Memory` does. `review` `None` keeps a policy the store's settings name, else `auto`.
    #[staticmethod]
    #[pyo3(signature = (path, *, embedder, embedder_id, dims, llm, llm_id, merge_top_k, merge_distance_cutoff, review=None, scope=None))]
    #[allow(clippy::too_many_arguments)]
    fn open_with(
        py: Python<'_>,
        path: &str,
        embedder: Option<Py<PyAny>>,
        embedder_id: String,
        dims: usize,
        llm: Option<Py<PyAny>>,
        llm_id: String,
        merge_top_k: i64,
        merge_distance_cutoff: f64,
        review: Option<String>,
        scope: Option<String>,
    ) -> PyResult<Self> {
        // HAEMA's rule, in the core's words, before anything touches the disk.
        if let Some((setting, rule)) = haema_core::config::merge_rule_broken(merge_top_k, merge_distance_cutoff) {
            let (argument, value) = match setting {
                "merge.top_k" => ("merge_top_k", merge_top_k.to_string()),
                _ => ("merge_distance_cutoff", merge_distance_cutoff.to_string()),
            };
            return Err(invalid(format!("{rule} (given {argument}={value})")));
        }
        let dir = store_dir(path)?;
        let env = |name: &str| std::env::var(name).ok();
        let mut settings = Settings::load_with_env(&dir, env).map_err(|e| crate::errors::to_py_err(py, &e))?;
        settings.review = match review {
            Some(review) => review
                .parse::<ReviewPolicy>()
                .map_err(|_| invalid(format!("no review policy `{review}`: give auto, guarded or review")))?,
            None if review_is_set(&dir) => settings.review,
            None => ReviewPolicy::Auto,
        };
        if let Some(scope) = scope {
            settings.scope = parse_scope(&scope)?;
        }
        settings.merge.top_k = usize::try_from(merge_top_k).unwrap_or(usize::MAX);
        settings.merge.distance_cutoff = merge_distance_cutoff;
        // HAEMA splits every text it is given.
        settings.llm.split_short_texts = true;
        let embedder = embedder.map(|e| Arc::new(PyEmbedder::new(e, embedder_id, dims)) as Arc<dyn Embedder>);
        let llm = llm.map(|l| Arc::new(PyLlm::new(l, llm_id)) as Arc<dyn Llm>);
        let memory = run(py, Memory::open_with(dir, settings, llm, embedder))?;
        Ok(Self::new(memory))
    }

    /// Opens the store at `path` as the `haema` binary does: with the providers its settings
    /// name (the local model by default, fetched on first use when `download`).
    #[staticmethod]
    #[pyo3(signature = (path, *, download=true, scope=None))]
    fn open(py: Python<'_>, path: &str, download: bool, scope: Option<String>) -> PyResult<Self> {
        let dir = store_dir(path)?;
        let mut settings = Settings::load(&dir).map_err(|e| crate::errors::to_py_err(py, &e))?;
        if let Some(scope) = scope {
            settings.scope = parse_scope(&scope)?;
        }
        let options = OpenOptions {
            download,
            catch_up: download,
            progress: None,
        };
        let memory = run(py, Memory::open_with_options(dir, settings, options))?;
        Ok(Self::new(memory))
    }

    /// A handle on the same store for one user's memories.
    fn for_user(&self, py: Python<'_>, user_id: &str) -> PyResult<Self> {
        let memory = self
            .memory
            .for_user(user_id)
            .map_err(|e| crate::errors::to_py_err(py, &e))?;
        Ok(Self { memory, pid: self.pid })
    }

    #[getter]
    fn user(&self) -> Option<String> {
        self.memory.user().map(str::to_owned)
    }

    #[getter]
    fn requires_user(&self) -> bool {
        self.memory.requires_user()
    }

    #[getter]
    fn location(&self) -> String {
        self.memory.location()
    }

    #[getter]
    fn review(&self) -> &'static str {
        self.memory.settings().review.as_str()
    }

    /// Why search is by words alone, or `None`.
    #[getter]
    fn lexical_reason(&self) -> Option<String> {
        self.memory.lexical_reason().map(ToString::to_string)
    }

    #[pyo3(signature = (contents, attributes=None))]
    fn add(&self, py: Python<'_>, contents: Contents, attributes: Option<&str>) -> PyResult<String> {
        let attributes: MemoryAttributes = parse("attributes", attributes)?;
        let input = match contents {
            Contents::Text(text) => haema_core::AddInput::Text(text),
            Contents::Items(items) => haema_core::AddInput::Items(items),
        };
        let outcome = self.run(py, |m| async move { m.add_with(input, attributes).await })?;
        json(&outcome)
    }

    /// Adds items as they are, with no LLM, as `haema import` does: each screened (secrets,
    /// size, prompt injection), a text the store already holds skipped. `items` are
    /// `(text, attributes JSON)` pairs; the answer is the import's report.
    fn import_items(&self, py: Python<'_>, items: Vec<(String, Option<String>)>, source: String) -> PyResult<String> {
        let items = items
            .into_iter()
            .map(|(content, attributes)| {
                Ok(ImportItem {
                    content,
                    timestamp_ms: None,
                    attributes: parse("attributes", attributes.as_deref())?,
                })
            })
            .collect::<PyResult<Vec<_>>>()?;
        let report = self.run(py, |m| async move { m.import_items(items, &source).await })?;
        json(&report)
    }

    /// Adds conversation text as a capture: always split into facts by the LLM, under the
    /// review policy, never stored as said (without an LLM nothing is stored).
    #[pyo3(signature = (text, attributes=None))]
    fn capture(&self, py: Python<'_>, text: String, attributes: Option<&str>) -> PyResult<String> {
        let attributes: MemoryAttributes = parse("attributes", attributes)?;
        let outcome = self.run(py, |m| async move { m.capture(&text, attributes).await })?;
        json(&outcome)
    }

    fn get_core(&self, py: Python<'_>) -> PyResult<String> {
        let text = self.run(py, |m| async move { m.get_core().await })?;
        Ok(crate::marked::core(&text))
    }

    fn core_sections(&self, py: Python<'_>) -> PyResult<String> {
        let sections = self.run(py, |m| async move { crate::marked::sections(&m.get_core().await?) })?;
        json(&sections)
    }

    fn locked_sections(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        let locked = self.run(py, |m| async move { m.locked_sections().await })?;
        Ok(locked.into_iter().map(|s| s.name().to_owned()).collect())
    }

    fn set_core_section(&self, py: Python<'_>, name: &str, text: String) -> PyResult<i64> {
        let section = section(name)?;
        let id = self.run(py, |m| async move { m.set_core_section(section, &text).await })?;
        Ok(id.into())
    }

    fn set_section_lock(&self, py: Python<'_>, name: &str, locked: bool) -> PyResult<()> {
        let section = section(name)?;
        self.run(py, |m| async move { m.set_section_lock(section, locked).await })
    }

    fn core_versions(&self, py: Python<'_>) -> PyResult<String> {
        let versions = self.run(py, |m| async move { m.core_versions().await })?;
        json(&versions)
    }

    #[pyo3(signature = (begin, count, filter=None))]
    fn get_latest(&self, py: Python<'_>, begin: i64, count: i64, filter: Option<&str>) -> PyResult<String> {
        let filter: MemoryFilter = parse("filter", filter)?;
        let records = self.run(py, |m| async move {
            m.latest_records(
                count,
                &LatestOptions {
                    start: LatestStart::Begin(begin),
                    filter,
                },
            )
            .await
        })?;
        marked_json(marked::records(&records))
    }

    #[pyo3(signature = (query, n, mode_name="hybrid", min_score=None, filter=None))]
    fn search(
        &self,
        py: Python<'_>,
        query: String,
        n: i64,
        mode_name: &str,
        min_score: Option<f64>,
        filter: Option<&str>,
    ) -> PyResult<String> {
        let options = SearchOptions {
            mode: mode(mode_name)?,
            filter: parse("filter", filter)?,
            min_score,
        };
        let results = self.run(py, |m| async move { m.search_records(&query, n, &options).await })?;
        marked_json(marked::search(&results))
    }

    #[pyo3(signature = (query, budget, max_memories, latest, min_score=None, timeout_ms=None, filter=None))]
    #[allow(clippy::too_many_arguments)]
    fn recall(
        &self,
        py: Python<'_>,
        query: String,
        budget: usize,
        max_memories: usize,
        latest: usize,
        min_score: Option<f64>,
        timeout_ms: Option<u64>,
        filter: Option<&str>,
    ) -> PyResult<String> {
        let options = RecallOptions {
            budget,
            filter: parse("filter", filter)?,
            min_score,
            max_memories,
            latest,
            timeout: timeout_ms.map(RecallOptions::timeout_ms),
        };
        let recall = self.run(py, |m| async move { m.recall_with(&query, &options).await })?;
        json(&recall)
    }

    fn memory(&self, py: Python<'_>, id: &str) -> PyResult<String> {
        let id = MemoryId::from(id);
        let record = self.run(py, |m| async move { m.memory(&id).await })?;
        marked_json(marked::record(&record))
    }

    fn pending(&self, py: Python<'_>) -> PyResult<String> {
        let pending = self.run(py, |m| async move { m.awaiting_review().await })?;
        json(&pending)
    }

    #[pyo3(signature = (status=None))]
    fn changesets(&self, py: Python<'_>, status: Option<&str>) -> PyResult<String> {
        let filter = match status {
            None => ChangesetFilter::All,
            Some(status) => ChangesetFilter::Status(status.parse::<ChangesetStatus>().map_err(|_| {
                invalid(format!(
                    "no changeset status `{status}`: give pending, committed, rejected, reverted or stale"
                ))
            })?),
        };
        let changesets = self.run(py, |m| async move { m.changesets(filter).await })?;
        json(&changesets)
    }

    fn changeset(&self, py: Python<'_>, id: i64) -> PyResult<String> {
        let changeset = self.run(py, |m| async move { m.changeset(ChangesetId::from(id)).await })?;
        json(&changeset)
    }

    #[pyo3(signature = (limit, before=None))]
    fn history(&self, py: Python<'_>, limit: usize, before: Option<i64>) -> PyResult<String> {
        let before = before.map(ChangesetId::from);
        let summaries = self.run(py, |m| async move { m.changeset_summaries(before, limit).await })?;
        json(&summaries)
    }

    #[pyo3(signature = (id, edited=None))]
    fn approve(&self, py: Python<'_>, id: i64, edited: Option<Vec<String>>) -> PyResult<String> {
        let id = ChangesetId::from(id);
        let changeset = self.run(py, |m| async move {
            match edited {
                Some(memories) => m.approve_edited(id, memories).await,
                None => m.approve(id).await,
            }
        })?;
        json(&changeset)
    }

    fn reject(&self, py: Python<'_>, id: i64) -> PyResult<String> {
        let changeset = self.run(py, |m| async move { m.reject(ChangesetId::from(id)).await })?;
        json(&changeset)
    }

    fn revert(&self, py: Python<'_>, id: i64) -> PyResult<String> {
        let changeset = self.run(py, |m| async move { m.revert(ChangesetId::from(id)).await })?;
        json(&changeset)
    }

    fn rerun(&self, py: Python<'_>, id: i64) -> PyResult<String> {
        let outcome = self.run(py, |m| async move { m.rerun(ChangesetId::from(id)).await })?;
        json(&outcome)
    }

    /// Sets one memory aside: at once as a person (`by_agent` false), or as the review
    /// policy says for an agent's request.
    #[pyo3(signature = (id, by_agent=false))]
    fn delete_memory(&self, py: Python<'_>, id: &str, by_agent: bool) -> PyResult<String> {
        let id = MemoryId::from(id);
        let outcome = self.run(py, |m| async move {
            if by_agent {
                m.request_delete(&id).await
            } else {
                m.delete_memory(&id).await
            }
        })?;
        json(&outcome)
    }

    /// Replaces one memory's text, its attributes or both: at once as a person (`by_agent`
    /// false), or, for an agent's new text, as the review policy says (`request_update`).
    #[pyo3(signature = (id, content=None, attributes=None, by_agent=false))]
    fn update_memory(
        &self,
        py: Python<'_>,
        id: &str,
        content: Option<String>,
        attributes: Option<&str>,
        by_agent: bool,
    ) -> PyResult<String> {
        let id = MemoryId::from(id);
        let attributes: Option<MemoryAttributes> = match attributes {
            Some(text) => Some(parse("attributes", Some(text))?),
            None => None,
        };
        if by_agent && attributes.is_some() {
            return Err(invalid(
                "an agent's update replaces a memory's text only: change its attributes as a person (by_agent=False)"
                    .into(),
            ));
        }
        let outcome = self.run(py, |m| async move {
            let mut outcome = None;
            if let Some(content) = content {
                let made = if by_agent {
                    m.request_update(&id, &content).await?
                } else {
                    m.update_memory(&id, &content).await?
                };
                outcome = Some(made);
            }
            if let Some(attributes) = attributes {
                let current = match outcome.as_ref().and_then(|o| o.memory_ids.first()) {
                    Some(new_id) => new_id.clone(),
                    None => id,
                };
                outcome = Some(m.update_attributes(&current, attributes).await?);
            }
            outcome.ok_or_else(|| haema_core::Error::InvalidArgument("give a new text, new attributes or both".into()))
        })?;
        json(&outcome)
    }

    fn set_pinned(&self, py: Python<'_>, id: &str, pinned: bool) -> PyResult<String> {
        let id = MemoryId::from(id);
        let record = self.run(py, |m| async move { m.set_pinned(&id, pinned).await })?;
        marked_json(marked::record(&record))
    }

    /// Removes memories for good (by id, or every one mentioning a phrase).
    #[pyo3(signature = (memory_ids, mentioning=None))]
    fn forget(&self, py: Python<'_>, memory_ids: Vec<String>, mentioning: Option<String>) -> PyResult<String> {
        let request = ForgetRequest {
            memory_ids: memory_ids.into_iter().map(MemoryId::from).collect(),
            mentioning,
        };
        let changeset = self.run(py, |m| async move { m.forget(request).await })?;
        json(&changeset)
    }

    fn purge_user(&self, py: Python<'_>, user_id: String) -> PyResult<String> {
        let receipt = self.run(py, |m| async move { m.purge_user(&user_id).await })?;
        json(&receipt)
    }

    fn get_agent_state(&self, py: Python<'_>, agent_id: String, key: String) -> PyResult<Option<String>> {
        let state = self.run(py, |m| async move { m.get_agent_state(&agent_id, &key).await })?;
        state.map(|s| json(&s)).transpose()
    }

    fn set_agent_state(&self, py: Python<'_>, agent_id: String, key: String, value: &str) -> PyResult<String> {
        let value: serde_json::Value =
            serde_json::from_str(value).map_err(|e| invalid(format!("the value is not JSON: {e}")))?;
        let state = self.run(py, |m| async move { m.set_agent_state(&agent_id, &key, value).await })?;
        json(&state)
    }

    fn list_agent_state(&self, py: Python<'_>, agent_id: String) -> PyResult<String> {
        let states = self.run(py, |m| async move { m.list_agent_state(&agent_id).await })?;
        json(&states)
    }

    fn delete_agent_state(&self, py: Python<'_>, agent_id: String, key: String) -> PyResult<bool> {
        self.run(py, |m| async move { m.delete_agent_state(&agent_id, &key).await })
    }

    fn info(&self, py: Python<'_>) -> PyResult<String> {
        let info = self.run(py, |m| async move { m.info().await })?;
        json(&info)
    }

    /// Makes the vectors of memories added while the embedder was away; how many.
    fn catch_up_embeddings(&self, py: Python<'_>) -> PyResult<usize> {
        self.run(py, |m| async move { m.catch_up_embeddings(|_| {}).await })
    }
}
