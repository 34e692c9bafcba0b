//! `haema setup`: the desktop's AI settings as questions on the terminal. Connect an AI,
//! test it with one real call, keep its key in the system keyring, choose when haema asks
//! before changing memories, and (when wanted) how search finds them.

use std::path::Path;

use anyhow::Result;
use haema_core::config::check::{CheckOutcome, check_embedder, check_llm};
use haema_core::config::connect::{Connection, ConnectionState, Role, Service};
use haema_core::keys::KeyStore;
use haema_core::provider::ollama::{self, LocalModel};
use haema_core::{Error, ReviewPolicy, Settings};

use super::prompt;
use crate::cli::ReembedArgs;

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

pub async fn run(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir)?;
    let keys = haema_core::keys::from_env(env);
    let user_file = Settings::user_file_path();
    let load = || Settings::load_with_keys(dir, user_file.as_deref(), env, &*keys);
    eprintln!("Setting up the memory at {}\n", dir.display());

    let settings = load()?;
    connect(dir, &settings, Role::Llm, &*keys).await?;
    eprintln!();
    review_policy(dir, &load()?)?;
    eprintln!();
    let settings = load()?;
    let search = Connection::state(&settings, Role::Embedder, env);
    eprintln!("Search finds memories {}.", search_words(&search));
    if prompt::yes("Change how search finds memories?", false)?
        && connect(dir, &settings, Role::Embedder, &*keys).await?
        && settings.embedder.needs_new_vectors(&load()?.embedder)
    {
        rebuild_vectors(dir).await?;
    }
    eprintln!(
        "\nDone. The settings are in {}; `haema config` lists them all and `haema doctor` checks the store, the search model and the AI.",
        Settings::file_path(dir).display()
    );
    Ok(())
}

/// Asks for a service for `role` until a test call works or the person settles; saves it.
/// Returns whether something was saved.
async fn connect(dir: &Path, settings: &Settings, role: Role, keys: &dyn KeyStore) -> Result<bool> {
    let now = Connection::state(settings, role, env);
    let server = ollama::server_from_env(env);
    let installed = ollama::installed_models(&server).await;
    let services = services_for(role);
    let labels: Vec<String> = services
        .iter()
        .map(|s| service_words(*s, role, &server, &installed))
        .collect();
    let default = services.iter().position(|s| *s == now.connection.service).unwrap_or(0);
    let question = match role {
        Role::Llm => {
            "Which AI should look after your memories? It splits what agents add into facts, merges related memories and keeps the profile up to date."
        }
        Role::Embedder => "How should search find memories?",
    };
    loop {
        let service = services[prompt::choose(question, &labels, default)?];
        let (connection, key) = details(role, service, &now, &server, &installed, settings, keys)?;
        let trial = connection.applied_to(settings, key.as_deref(), keys)?;
        eprintln!("Testing it with one call…");
        let outcome = match role {
            Role::Llm => check_llm(&trial).await,
            Role::Embedder => check_embedder(&trial).await,
        };
        tell(&outcome);
        if !outcome.ok && prompt::yes("Try again?", true)? {
            continue;
        }
        if !outcome.ok && !prompt::yes("Save it anyway?", false)? {
            eprintln!("Nothing was changed.");
            return Ok(false);
        }
        save(dir, &connection, key.as_deref(), keys)?;
        return Ok(true);
    }
}

fn services_for(role: Role) -> &'static [Service] {
    match role {
        Role::Llm => &[
            Service::None,
            Service::ThisComputer,
            Service::Openai,
            Service::Gemini,
            Service::Other,
        ],
        Role::Embedder => &[
            Service::Builtin,
            Service::None,
            Service::ThisComputer,
            Service::Openai,
            Service::Gemini,
            Service::Other,
        ],
    }
}

fn service_words(
    service: Service,
    role: Role,
    server: &str,
    installed: &Result<Vec<LocalModel>, haema_core::provider::ProviderError>,
) -> String {
    match service {
        Service::None if role == Role::Llm => "No AI: just keep what is added, as it is given".into(),
        Service::None => "By words only".into(),
        Service::Builtin => {
            "By meaning, with the built-in model (runs on this computer; downloaded once, about 90 MB)".into()
        }
        Service::ThisComputer => match installed {
            Ok(models) => {
                let names: Vec<&str> = models
                    .iter()
                    .filter(|m| m.embedding == (role == Role::Embedder))
                    .map(|m| m.name.as_str())
                    .collect();
                if names.is_empty() {
                    format!(
                        "An AI on this computer (Ollama at {server} has no suitable model yet: install one with `ollama pull {}`)",
                        suggested_model(role)
                    )
                } else {
                    format!("An AI on this computer (Ollama at {server}: {})", names.join(", "))
                }
            }
            Err(_) => format!(
                "An AI on this computer (Ollama: nothing answers at {server}; install it from https://ollama.com and start it)"
            ),
        },
        Service::Openai => "OpenAI (needs an API key)".into(),
        Service::Gemini => "Google Gemini (needs an API key)".into(),
        Service::Other => "Another service (any OpenAI-compatible address)".into(),
    }
}

fn suggested_model(role: Role) -> &'static str {
    match role {
        Role::Llm => "llama3.1:8b",
        Role::Embedder => "nomic-embed-text",
    }
}

/// The rest of a choice: the model, the address and the key, as the service needs them.
fn details(
    role: Role,
    service: Service,
    now: &ConnectionState,
    server: &str,
    installed: &Result<Vec<LocalModel>, haema_core::provider::ProviderError>,
    settings: &Settings,
    keys: &dyn KeyStore,
) -> Result<(Connection, Option<String>)> {
    let mut connection = Connection {
        role,
        service,
        model: None,
        address: None,
    };
    let same = now.connection.service == service;
    match service {
        Service::None | Service::Builtin => return Ok((connection, None)),
        Service::ThisComputer => {
            if server != ollama::DEFAULT_URL {
                connection.address = Some(server.to_owned());
            }
            let fitting: Vec<String> = installed
                .as_ref()
                .map(|models| {
                    models
                        .iter()
                        .filter(|m| m.embedding == (role == Role::Embedder))
                        .map(|m| m.name.clone())
                        .collect()
                })
                .unwrap_or_default();
            connection.model = Some(if fitting.is_empty() {
                prompt::line(
                    "The model's name (install it first with `ollama pull NAME`)",
                    Some(suggested_model(role)),
                )?
            } else {
                let mut options = fitting.clone();
                options.push("Another model (type its name)".into());
                let default = now
                    .connection
                    .model
                    .as_ref()
                    .and_then(|m| fitting.iter().position(|f| f == m))
                    .unwrap_or(0);
                match prompt::choose("Which model?", &options, default)? {
                    i if i < fitting.len() => fitting[i].clone(),
                    _ => prompt::line("The model's name", None)?,
                }
            });
            return Ok((connection, None));
        }
        Service::Other => {
            let address = prompt::line(
                "The service's address (its base URL, such as https://llm.example.com/v1)",
                same.then_some(now.connection.address.as_deref()).flatten(),
            )?;
            connection.address = Some(address);
            connection.model = Some(prompt::line(
                "The model's name",
                same.then_some(now.model_in_force.as_str()),
            )?);
        }
        Service::Openai | Service::Gemini => {
            let default = Connection::state(&connection.applied_to(settings, None, keys)?, role, env).model_in_force;
            let model = prompt::line("The model", Some(if same { &now.model_in_force } else { &default }))?;
            connection.model = (model != default).then_some(model);
        }
    }
    let saved = Connection::state(&connection.applied_to(settings, None, keys)?, role, env);
    let question = match (&saved.key_ending, saved.key_from.as_deref()) {
        (Some(end), Some("environment")) => format!(
            "A key ending in {end} comes from the environment and wins over a saved one. Paste a key to save anyway, or press Enter"
        ),
        (Some(end), _) => format!("A key is saved, ending in {end}. Paste a new one, or press Enter to keep it"),
        (None, _) if service == Service::Other => "Paste its API key, or press Enter if it needs none".to_owned(),
        (None, _) => "Paste the API key (it is not shown; it is kept in the system keyring)".to_owned(),
    };
    let key = prompt::secret(&question)?;
    Ok((connection, Some(key).filter(|k| !k.is_empty())))
}

fn tell(outcome: &CheckOutcome) {
    eprintln!("{} {}", if outcome.ok { "ok:" } else { "not yet:" }, outcome.said);
    if let Some(fix) = &outcome.fix {
        eprintln!("  {fix}");
    }
}

/// Saves the choice; a key the keyring cannot take is not kept anywhere, and the person is
/// told which variable gives it instead.
fn save(dir: &Path, connection: &Connection, key: Option<&str>, keys: &dyn KeyStore) -> Result<()> {
    match connection.save(dir, key, keys) {
        Ok(()) => {}
        Err(Error::Keyring(why)) => {
            eprintln!("The key could not be kept: {why}.");
            connection.save(dir, None, keys)?;
        }
        Err(e) => return Err(e.into()),
    }
    eprintln!(
        "Saved in {}{}.",
        Settings::file_path(dir).display(),
        if key.is_some() {
            "; the key is in the system keyring"
        } else {
            ""
        }
    );
    Ok(())
}

fn review_policy(dir: &Path, settings: &Settings) -> Result<()> {
    let policies = [ReviewPolicy::Guarded, ReviewPolicy::Review, ReviewPolicy::Auto];
    let labels = [
        "Ask me before anything is changed or removed (new memories land at once)",
        "Ask me about everything",
        "Never ask: every change lands at once, and can be undone in the history",
    ]
    .map(str::to_owned);
    let default = policies.iter().position(|p| *p == settings.review).unwrap_or(0);
    let chosen = policies[prompt::choose("When should haema ask you before memories change?", &labels, default)?];
    if chosen != settings.review {
        Settings::write_setting(dir, "review", Some(chosen.as_str()))?;
        eprintln!("Saved: review = {chosen}.");
    }
    Ok(())
}

fn search_words(state: &ConnectionState) -> String {
    match state.connection.service {
        Service::None => "by their words only".to_owned(),
        Service::Builtin => format!("by meaning, with the built-in model ({})", state.model_in_force),
        _ => format!("by meaning, with {}", state.model_in_force),
    }
}

/// A store (in this folder or linked to PostgreSQL) gets vectors from the new search model
/// now, with a progress bar.
async fn rebuild_vectors(dir: &Path) -> Result<()> {
    if !haema_core::is_store_dir(dir) {
        return Ok(());
    }
    eprintln!("Making the search vectors of the memories with the new model…");
    super::reembed::run(
        dir,
        ReembedArgs {
            embedder: None,
            model: None,
            dims: None,
            base_url: None,
            json: false,
        },
    )
    .await
}
