//! What to do next, in the command line's words: the core's errors say what went wrong and
//! carry the ids and names involved; this module turns them into the command that helps.

use haema_core::{ChangesetStatus, CheckProblem, Error, Missing};

/// How a command-line user gets a local model that is not downloaded.
fn fetch_model(model: &str) -> String {
    format!(
        "download it while online with `haema model fetch {model}` (or `huggingface-cli download {model}`), or set HAEMA_EMBED_MODEL to a folder with config.json, tokenizer.json and model.safetensors"
    )
}

/// How a command-line user gets a store searchable by meaning again when its vectors are by
/// another embedder than the configured one.
const REEMBED: &str =
    "configure the original embedder again, or run `haema reembed` to switch the store to the new one";

/// The next step for a failed `haema doctor` check, in the command line's words.
pub fn cli_check(problem: &CheckProblem) -> String {
    match problem {
        CheckProblem::EmbedderMismatch => REEMBED.to_owned(),
        CheckProblem::ModelNotDownloaded { model } => fetch_model(model),
    }
}

/// The next step for `error` as a command-line user takes it, or `None` when the message
/// says all there is.
pub fn cli(error: &Error) -> Option<String> {
    Some(match error {
        Error::NotFound(Missing::Changeset(_)) => "list changesets with `haema history`".to_owned(),
        Error::NotFound(Missing::CoreVersion(_)) => "list versions with `haema core history`".to_owned(),
        Error::NotFound(Missing::Memory(_)) => {
            "find memory ids with `haema latest --json` or `haema search --json`".to_owned()
        }
        Error::Stale(id)
        | Error::WrongStatus {
            changeset: id,
            status: ChangesetStatus::Stale,
            ..
        } => format!(
            "re-run it with `haema review rerun {id}` or reject it with `haema review reject {id}` (an edit or deletion of one memory can only be rejected, then made again)"
        ),
        Error::ReplacedByRerun(_) => "review the new changeset with `haema review list`".to_owned(),
        Error::ReplacedSince { by: Some(by), .. } => format!("revert that first with `haema revert {by}`"),
        Error::EmbedderMismatch { .. } => REEMBED.to_owned(),
        Error::ModelNotDownloaded { model, .. } => fetch_model(model),
        Error::SchemaTooNew { .. } => "upgrade haema".to_owned(),
        Error::UnknownValue(_) => "upgrade haema, or restore the store from an export".to_owned(),
        Error::UserRequired => "say whose memories with --user ID (or HAEMA_USER=ID)".to_owned(),
        Error::UnknownSetting(_) => "`haema config` lists them".to_owned(),
        Error::ReembedInterrupted => "run `haema reembed` again: it goes on from where this one stopped".to_owned(),
        Error::ReembedUnfinished => "finish it first with `haema reembed --store` naming the source store".to_owned(),
        Error::DatabaseMissing(_) => "create it with `createdb`, then run `haema pg init`".to_owned(),
        Error::PgvectorMissing(_) => {
            "an admin runs `haema pg init postgres://admin@host/db` once (or `CREATE EXTENSION vector;` in the database)"
                .to_owned()
        }
        Error::SchemaRefused(schema) => format!(
            "an admin runs `haema pg init postgres://admin@host/db?schema={schema} --owner ROLE` once"
        ),
        _ => return None,
    })
}

/// The next step inside the terminal UI, where keys do what commands do elsewhere.
pub fn tui(error: &Error) -> Option<String> {
    Some(match error {
        Error::Stale(_)
        | Error::WrongStatus {
            status: ChangesetStatus::Stale,
            ..
        } => "re-run it (R) or reject it (n)".to_owned(),
        Error::ReplacedByRerun(_) => "review the new changeset (Review tab)".to_owned(),
        Error::ReplacedSince { by: Some(by), .. } => format!("revert changeset #{by} first"),
        Error::NotFound(_) => "another program changed the store; the view is reloaded".to_owned(),
        Error::ModelNotDownloaded { model, .. } => format!(
            "open the store while online and the model downloads in the background (the status line shows it), or run `haema model fetch {model}` in a shell"
        ),
        _ => return cli(error),
    })
}

/// What an agent calling the MCP server can do next: what to send instead, or that a
/// person has to act.
pub fn agent(error: &Error) -> Option<String> {
    Some(match error {
        Error::NotFound(Missing::Changeset(_)) => "send a changeset id that add_memory returned".to_owned(),
        Error::NotFound(Missing::Memory(_)) => {
            "send an id that search_memory or latest_memories returned (a memory replaced or deleted since has a new id, or none)".to_owned()
        }
        Error::NotFound(_) => "the store changed meanwhile; search again".to_owned(),
        Error::Stale(_)
        | Error::WrongStatus {
            status: ChangesetStatus::Stale,
            ..
        } => "a person has to build it again or reject it in haema's review; tell the user".to_owned(),
        Error::EmbedderMismatch { .. } => {
            "the store's search model was changed; a person has to run `haema reembed` before it can be searched by meaning"
                .to_owned()
        }
        Error::SchemaTooNew { .. } | Error::UnknownValue(_) => {
            "this haema server is older than the store; tell the user to upgrade haema".to_owned()
        }
        Error::ModelNotDownloaded { model, .. } => format!(
            "the search model is not on the user's machine yet; tell the user to run `haema model fetch {model}` while online"
        ),
        Error::UserRequired => {
            "send `user_id` with the call (the id of the user you are working for), or have the server started with --user".to_owned()
        }
        Error::ReembedInterrupted | Error::ReembedUnfinished => {
            "a person has to finish the store's re-embedding (`haema reembed`); tell the user".to_owned()
        }
        Error::DatabaseMissing(_) | Error::PgvectorMissing(_) | Error::SchemaRefused(_) => {
            "the store's PostgreSQL database is not set up; tell the user (`haema pg init` sets it up)".to_owned()
        }
        _ => return None,
    })
}

/// `error`'s message with what an agent can do next.
pub fn with_agent_remedy(error: &Error) -> String {
    match agent(error) {
        Some(next) => format!("{error}; {next}"),
        None => error.to_string(),
    }
}

/// A value outside its closed set, worded for an agent: what to send instead.
pub fn agent_value(error: &haema_core::UnknownValue) -> String {
    format!(
        "unknown {} `{}`; send one of: {}",
        error.what,
        error.value,
        error.expected.join(", ")
    )
}

/// `error`'s message with the next step for a command-line user.
pub fn with_cli_remedy(error: &Error) -> String {
    match cli(error) {
        Some(next) => format!("{error}; {next}"),
        None => error.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use haema_core::{ChangesetId, ReviewAction};

    use super::*;

    #[test]
    fn the_steps_a_store_needs_are_named_by_the_command_line_not_by_the_core() {
        let errors = [
            Error::UnknownSetting("recall.budgett".into()),
            Error::ReembedInterrupted,
            Error::ReembedUnfinished,
            Error::DatabaseMissing("cannot connect to PostgreSQL (db error)".into()),
            Error::PgvectorMissing(" (the `vector` type)".into()),
            Error::SchemaRefused("shared".into()),
        ];
        for error in &errors {
            assert!(!error.to_string().contains("haema "), "{error}");
            let next = with_cli_remedy(error);
            assert!(next.contains("`haema "), "{next}");
        }
        // An agent is told that a person has to act, and how.
        assert!(agent(&Error::ReembedUnfinished).is_some_and(|next| next.contains("tell the user")));
        assert!(agent(&Error::DatabaseMissing(String::new())).is_some_and(|next| next.contains("tell the user")));
    }

    #[test]
    fn stale_reads_the_same_whichever_way_it_is_met() {
        let id = ChangesetId::from(4);
        let direct = cli(&Error::Stale(id));
        let by_status = cli(&Error::WrongStatus {
            changeset: id,
            status: ChangesetStatus::Stale,
            action: ReviewAction::Approve,
        });
        assert_eq!(direct, by_status);
        assert!(direct.unwrap_or_default().contains("haema review rerun 4"));
    }

    #[test]
    fn a_model_not_downloaded_is_fetched_in_each_front_ends_words() {
        let error = Error::ModelNotDownloaded {
            model: "org/model".into(),
            looked_in: "/cache/hub/models--org--model".into(),
        };
        let cli = with_cli_remedy(&error);
        assert!(
            cli.starts_with("the embedding model `org/model` is not downloaded: it is not in the Hugging Face cache (looked in /cache/hub/models--org--model); download it while online with `haema model fetch org/model`"),
            "{cli}"
        );
        assert!(cli.contains("HAEMA_EMBED_MODEL"), "{cli}");
        let check = CheckProblem::ModelNotDownloaded {
            model: "org/model".into(),
        };
        assert_eq!(cli_check(&check), super::cli(&error).unwrap_or_default());
        let tui = tui(&error).unwrap_or_default();
        assert!(
            tui.contains("in the background") && tui.contains("`haema model fetch org/model`"),
            "{tui}"
        );
        let agent = with_agent_remedy(&error);
        assert!(
            agent.contains("tell the user to run `haema model fetch org/model`"),
            "{agent}"
        );
    }

    #[test]
    fn an_embedder_mismatch_points_at_reembed() {
        let error = Error::EmbedderMismatch {
            stored: "local:a".into(),
            stored_dims: 384,
            configured: "openai:b".into(),
            configured_dims: 1536,
        };
        assert!(with_cli_remedy(&error).contains("run `haema reembed`"));
        assert_eq!(
            cli_check(&CheckProblem::EmbedderMismatch),
            cli(&error).unwrap_or_default()
        );
    }
}
