//! Store commands: what opens at start, opening and creating stores, listing them, and the
//! newest memories.

use std::path::PathBuf;

use haema_core::{LatestOptions, Memory, MemoryRecord, StoreInfo, StoreStatus};
use serde::Serialize;
use tauri::State;

use crate::error::{CommandError, CommandResult, Problem};
use crate::state::{AppState, default_store, is_store};

/// What the first screen needs to know.
#[derive(Debug, Serialize, specta::Type)]
pub struct AppStatus {
    /// The open store's counts, if one is open.
    pub store: Option<StoreInfo>,
    /// How the open store stands (search, review), worded for people: every view says it
    /// in these words.
    pub status: Option<StoreStatus>,
    /// The store to open at start: `--store DIR`, else `HAEMA_STORE`, else the `store` of
    /// the user's `config.toml`, else the last one opened, when it exists. `None` when the
    /// folder given on the command line holds no memory yet: it is then `default_store`.
    pub start_store: Option<PathBuf>,
    /// Where a new memory goes when the first screen starts one: the folder given on the
    /// command line when it holds no memory yet, else the `store` of the user's
    /// `config.toml`, else `$XDG_DATA_HOME/haema/default`.
    pub default_store: Option<PathBuf>,
    /// Whether the default store already exists.
    pub default_exists: bool,
    /// Why the store given on the command line (or in `HAEMA_STORE`) cannot be opened.
    pub start_problem: Option<String>,
}

/// Whether a store is open, which one to open at start, and where the default one is.
#[tauri::command]
#[specta::specta]
pub async fn app_status(state: State<'_, AppState>) -> CommandResult<AppStatus> {
    let store = match state.memory().await {
        Ok(memory) => Some(store_info(&memory).await?),
        Err(_) => None,
    };
    let recent = state.prefs().await.recent;
    let (given, start_problem) = match store_argument() {
        Ok(given) => (given, None),
        Err(problem) => (None, Some(problem)),
    };
    let (start_store, default) = start_choice(given, configured_store(), recent, is_store);
    let default = default.or_else(default_store);
    let default_exists = default.as_deref().is_some_and(is_store);
    Ok(AppStatus {
        status: store.as_ref().map(StoreInfo::status),
        store,
        start_store,
        default_store: default,
        default_exists,
        start_problem,
    })
}

/// Which store opens at start, and where a new one would go (`None`: the default store's
/// place): the folder `given` on the command line, else the `configured` one, when it is a
/// store; else the most `recent` store. A `given` folder that holds no memory yet opens
/// nothing and is where a new memory goes: never another memory opened in its place.
fn start_choice(
    given: Option<PathBuf>,
    configured: Option<PathBuf>,
    recent: Vec<PathBuf>,
    is_store: impl Fn(&std::path::Path) -> bool,
) -> (Option<PathBuf>, Option<PathBuf>) {
    match given {
        Some(dir) if is_store(&dir) => (Some(dir), configured),
        Some(dir) => (None, Some(dir)),
        None => match configured.clone().filter(|d| is_store(d)) {
            Some(dir) => (Some(dir), configured),
            None => (recent.into_iter().find(|d| is_store(d)), configured),
        },
    }
}

/// `--store DIR` (or `--store=DIR`) from the command line, else `HAEMA_STORE`, as the
/// command line reads it ([`haema_core::store_dir_given`]): a folder (a relative one made
/// full from the folder the app started in, as the window's forms take only full paths), a
/// name beside the default store, or a PostgreSQL URL's link folder on this machine. One
/// that cannot be used is an error the first screen shows (the app starts as if none was
/// given).
fn store_argument() -> Result<Option<PathBuf>, String> {
    let Some(given) = given_store() else { return Ok(None) };
    match haema_core::store_dir_given(&given) {
        Ok(dir) => Ok(Some(std::path::absolute(&dir).unwrap_or(dir))),
        Err(e) => Err(format!(
            "The memory given at start ({}) cannot be opened: {e}",
            given.display()
        )),
    }
}

/// The `store` of the user's `config.toml`; a file that cannot be read is reported on
/// stderr and the app goes on without it (the Settings view shows the problem).
fn configured_store() -> Option<PathBuf> {
    let file = haema_core::Settings::user_file_path()?;
    haema_core::store_in_user_file(&file).unwrap_or_else(|e| {
        eprintln!("haema-desktop: {e}");
        None
    })
}

fn given_store() -> Option<PathBuf> {
    let mut args = std::env::args_os().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--store" {
            return args.next().map(PathBuf::from);
        }
        if let Some(dir) = arg.to_str().and_then(|a| a.strip_prefix("--store=")) {
            return Some(PathBuf::from(dir));
        }
    }
    std::env::var_os("HAEMA_STORE")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// Opens the store in `dir`. With `create`, a missing store is made; without it, a folder
/// that is not a store is refused (so a typo does not make an empty memory).
#[tauri::command]
#[specta::specta]
pub async fn open_store(
    app: tauri::AppHandle,
    state: State<'_, AppState>,
    dir: Option<PathBuf>,
    create: bool,
) -> CommandResult<StoreInfo> {
    let dir = dir
        .filter(|d| !d.as_os_str().is_empty())
        .or_else(configured_store)
        .or_else(default_store)
        .ok_or_else(|| CommandError::invalid("There is no home folder to keep the memory in; choose a folder."))?;
    let dir = resolve_folder(dir)?;
    if !create && !is_store(&dir) {
        return Err(CommandError::new(
            Problem::NotFound,
            format!(
                "There is no memory in {}. Check the folder, or choose “Create” to start a new memory there.",
                dir.display()
            ),
        ));
    }
    if create && dir.is_file() {
        return Err(CommandError::invalid(format!(
            "{} is a file, not a folder. Choose a folder for the new memory.",
            dir.display()
        )));
    }
    let (memory, generation) = state.open(dir).await?;
    crate::model::upgrade_in_background(app.clone(), &memory, generation);
    crate::live::watch(
        app,
        memory.clone(),
        std::sync::Arc::clone(&state.generation),
        generation,
    );
    store_info(&memory).await
}

/// The open store's counts; for a store that keeps people's memories apart and has no
/// person chosen yet, only what the window needs to ask whose memories to show (nothing of
/// anyone's is read).
async fn store_info(memory: &Memory) -> CommandResult<StoreInfo> {
    if !memory.requires_user() {
        return Ok(memory.info().await?);
    }
    Ok(StoreInfo {
        dir: memory.dir().to_path_buf(),
        location: memory.location(),
        name: haema_core::store_name(&memory.location()),
        active: 0,
        pending_changesets: 0,
        captures_waiting: 0,
        embedder: String::new(),
        dims: 0,
        embedder_wanted: None,
        vectors_behind: false,
        lexical_reason: None,
        llm: None,
        review: memory.settings().review,
        scope: haema_core::StoreScope::PerUser,
        user: None,
    })
}

/// Shows `user`'s memories of the open store from now on (a store that keeps people's
/// memories apart): every view reads and writes only theirs.
#[tauri::command]
#[specta::specta]
pub async fn choose_user(state: State<'_, AppState>, user: String) -> CommandResult<StoreInfo> {
    let memory = state.choose_user(&user).await?;
    store_info(&memory).await
}

/// The folder a name or path means ([`haema_core::store_dir_for`]), in the window's words.
fn resolve_folder(dir: PathBuf) -> CommandResult<PathBuf> {
    haema_core::store_dir_for(&dir).map_err(|e| {
        let text = e.to_string();
        let mut chars = text.chars();
        let first = chars
            .next()
            .map(|c| c.to_uppercase().collect::<String>())
            .unwrap_or_default();
        CommandError::invalid(format!("{first}{}.", chars.as_str()))
    })
}

/// A store that can be switched to.
#[derive(Debug, Serialize, specta::Type)]
pub struct StoreEntry {
    /// Its folder.
    pub dir: PathBuf,
    /// Its short name ([`haema_core::store_name`]), also when it could not be read.
    pub name: String,
    /// Its counts, when it could be read.
    pub info: Option<StoreInfo>,
    /// Why it could not be read.
    pub error: Option<String>,
    /// Whether it is the open one.
    pub open: bool,
}

/// The stores beside the open one and the ones opened recently.
#[tauri::command]
#[specta::specta]
pub async fn stores(state: State<'_, AppState>) -> CommandResult<Vec<StoreEntry>> {
    let open = state.memory().await.ok().map(|m| m.dir().to_path_buf());
    let mut dirs = open
        .as_deref()
        .map(haema_core::store_folders_beside)
        .unwrap_or_default();
    for dir in state.prefs().await.recent {
        if !dirs.contains(&dir) && is_store(&dir) {
            dirs.push(dir);
        }
    }
    let mut out = Vec::with_capacity(dirs.len());
    for dir in dirs {
        let peeked = Memory::peek(&dir).await;
        out.push(StoreEntry {
            name: peeked.as_ref().map_or_else(
                |_| haema_core::store_name(&dir.to_string_lossy()),
                |info| info.name.clone(),
            ),
            open: open.as_ref() == Some(&dir),
            info: peeked.as_ref().ok().cloned(),
            error: peeked.err().map(|e| e.to_string()),
            dir,
        });
    }
    Ok(out)
}

/// A page of the newest memories: from the top, or after the last one shown.
#[tauri::command]
#[specta::specta]
pub async fn latest(
    state: State<'_, AppState>,
    after: Option<MemoryRecord>,
    count: usize,
) -> CommandResult<Vec<MemoryRecord>> {
    let memory = state.memory().await?;
    let count = count.clamp(1, haema_core::limits::MAX_LATEST_PAGE);
    let page = match after {
        Some(after) => LatestOptions::after(&after),
        None => LatestOptions::default(),
    };
    Ok(memory
        .latest_records(i64::try_from(count).unwrap_or(i64::MAX), &page)
        .await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_given_that_holds_no_memory_is_offered_never_replaced() {
        let stores = [PathBuf::from("/m/work"), PathBuf::from("/m/old")];
        let is = |d: &std::path::Path| stores.iter().any(|s| s == d);
        let recent = vec![PathBuf::from("/m/old")];
        let path = |p: &str| Some(PathBuf::from(p));
        assert_eq!(
            start_choice(path("/m/new"), path("/m/work"), recent.clone(), is),
            (None, path("/m/new")),
            "a new folder given: the first screen offers it, the last store is not opened"
        );
        assert_eq!(
            start_choice(path("/m/work"), None, recent.clone(), is),
            (path("/m/work"), None)
        );
        assert_eq!(
            start_choice(None, path("/m/work"), recent.clone(), is),
            (path("/m/work"), path("/m/work"))
        );
        assert_eq!(
            start_choice(None, path("/m/unmade"), recent.clone(), is),
            (path("/m/old"), path("/m/unmade")),
            "nothing given: the last store opens"
        );
        assert_eq!(start_choice(None, None, Vec::new(), is), (None, None));
    }

    #[test]
    fn names_are_stores_beside_the_default_and_paths_stay_as_given() {
        let absolute = std::env::temp_dir().join("haema-x");
        assert_eq!(resolve_folder(absolute.clone()).ok(), Some(absolute));
        if let Some(root) = default_store().as_deref().and_then(std::path::Path::parent) {
            assert_eq!(resolve_folder(PathBuf::from("work")).ok(), Some(root.join("work")));
        }
        for bad in ["a/b", "..", "./x"] {
            let err = resolve_folder(PathBuf::from(bad)).err().map(|e| e.kind);
            assert_eq!(err, Some(Problem::Invalid), "{bad}");
        }
    }
}
