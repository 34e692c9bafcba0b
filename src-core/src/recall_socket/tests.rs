use std::sync::Arc;
use std::time::Duration;

use super::{RecallReply, RecallRequest, ask, serve, socket_path};
use crate::config::Settings;
use crate::fake::HashEmbedder;
use crate::memory::Memory;
use crate::types::policy::StoreScope;

const WAIT: Duration = Duration::from_secs(5);

async fn store(dir: &std::path::Path, settings: Settings) -> Memory {
    let embedder = Arc::new(HashEmbedder::new(16));
    Memory::open_with(dir, settings, None, Some(embedder)).await.unwrap()
}

fn request(query: &str, user: Option<&str>) -> RecallRequest {
    RecallRequest {
        query: query.into(),
        budget_tokens: 300,
        user: user.map(str::to_owned),
    }
}

/// Waits until a process serves `dir`.
async fn served(dir: &std::path::Path) {
    for _ in 0..200 {
        if std::os::unix::net::UnixStream::connect(socket_path(dir).unwrap()).is_ok() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("no one serves {}", dir.display());
}

#[tokio::test]
async fn a_served_store_answers_the_recall_its_hook_would_compute() {
    let dir = tempfile::tempdir().unwrap();
    let memory = store(dir.path(), Settings::default()).await;
    memory.add("The user drinks green tea every morning.").await.unwrap();
    memory.add("The user's cat is called Miso.").await.unwrap();
    let cold = request("green tea", None).answer(&memory).await.unwrap().unwrap();
    assert!(cold.contains("green tea"), "{cold}");

    let held = memory.clone();
    let server = tokio::spawn(serve(move || Some(held.clone())));
    served(dir.path()).await;
    let path = socket_path(dir.path()).unwrap();
    let mode = std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&path).unwrap().permissions());
    assert_eq!(mode & 0o777, 0o600, "the socket is its owner's only");

    let reply = ask(dir.path(), &request("green tea", None), WAIT).await.unwrap();
    assert_eq!(
        reply,
        Some(RecallReply::Recall {
            text: Some(cold),
            pid: std::process::id()
        })
    );
    // Nothing to give is an answer too, not a refusal.
    let empty = tempfile::tempdir().unwrap();
    let nothing = store(empty.path(), Settings::default()).await;
    assert_eq!(request("tea", None).answer(&nothing).await.unwrap(), None);
    nothing
        .set_core_section(crate::types::Section::User, "Prefers short answers.")
        .await
        .unwrap();
    let core = request("tea", None).answer(&nothing).await.unwrap().unwrap();
    assert!(
        core.contains("Prefers short answers."),
        "a core profile alone is worth giving"
    );

    server.abort();
    let _ = server.await;
    assert!(!path.exists(), "a stopped server removes its socket");
    assert_eq!(ask(dir.path(), &request("green tea", None), WAIT).await.unwrap(), None);
}

#[tokio::test]
async fn a_stale_socket_is_no_answer_and_is_replaced_by_the_next_server() {
    let dir = tempfile::tempdir().unwrap();
    let memory = store(dir.path(), Settings::default()).await;
    memory.add("The user sails on Sundays.").await.unwrap();
    let path = socket_path(dir.path()).unwrap();
    drop(std::os::unix::net::UnixListener::bind(&path).unwrap());
    assert!(path.exists(), "a crashed server leaves its socket behind");
    assert_eq!(ask(dir.path(), &request("sails", None), WAIT).await.unwrap(), None);

    let server = tokio::spawn(serve(move || Some(memory.clone())));
    served(dir.path()).await;
    let reply = ask(dir.path(), &request("sails", None), WAIT).await.unwrap();
    assert!(matches!(reply, Some(RecallReply::Recall { text: Some(t), .. }) if t.contains("Sundays")));
    server.abort();
}

#[tokio::test]
async fn a_second_process_leaves_a_live_server_alone() {
    let dir = tempfile::tempdir().unwrap();
    let memory = store(dir.path(), Settings::default()).await;
    memory.add("The user sails on Sundays.").await.unwrap();
    let first = memory.clone();
    let server = tokio::spawn(serve(move || Some(first.clone())));
    served(dir.path()).await;
    let path = socket_path(dir.path()).unwrap();
    let identity = std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(&path).unwrap());
    let second = tokio::spawn(serve(move || Some(memory.clone())));
    tokio::time::sleep(Duration::from_millis(200)).await;
    let now = std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(&path).unwrap());
    assert_eq!(identity, now, "the live server's socket is kept");
    second.abort();
    let _ = second.await;
    assert!(path.exists(), "the second process took nothing away when it stopped");
    server.abort();
}

#[tokio::test]
async fn users_are_kept_apart_as_in_the_store() {
    let dir = tempfile::tempdir().unwrap();
    let settings = Settings {
        scope: StoreScope::PerUser,
        ..Settings::default()
    };
    let memory = store(dir.path(), settings).await;
    memory
        .for_user("ann")
        .unwrap()
        .add("Ann drinks green tea.")
        .await
        .unwrap();
    memory
        .for_user("bob")
        .unwrap()
        .add("Bob drinks green tea too.")
        .await
        .unwrap();
    let held = memory.clone();
    let server = tokio::spawn(serve(move || Some(held.clone())));
    served(dir.path()).await;

    let ann = ask(dir.path(), &request("green tea", Some("ann")), WAIT).await.unwrap();
    let Some(RecallReply::Recall { text: Some(text), .. }) = ann else {
        panic!("{ann:?}")
    };
    assert!(text.contains("Ann drinks") && !text.contains("Bob"), "{text}");
    let nobody = ask(dir.path(), &request("green tea", None), WAIT).await.unwrap();
    assert!(matches!(nobody, Some(RecallReply::Refused { reason }) if reason.contains("per_user")));

    // A process open for one user answers no one who did not say who they are.
    let ann_only = memory.for_user("ann").unwrap();
    let unnamed = request("green tea", None).answer(&ann_only).await.unwrap_err();
    assert!(matches!(unnamed, crate::error::Error::UserRequired), "{unnamed}");
    // Nor anyone else.
    let ann_only = memory.for_user("ann").unwrap();
    let refused = request("green tea", Some("bob")).answer(&ann_only).await.unwrap_err();
    assert!(refused.to_string().contains("cannot work for user `bob`"), "{refused}");
    server.abort();
}

#[tokio::test]
async fn a_garbled_request_is_refused_in_words_and_the_server_goes_on() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let dir = tempfile::tempdir().unwrap();
    let memory = store(dir.path(), Settings::default()).await;
    memory.add("The user sails on Sundays.").await.unwrap();
    let server = tokio::spawn(serve(move || Some(memory.clone())));
    served(dir.path()).await;
    let mut stream = tokio::net::UnixStream::connect(socket_path(dir.path()).unwrap())
        .await
        .unwrap();
    stream.write_all(b"{\"query\": 7}\n").await.unwrap();
    let mut reply = String::new();
    stream.read_to_string(&mut reply).await.unwrap();
    assert!(
        reply.contains("refused") && reply.contains("not a recall request"),
        "{reply}"
    );
    let after = ask(dir.path(), &request("sails", None), WAIT).await.unwrap();
    assert!(matches!(after, Some(RecallReply::Recall { text: Some(_), .. })));
    server.abort();
}

#[test]
fn a_folder_too_deep_for_a_socket_address_uses_the_runtime_folder() {
    let short = std::path::Path::new("/home/ann/.local/share/haema");
    assert_eq!(socket_path(short).unwrap(), short.join(".recall.sock"));
    let deep = std::path::PathBuf::from(format!("/home/ann/{}", "very-long-folder-name/".repeat(6)));
    match std::env::var_os("XDG_RUNTIME_DIR") {
        Some(runtime) => {
            let path = socket_path(&deep).unwrap();
            assert!(path.starts_with(runtime) && path.as_os_str().len() <= super::MAX_SOCKET_PATH);
            assert_eq!(socket_path(&deep), Some(path), "the same folder, the same socket");
        }
        None => assert_eq!(socket_path(&deep), None),
    }
}

/// The hash embedder, keeping every text it is given.
#[derive(Default)]
struct Recording {
    texts: std::sync::Mutex<Vec<String>>,
}

#[async_trait::async_trait]
impl crate::provider::Embedder for Recording {
    fn id(&self) -> String {
        "test:recording".into()
    }

    fn dims(&self) -> usize {
        16
    }

    async fn embed_query(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, crate::provider::ProviderError> {
        self.texts.lock().unwrap().extend(texts.iter().cloned());
        Ok(texts.iter().map(|t| crate::provider::hash_vector(t, 16)).collect())
    }

    async fn embed_document(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, crate::provider::ProviderError> {
        self.embed_query(texts).await
    }
}

#[tokio::test]
async fn a_secret_in_the_prompt_never_reaches_the_embedder() {
    let dir = tempfile::tempdir().unwrap();
    let embedder = Arc::new(Recording::default());
    let memory = Memory::open_with(dir.path(), Settings::default(), None, Some(embedder.clone()))
        .await
        .unwrap();
    memory.add("The user deploys with the GitHub CLI.").await.unwrap();
    let token = "ghp_Zq8mR2vT7xLp4Nw9Kd3Hs6Jf1Bc5Gy0UaEi2";
    let asked = request(&format!("push with my token {token} please"), None);
    asked.answer(&memory).await.unwrap();
    let embedded = embedder.texts.lock().unwrap().clone();
    assert!(
        embedded.iter().any(|t| t.contains("push with my token")),
        "{embedded:?}"
    );
    assert!(!embedded.iter().any(|t| t.contains(token)), "{embedded:?}");
}

#[tokio::test]
async fn no_socket_is_made_in_a_folder_others_may_write_to() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let memory = store(dir.path(), Settings::default()).await;
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let server = tokio::spawn(serve(move || Some(memory.clone())));
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        !socket_path(dir.path()).unwrap().exists(),
        "another user could plant or swap it there"
    );
    server.abort();
}
