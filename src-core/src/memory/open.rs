//! Opening a store: which embedder it uses, the default model fetched on first use, and the
//! vectors of memories written while the model was missing made afterwards.
//!
//! A store made without an `[embedder]` setting uses the local model. Until that model is
//! on this machine the store works by words alone and records that it wants the model
//! (`meta.embedder_wanted`); once the model is there, the next open embeds every memory
//! (resumable, other processes may keep writing) and switches the store to vectors. A store
//! whose model went missing later keeps its vectors; memories written meanwhile are marked
//! (`meta.vectors_behind`) and get their vectors on the next open with the model.

use crate::store::MetaKey;
use std::path::Path;
use std::sync::Arc;

use crate::config::{ProviderKind, Settings};
use crate::provider::Embedder;
use crate::store::Store;
use crate::types::MemoryStatus;
use crate::{
    error::{Error, Result},
    maintenance::ReembedProgress,
};

/// How the id of an embedder that lives in another program's code begins (the Python
/// `Memory`'s clients record `python:<their class>`): a store made with one opens
/// elsewhere by words.
pub const CLIENT_EMBEDDER_PREFIX: &str = "python:";

/// What opening a store does about its embedding model.
///
/// ```no_run
/// use haema_core::{Memory, OpenOptions, OpenProgress, Settings};
/// # async fn demo(dir: &std::path::Path) -> haema_core::Result<()> {
/// // Fetch the model on first use and give older memories their vectors, telling how it goes.
/// let options = OpenOptions::full(|progress| match progress {
///     OpenProgress::Download(p) => eprintln!("{}: {} bytes", p.file, p.bytes_done),
///     OpenProgress::Vectors(p) => eprintln!("vectors: {} of {}", p.done, p.total),
/// });
/// let memory = Memory::open_with_options(dir, Settings::load(dir)?, options).await?;
/// // Or open at once with what is on this machine, searching by words until the model is here.
/// let memory = Memory::open_with_options(dir, Settings::load(dir)?, OpenOptions::quick()).await?;
/// if let Some(reason) = memory.lexical_reason() {
///     eprintln!("{reason}");
/// }
/// # Ok(()) }
/// ```
#[derive(Clone, Default)]
pub struct OpenOptions {
    /// Download a missing local model from the Hugging Face Hub (never with
    /// `HF_HUB_OFFLINE`). Without it a missing model leaves the store lexical for now.
    pub download: bool,
    /// Give memories that lack vectors their vectors before returning. Without it the store
    /// stays lexical until an open that does (see [`LexicalReason::VectorsPending`]).
    pub catch_up: bool,
    /// Told how the download and the catch-up advance.
    pub progress: Option<Arc<dyn Fn(OpenProgress) + Send + Sync>>,
}

impl std::fmt::Debug for OpenOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenOptions")
            .field("download", &self.download)
            .field("catch_up", &self.catch_up)
            .finish_non_exhaustive()
    }
}

impl OpenOptions {
    /// Download and catch up, reporting to `progress`.
    pub fn full(progress: impl Fn(OpenProgress) + Send + Sync + 'static) -> Self {
        Self {
            download: true,
            catch_up: true,
            progress: Some(Arc::new(progress)),
        }
    }

    /// Neither download nor catch up: open at once with what is on this machine.
    pub fn quick() -> Self {
        Self::default()
    }

    fn report(&self, event: OpenProgress) {
        if let Some(progress) = &self.progress {
            progress(event);
        }
    }
}

/// How opening a store advances.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OpenProgress {
    /// The embedding model is downloading.
    Download(crate::provider::hub::FetchProgress),
    /// Memories are getting their vectors.
    Vectors(ReembedProgress),
}

/// Why a store answers by words alone for now.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "specta", derive(specta::Type))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LexicalReason {
    /// The store has no embedder: it was made lexical-only, or switched to none.
    NoEmbedder,
    /// The local model is not on this machine.
    ModelMissing {
        /// The model's name.
        model: String,
        /// Why it is not there (offline, the download failed, …).
        reason: String,
    },
    /// The model is here but some memories have no vectors yet.
    VectorsPending {
        /// The model's name.
        model: String,
    },
    /// The store's vectors come from a program's own embedding client (the Python
    /// `Memory`'s), which only that program runs.
    ClientEmbedder {
        /// The client's id, as the store records it (`python:…`).
        embedder: String,
    },
}

impl LexicalReason {
    /// Whether the store is meant to have vectors and gets them once its model is here
    /// (so a front end fetches it in the background).
    pub fn waits_for_model(&self) -> bool {
        matches!(self, Self::ModelMissing { .. } | Self::VectorsPending { .. })
    }
}

impl std::fmt::Display for LexicalReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NoEmbedder => write!(f, "this store has no embedder, so search is lexical (by words only)"),
            Self::ModelMissing { model, reason } => write!(
                f,
                "search is lexical (by words only) until the embedding model {model} is on this machine: {reason}"
            ),
            Self::VectorsPending { model } => write!(
                f,
                "search is lexical (by words only) until the memories have their vectors from {model}"
            ),
            Self::ClientEmbedder { embedder } => write!(
                f,
                "search is lexical (by words only) here: the store's vectors come from {embedder}, the embedding client of a Python program, which only that program runs; memories added here get their vectors when it opens the store again"
            ),
        }
    }
}

/// The embedder a store opens with, and why it has none when it has none.
pub(crate) struct Resolved {
    pub(crate) embedder: Option<Arc<dyn Embedder>>,
    pub(crate) lexical: Option<LexicalReason>,
}

/// What the store records about its vectors.
struct Recorded {
    embedder: Option<String>,
    dims: usize,
    wanted: Option<String>,
    behind: bool,
    has_memories: bool,
}

fn recorded(store: &Store) -> Result<Recorded> {
    store.read(|conn| {
        Ok(Recorded {
            embedder: conn.meta(MetaKey::Embedder)?,
            dims: conn.meta(MetaKey::Dims)?.and_then(|d| d.parse().ok()).unwrap_or(0),
            wanted: conn.meta(MetaKey::EmbedderWanted)?,
            behind: conn.meta(MetaKey::VectorsBehind)?.is_some(),
            has_memories: conn.memories().any_with(&[
                MemoryStatus::Active,
                MemoryStatus::Superseded,
                MemoryStatus::Pending,
            ])?,
        })
    })
}

async fn blocking<T: Send + 'static>(f: impl FnOnce() -> Result<T> + Send + 'static) -> Result<T> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| Error::Internal(e.to_string()))?
}

/// Opens the store folder and settles which embedder it uses: the configured one, or for a
/// store without an `[embedder]` setting the local model (fetched when allowed), catching up
/// missing vectors when allowed.
pub(crate) async fn open_store(
    dir: &Path,
    settings: &Settings,
    options: &OpenOptions,
) -> Result<(Arc<Store>, Resolved)> {
    let path = dir.to_path_buf();
    let store = Arc::new(blocking(move || Store::open(&path)).await?);
    let before = {
        let store = Arc::clone(&store);
        blocking(move || recorded(&store)).await?
    };
    let e = &settings.embedder;
    // An existing lexical-only store keeps being one unless an embedder is configured.
    let keeps_lexical = e.is_default()
        && before.has_memories
        && before.wanted.is_none()
        && before.embedder.as_deref().is_none_or(|id| id == "none");
    if keeps_lexical {
        let store2 = Arc::clone(&store);
        blocking(move || check(&store2, None)).await?;
        return Ok((
            store,
            Resolved {
                embedder: None,
                lexical: Some(LexicalReason::NoEmbedder),
            },
        ));
    }
    // A store whose vectors come from a program's own embedding client (the Python
    // `Memory`'s): only that program can make them, so here it is searched by words, and
    // what is added meanwhile gets its vectors when the program opens the store again.
    if let Some(id) = before
        .embedder
        .as_deref()
        .filter(|id| e.is_default() && id.starts_with(CLIENT_EMBEDDER_PREFIX))
    {
        return Ok((
            store,
            Resolved {
                embedder: None,
                lexical: Some(LexicalReason::ClientEmbedder {
                    embedder: id.to_owned(),
                }),
            },
        ));
    }
    // A store made with a remote embedder needs it configured again: say so before
    // downloading a model it cannot use.
    if let Some(id) = before
        .embedder
        .as_deref()
        .filter(|id| e.is_default() && before.has_memories && *id != "none" && !id.starts_with("local:"))
    {
        return Err(Error::EmbedderMismatch {
            stored: id.to_owned(),
            stored_dims: before.dims,
            configured: format!("the default local model {}", e.model_name()),
            configured_dims: 0,
        });
    }
    if e.kind() != ProviderKind::Local {
        let embedder = settings.build_embedder()?;
        let identity = embedder.as_ref().map(|e| (e.id(), e.dims()));
        let store2 = Arc::clone(&store);
        blocking(move || check(&store2, identity)).await?;
        let lexical = embedder.is_none().then_some(LexicalReason::NoEmbedder);
        return finish(
            store,
            embedder,
            lexical,
            before.behind,
            options,
            settings.embedder.on_add,
        )
        .await;
    }
    let model = e.model_name();
    let found = local_embedder(settings, &model, options).await?;
    // A download takes a while, and other processes (or this one's other handle) may have
    // written meanwhile: decide on the store as it is now.
    let before = {
        let store = Arc::clone(&store);
        blocking(move || recorded(&store)).await?
    };
    match found {
        Ok(embedder) => {
            let pending = before.wanted.is_some() && before.embedder.as_deref().is_none_or(|id| id == "none");
            // The store waited for this model: give every memory its vector. An empty store
            // goes through the same re-embedding when it may, since memories another
            // process adds meanwhile are embedded before its switch.
            if pending && (before.has_memories || options.catch_up) {
                if !options.catch_up {
                    return Ok((
                        store,
                        Resolved {
                            embedder: None,
                            lexical: Some(LexicalReason::VectorsPending { model }),
                        },
                    ));
                }
                let progress = options.clone();
                let done = crate::maintenance::reembed_unless_busy(dir, Some(Arc::clone(&embedder)), move |p| {
                    progress.report(OpenProgress::Vectors(p));
                })
                .await?;
                if done.is_none() {
                    // Another process is making the vectors; meanwhile, words (what is
                    // written now gets its vector before that process switches the store).
                    return Ok((
                        store,
                        Resolved {
                            embedder: None,
                            lexical: Some(LexicalReason::VectorsPending { model }),
                        },
                    ));
                }
                let store2 = Arc::clone(&store);
                blocking(move || store2.write(|tx| tx.delete_meta(MetaKey::EmbedderWanted))).await?;
            }
            let identity = Some((embedder.id(), embedder.dims()));
            let store2 = Arc::clone(&store);
            blocking(move || check(&store2, identity)).await?;
            finish(
                store,
                Some(embedder),
                None,
                before.behind,
                options,
                settings.embedder.on_add,
            )
            .await
        }
        Err(reason) => {
            let lexical = LexicalReason::ModelMissing {
                model: model.clone(),
                reason,
            };
            let has_vectors = before.embedder.as_deref().is_some_and(|id| id != "none");
            if has_vectors && before.has_memories {
                // The store's vectors stay; what is written meanwhile catches up later.
                return Ok((
                    store,
                    Resolved {
                        embedder: None,
                        lexical: Some(lexical),
                    },
                ));
            }
            if before.has_memories && before.wanted.is_none() {
                // Explicitly configured local model on a lexical store with memories.
                return Err(Error::EmbedderMismatch {
                    stored: "none".into(),
                    stored_dims: 0,
                    configured: format!("local:{model}"),
                    configured_dims: 0,
                });
            }
            if before.wanted.is_some() {
                return Ok((
                    store,
                    Resolved {
                        embedder: None,
                        lexical: Some(lexical),
                    },
                ));
            }
            let wanted = format!("local:{model}");
            let store2 = Arc::clone(&store);
            blocking(move || {
                store2.write(|tx| {
                    tx.vectors_mut().drop_all()?;
                    tx.set_meta(MetaKey::Embedder, "none")?;
                    tx.set_meta(MetaKey::Dims, "0")?;
                    tx.set_meta(MetaKey::EmbedderWanted, &wanted)
                })
            })
            .await?;
            Ok((
                store,
                Resolved {
                    embedder: None,
                    lexical: Some(lexical),
                },
            ))
        }
    }
}

/// Catches up memories written without vectors into a store that has them, then returns.
async fn finish(
    store: Arc<Store>,
    embedder: Option<Arc<dyn Embedder>>,
    lexical: Option<LexicalReason>,
    behind: bool,
    options: &OpenOptions,
    on_add: crate::config::EmbedOnAdd,
) -> Result<(Arc<Store>, Resolved)> {
    if let Some(embedder) = &embedder
        && behind
        && options.catch_up
        && on_add == crate::config::EmbedOnAdd::Now
    {
        let progress = options.clone();
        // An embedder that fails now leaves them for a later open or add: the store works
        // meanwhile, finding those memories by words.
        let _ = crate::maintenance::fill_missing(&store, Arc::clone(embedder), move |p| {
            progress.report(OpenProgress::Vectors(p));
        })
        .await;
    }
    Ok((store, Resolved { embedder, lexical }))
}

/// The local model: loaded from its folder or the cache, else downloaded when allowed.
/// `Ok(Err(reason))` when it is not to be had now.
async fn local_embedder(
    settings: &Settings,
    model: &str,
    options: &OpenOptions,
) -> Result<std::result::Result<Arc<dyn Embedder>, String>> {
    #[cfg(feature = "local-embed")]
    {
        use crate::provider::local::{LocalEmbedder, fetch};
        let batch = settings.embedder.batch_size;
        let check_dims = |embedder: LocalEmbedder| -> Result<Arc<dyn Embedder>> {
            if let Some(dims) = settings.embedder.dims.filter(|d| *d != embedder.dims()) {
                return Err(Error::Config(format!(
                    "HAEMA_EMBED_DIMS is {dims} but the local model `{model}` makes {}-number vectors; unset HAEMA_EMBED_DIMS",
                    embedder.dims()
                )));
            }
            Ok(Arc::new(embedder))
        };
        if !fetch::is_hub_name(model) {
            // A folder: missing or broken is a configuration error, as it always was.
            return Ok(Ok(check_dims(LocalEmbedder::load(model, batch)?)?));
        }
        let progress = options.clone();
        let found = fetch::load_or_fetch(model, batch, options.download, move |p| {
            progress.report(OpenProgress::Download(p.clone()));
        })
        .await;
        match found {
            Ok(embedder) => Ok(Ok(check_dims(embedder)?)),
            Err(reason) => Ok(Err(reason)),
        }
    }
    #[cfg(not(feature = "local-embed"))]
    {
        let _ = (settings, options);
        Ok(Err(format!(
            "this haema was built without the local embedder (feature `local-embed`), so {model} cannot run here"
        )))
    }
}

/// Checks (or, for a new store, records) the embedder identity. Takes the write lock only
/// when something has to be recorded.
pub(crate) fn check(store: &Store, configured: Option<(String, usize)>) -> Result<()> {
    let (configured_id, configured_dims) = configured.unwrap_or_else(|| ("none".to_owned(), 0));
    let recorded = store.read(|conn| Ok((conn.meta(MetaKey::Embedder)?, conn.meta(MetaKey::Dims)?)))?;
    if recorded == (Some(configured_id.clone()), Some(configured_dims.to_string())) {
        return Ok(());
    }
    store.write(|tx| {
        let stored = tx.meta(MetaKey::Embedder)?;
        let stored_dims: usize = tx.meta(MetaKey::Dims)?.and_then(|d| d.parse().ok()).unwrap_or(0);
        let has_memories = tx
            .memories()
            .any_with(&[MemoryStatus::Active, MemoryStatus::Superseded])?;
        match stored {
            Some(id) if id == configured_id && stored_dims == configured_dims => Ok(()),
            Some(id) if has_memories => Err(Error::EmbedderMismatch {
                stored: id,
                stored_dims,
                configured: configured_id.clone(),
                configured_dims,
            }),
            _ => {
                // A new (or still empty) store takes the configured embedder.
                tx.vectors_mut().drop_all()?;
                if configured_dims > 0 {
                    tx.vectors_mut().create(configured_dims)?;
                }
                tx.set_meta(MetaKey::Embedder, &configured_id)?;
                tx.set_meta(MetaKey::Dims, &configured_dims.to_string())?;
                tx.delete_meta(MetaKey::EmbedderWanted)?;
                Ok(())
            }
        }
    })
}
