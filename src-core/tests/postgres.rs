//! The PostgreSQL backend as a team uses it: two machines on one store, seeing each other
//! live; reviewers racing; writers at once; the schema's care; `haema pg init` for a plain
//! role; a copy between backends; no text left after a forget; a connection that comes back.
//!
//! They need a server: `.ci/run` starts one (tools/pg-test-server.sh) and sets
//! `HAEMA_TEST_PG_URL` (a plain role) and `HAEMA_TEST_PG_ADMIN`. Without them each test
//! says it is skipped.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::*;
use haema_core::fake::{HashEmbedder, ScriptedLlm};
use haema_core::{ErrorKind, ForgetRequest, Memory, ReviewPolicy, SearchMode, Settings};

/// The server's plain role URL and admin URL, or `None` (and a line saying the test is
/// skipped) without a server.
fn server() -> Option<(String, String)> {
    match (std::env::var("HAEMA_TEST_PG_URL"), std::env::var("HAEMA_TEST_PG_ADMIN")) {
        (Ok(url), Ok(admin)) => Some((url, admin)),
        _ => {
            eprintln!(
                "skipped: no PostgreSQL test server (HAEMA_TEST_PG_URL / HAEMA_TEST_PG_ADMIN; .ci/run starts one)"
            );
            None
        }
    }
}

/// Runs SQL through psql as the admin, in database `db` of the admin's server; its output.
fn admin_sql(admin: &str, db: &str, sql: &str) -> String {
    let bin = std::env::var("HAEMA_TEST_PG_BIN").expect("HAEMA_TEST_PG_BIN");
    let url = format!("{}/{db}", admin.rsplit_once('/').unwrap().0);
    let out = std::process::Command::new(Path::new(&bin).join("psql"))
        .args(["-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", &url, "-c", sql])
        .output()
        .unwrap();
    assert!(out.status.success(), "{sql}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

fn unique(prefix: &str) -> String {
    format!("{prefix}_{}", uuid_like_suffix())
}

fn uuid_like_suffix() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!("{:x}{:x}", nanos % 0xffff_ffff_ffff, std::process::id())
}

/// A "machine": its own link folder (as on another computer) to the store at `url`.
async fn machine(url: &str, review: ReviewPolicy, embedder: &Arc<HashEmbedder>) -> (tempfile::TempDir, Memory) {
    let dir = tempfile::tempdir().unwrap();
    haema_core::link_postgres_store(dir.path(), url).unwrap();
    let memory = Memory::open_with(dir.path(), settings(review), None, Some(embedder.clone()))
        .await
        .unwrap();
    (dir, memory)
}

fn with_schema(url: &str, schema: &str) -> String {
    format!("{url}?schema={schema}")
}

#[tokio::test]
async fn two_machines_share_one_store_and_see_each_other_live() {
    let Some((url, _)) = server() else { return };
    let store = with_schema(&url, &unique("team"));
    let embedder = Arc::new(HashEmbedder::new(DIMS));
    let (_a_dir, a) = machine(&store, ReviewPolicy::Auto, &embedder).await;
    let (_b_dir, b) = machine(&store, ReviewPolicy::Auto, &embedder).await;
    let mut watch = b.watch();
    let before = b.data_version().await.unwrap();
    a.add(items(&["The team ships on Fridays"])).await.unwrap();
    // B hears of A's commit (LISTEN/NOTIFY), and reads it.
    tokio::time::timeout(Duration::from_secs(10), watch.changed())
        .await
        .expect("machine B saw machine A's change within 10 s");
    assert_ne!(b.data_version().await.unwrap(), before);
    assert_eq!(latest(&b).await, ["The team ships on Fridays"]);
    let hits = b.search_records("ships fridays", 3, SearchMode::Hybrid).await.unwrap();
    assert_eq!(hits.hits[0].memory.content, "The team ships on Fridays");
    // A's own write is not news to A.
    let own = a.data_version().await.unwrap();
    a.add(items(&["A second fact"])).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        a.data_version().await.unwrap(),
        own,
        "a process's own commit is no change from elsewhere"
    );
    // core.md lives in the database: B reads what A set.
    a.set_core_section(haema_core::Section::User, "- Team of four")
        .await
        .unwrap();
    assert!(b.get_core().await.unwrap().contains("- Team of four"));
}

#[tokio::test]
async fn two_reviewers_approving_one_change_at_once_one_wins_the_other_is_told() {
    let Some((url, _)) = server() else { return };
    let store = with_schema(&url, &unique("race"));
    let embedder = Arc::new(HashEmbedder::new(DIMS));
    let (_a_dir, a) = machine(&store, ReviewPolicy::Review, &embedder).await;
    let (_b_dir, b) = machine(&store, ReviewPolicy::Review, &embedder).await;
    for round in 0..5 {
        a.add(items(&[&format!("Fact number {round} to review")]))
            .await
            .unwrap();
        let pending = b.pending().await.unwrap();
        assert_eq!(pending.len(), 1);
        let id = pending[0].id;
        let (first, second) = tokio::join!(a.approve(id), b.approve(id));
        assert!(
            first.is_ok() != second.is_ok(),
            "exactly one approval wins: {first:?} / {second:?}"
        );
        let loser = first.err().or(second.err()).unwrap();
        assert!(
            loser.to_string().contains(&id.to_string()),
            "the other is told which change: {loser}"
        );
    }
    let texts = latest(&a).await;
    assert_eq!(texts.len(), 5, "each fact once: {texts:?}");
}

#[tokio::test]
async fn four_writers_on_two_machines_lose_nothing() {
    let Some((url, _)) = server() else { return };
    let store = with_schema(&url, &unique("writers"));
    let embedder = Arc::new(HashEmbedder::new(DIMS));
    let mut handles = Vec::new();
    let mut dirs = Vec::new();
    for _machine in 0..2 {
        let (dir, memory) = machine(&store, ReviewPolicy::Auto, &embedder).await;
        dirs.push(dir);
        for writer in 0..2 {
            let memory = memory.clone();
            let tag = handles.len();
            handles.push(tokio::spawn(async move {
                for n in 0..8 {
                    memory
                        .add(items(&[&format!(
                            "Writer {tag}.{writer} wrote fact {n} about zebra{tag}x{n}"
                        )]))
                        .await
                        .unwrap();
                }
            }));
        }
    }
    for handle in handles {
        handle.await.unwrap();
    }
    let (_dir, reader) = machine(&store, ReviewPolicy::Auto, &embedder).await;
    let records = reader.get_latest_records(1, 100).await.unwrap();
    assert_eq!(records.len(), 32);
    let mut stamps: Vec<i64> = records.iter().map(|r| r.timestamp_ms).collect();
    stamps.sort_unstable();
    stamps.dedup();
    assert_eq!(stamps.len(), 32, "timestamps stay unique across machines");
}

#[tokio::test]
async fn a_store_made_by_a_newer_haema_is_refused_before_anything_is_written() {
    let Some((url, admin)) = server() else { return };
    let schema = unique("newer");
    let store = with_schema(&url, &schema);
    let embedder = Arc::new(HashEmbedder::new(DIMS));
    let (dir, memory) = machine(&store, ReviewPolicy::Auto, &embedder).await;
    memory.add(items(&["kept"])).await.unwrap();
    drop(memory);
    admin_sql(
        &admin,
        "haema_test",
        &format!("UPDATE {schema}.haema_schema SET version = 99"),
    );
    let error = Memory::open_with(dir.path(), settings(ReviewPolicy::Auto), None, Some(embedder.clone()))
        .await
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::SchemaTooNew, "{error}");
    assert_eq!(
        admin_sql(&admin, "haema_test", &format!("SELECT count(*) FROM {schema}.memories")),
        "1"
    );
}

#[tokio::test]
async fn pg_init_lets_a_plain_role_keep_a_store_in_a_new_database() {
    let Some((url, admin)) = server() else { return };
    let (db, role) = (unique("db"), unique("agent"));
    admin_sql(
        &admin,
        "postgres",
        &format!("CREATE ROLE {role} LOGIN PASSWORD 'pw-{role}'"),
    );
    admin_sql(&admin, "postgres", &format!("CREATE DATABASE {db}"));
    let port = url.rsplit_once(':').unwrap().1.split('/').next().unwrap().to_owned();
    let as_role = format!("postgres://{role}:pw-{role}@127.0.0.1:{port}/{db}?schema=shared");
    // Before: no pgvector, and the role may not create it.
    let dir = tempfile::tempdir().unwrap();
    haema_core::link_postgres_store(dir.path(), &as_role).unwrap();
    let error = Memory::open_with(dir.path(), Settings::default(), None, None)
        .await
        .unwrap_err();
    assert!(matches!(error, haema_core::Error::PgvectorMissing(_)), "{error}");
    assert!(
        !error.to_string().contains("haema "),
        "the front ends name their commands: {error}"
    );
    // The admin prepares it once; running it again changes nothing.
    let admin_db = format!("{}/{db}?schema=shared", admin.rsplit_once('/').unwrap().0);
    let report = haema_core::init_postgres(&admin_db, Some(&role)).unwrap();
    assert!(report.created_extension && report.owner == role && report.schema_version >= 1);
    let again = haema_core::init_postgres(&admin_db, Some(&role)).unwrap();
    assert!(!again.created_extension);
    let memory = Memory::open_with(dir.path(), Settings::default(), None, None)
        .await
        .unwrap();
    memory.add("The plain role writes here").await.unwrap();
    assert_eq!(latest(&memory).await, ["The plain role writes here"]);
    let superuser = admin_sql(
        &admin,
        "postgres",
        &format!("SELECT rolsuper FROM pg_roles WHERE rolname = '{role}'"),
    );
    assert_eq!(superuser, "f", "haema runs without a superuser");
    let owner = admin_sql(
        &admin,
        &db,
        "SELECT tableowner FROM pg_tables WHERE schemaname = 'shared' AND tablename = 'memories'",
    );
    assert_eq!(owner, role);
}

#[tokio::test]
async fn a_wrong_password_and_a_missing_database_are_told_in_words() {
    let Some((url, _)) = server() else { return };
    let wrong = url.replacen("haema-test@", "not-the-password@", 1);
    let dir = tempfile::tempdir().unwrap();
    haema_core::link_postgres_store(dir.path(), &wrong).unwrap();
    let error = Memory::open_with(dir.path(), Settings::default(), None, None)
        .await
        .unwrap_err();
    assert!(error.to_string().contains("password"), "{error}");
    assert!(
        !error.to_string().contains("not-the-password"),
        "the password is never shown: {error}"
    );
    let missing = format!("{}/no_such_db", url.rsplit_once('/').unwrap().0);
    let dir = tempfile::tempdir().unwrap();
    haema_core::link_postgres_store(dir.path(), &missing).unwrap();
    let error = Memory::open_with(dir.path(), Settings::default(), None, None)
        .await
        .unwrap_err();
    assert!(error.to_string().contains("does not exist"), "{error}");
    let link = std::fs::read_to_string(dir.path().join("postgres.url")).unwrap();
    assert!(!link.contains("haema-test"), "the link keeps no password: {link}");
}

#[tokio::test]
async fn forgetting_leaves_no_row_holding_the_text() {
    let Some((url, admin)) = server() else { return };
    let schema = unique("forget");
    let embedder = Arc::new(HashEmbedder::new(DIMS));
    let (_dir, memory) = machine(&with_schema(&url, &schema), ReviewPolicy::Auto, &embedder).await;
    memory
        .add(items(&[
            "The user lives at 12 Zqxwvarth Lane",
            "The user likes green tea",
        ]))
        .await
        .unwrap();
    let rows = |needle: &str| {
        admin_sql(
            &admin,
            "haema_test",
            &format!(
                "SELECT count(*) FROM (SELECT m::text AS t FROM {schema}.memories m UNION ALL SELECT c::text FROM {schema}.changesets c
                 UNION ALL SELECT i::text FROM {schema}.changeset_items i UNION ALL SELECT v::text FROM {schema}.core_versions v
                 UNION ALL SELECT t::text FROM {schema}.term_counts t) rows WHERE lower(t) LIKE '%{needle}%'"
            ),
        )
    };
    assert_ne!(rows("zqxwvarth"), "0");
    memory
        .forget(ForgetRequest {
            mentioning: Some("Zqxwvarth".into()),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(rows("zqxwvarth"), "0", "no row, index term included, holds the text");
    assert_ne!(rows("green"), "0", "the rest stays");
}

#[tokio::test]
async fn a_store_moves_to_postgres_and_back_whole_with_its_vectors() {
    let Some((url, _)) = server() else { return };
    let embedder = Arc::new(HashEmbedder::new(DIMS));
    let folder = tempfile::tempdir().unwrap();
    let source = Memory::open_with(
        folder.path(),
        settings(ReviewPolicy::Auto),
        None,
        Some(embedder.clone()),
    )
    .await
    .unwrap();
    source
        .add(items(&["Ana plays the cello", "The office is in Porto"]))
        .await
        .unwrap();
    // One change waits for review, so memories of every status move.
    let held = Memory::open_with(
        folder.path(),
        settings(ReviewPolicy::Review),
        Some(Arc::new(ScriptedLlm::new())),
        Some(embedder.clone()),
    )
    .await
    .unwrap();
    held.add(items(&["A fact that waits for review"])).await.unwrap();
    assert_eq!(held.pending().await.unwrap().len(), 1);
    drop(held);
    source
        .set_core_section(haema_core::Section::Soul, "Curious and brief.")
        .await
        .unwrap();
    source.set_section_lock(haema_core::Section::Soul, true).await.unwrap();
    // Returned twice: its access statistics move too.
    for _ in 0..2 {
        source.search_records("cello", 1, SearchMode::Hybrid).await.unwrap();
    }
    source.flush_access_stats().await.unwrap();
    drop(source);
    let pg = tempfile::tempdir().unwrap();
    haema_core::link_postgres_store(pg.path(), &with_schema(&url, &unique("moved"))).unwrap();
    let there = haema_core::migrate_store(folder.path(), pg.path()).unwrap();
    assert_eq!(
        (there.memories, there.vectors, there.access_stats),
        (3, 2, 1),
        "{there:?}"
    );
    // Into a store that is not empty: refused, nothing written.
    let error = haema_core::migrate_store(folder.path(), pg.path()).unwrap_err();
    assert!(error.to_string().contains("already holds a store"), "{error}");
    let back_dir = tempfile::tempdir().unwrap();
    let back_path = back_dir.path().join("back");
    let back = haema_core::migrate_store(pg.path(), &back_path).unwrap();
    assert_eq!(
        back.checksum, there.checksum,
        "the export of all three stores is the same"
    );
    let moved = Memory::open_with(pg.path(), settings(ReviewPolicy::Auto), None, Some(embedder.clone()))
        .await
        .unwrap();
    assert!(moved.lexical_reason().is_none(), "the vectors came along");
    let newest = moved.get_latest_records(1, 10).await.unwrap();
    let cello = newest
        .iter()
        .find(|m| m.content == "Ana plays the cello")
        .unwrap()
        .id
        .clone();
    let stats = moved.access_stats(std::slice::from_ref(&cello)).await.unwrap();
    assert_eq!(stats[&cello].access_count, 2, "returned twice before the move");
    let hits = moved.search_records("cello", 1, SearchMode::Vector).await.unwrap();
    assert_eq!(hits.hits[0].memory.content, "Ana plays the cello");
    assert!(moved.get_core().await.unwrap().contains("Curious and brief."));
    assert_eq!(moved.locked_sections().await.unwrap().len(), 1);
    assert_eq!(
        moved.pending().await.unwrap().len(),
        1,
        "the change waiting for review moved too"
    );
}

#[tokio::test]
async fn the_connection_comes_back_after_the_server_drops_it() {
    let Some((url, admin)) = server() else { return };
    let schema = unique("dropped");
    let embedder = Arc::new(HashEmbedder::new(DIMS));
    let store = format!("{url}?application_name={schema}&schema={schema}");
    let (_dir, memory) = machine(&store, ReviewPolicy::Auto, &embedder).await;
    memory.add(items(&["Before the drop"])).await.unwrap();
    admin_sql(
        &admin,
        "postgres",
        &format!("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = '{schema}'"),
    );
    // The next calls work again (at worst the first one says the connection was lost).
    let started = Instant::now();
    loop {
        match memory.add(items(&["After the drop"])).await {
            Ok(_) => break,
            Err(e) if started.elapsed() < Duration::from_secs(5) => {
                eprintln!("while reconnecting: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(e) => panic!("the store did not come back: {e}"),
        }
    }
    let texts = latest(&memory).await;
    assert!(texts.contains(&"Before the drop".to_owned()) && texts.contains(&"After the drop".to_owned()));
}

#[tokio::test]
async fn another_apps_vectors_table_in_public_is_never_touched() {
    let Some((url, admin)) = server() else { return };
    let db = unique("apps");
    admin_sql(&admin, "postgres", &format!("CREATE DATABASE {db} OWNER haema"));
    admin_sql(
        &admin,
        &db,
        "CREATE EXTENSION vector; CREATE TABLE public.vectors (id int); INSERT INTO public.vectors VALUES (1); \
         GRANT ALL ON public.vectors TO haema",
    );
    let in_db = format!("{}/{db}", url.rsplit_once('/').unwrap().0);
    // A store searched by words (no embedder) has no vector table of its own...
    let dir = tempfile::tempdir().unwrap();
    haema_core::link_postgres_store(dir.path(), &with_schema(&in_db, "words")).unwrap();
    let memory = Memory::open_with(dir.path(), settings(ReviewPolicy::Auto), None, None)
        .await
        .unwrap();
    memory.add(items(&["Only words here"])).await.unwrap();
    let hits = memory.search_records("words", 3, SearchMode::Hybrid).await.unwrap();
    assert_eq!(hits.hits.len(), 1);
    memory
        .forget(ForgetRequest {
            mentioning: Some("words".into()),
            ..Default::default()
        })
        .await
        .unwrap();
    // ... and a new store with vectors makes its own.
    let embedder = Arc::new(HashEmbedder::new(DIMS));
    let (_dir, with_vectors) = machine(&with_schema(&in_db, "meaning"), ReviewPolicy::Auto, &embedder).await;
    with_vectors.add(items(&["A fact with a vector"])).await.unwrap();
    assert_eq!(
        admin_sql(&admin, &db, "SELECT count(*) FROM public.vectors"),
        "1",
        "the app's table is as it was"
    );
    assert_eq!(admin_sql(&admin, &db, "SELECT count(*) FROM meaning.vectors"), "1");
}

/// Embeds like `HashEmbedder`, but its first batch of memories waits for `gate`.
struct Gated {
    inner: HashEmbedder,
    entered: std::sync::atomic::AtomicBool,
    gate: tokio::sync::Semaphore,
}

#[async_trait::async_trait]
impl haema_core::provider::Embedder for Gated {
    fn id(&self) -> String {
        self.inner.id()
    }
    fn dims(&self) -> usize {
        self.inner.dims()
    }
    async fn embed_query(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, haema_core::provider::ProviderError> {
        self.inner.embed_query(texts).await
    }
    async fn embed_document(&self, texts: &[String]) -> Result<Vec<Vec<f32>>, haema_core::provider::ProviderError> {
        if !self.entered.swap(true, std::sync::atomic::Ordering::SeqCst) {
            drop(self.gate.acquire().await);
        }
        self.inner.embed_document(texts).await
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn two_machines_re_embedding_one_store_take_turns() {
    let Some((url, _)) = server() else { return };
    let store = with_schema(&url, &unique("reembed"));
    let embedder = Arc::new(HashEmbedder::new(DIMS));
    let (a_dir, a) = machine(&store, ReviewPolicy::Auto, &embedder).await;
    a.add(items(&["Tea at noon", "Chess on Sundays", "Rust at work"]))
        .await
        .unwrap();
    drop(a);
    let b_dir = tempfile::tempdir().unwrap();
    haema_core::link_postgres_store(b_dir.path(), &store).unwrap();

    let gated = Arc::new(Gated {
        inner: HashEmbedder::new(16),
        entered: false.into(),
        gate: tokio::sync::Semaphore::new(0),
    });
    let first = tokio::spawn({
        let (dir, gated) = (a_dir.path().to_path_buf(), Arc::clone(&gated));
        async move { haema_core::reembed(&dir, Some(gated), |_| {}).await }
    });
    let deadline = Instant::now() + Duration::from_secs(10);
    while !gated.entered.load(std::sync::atomic::Ordering::SeqCst) {
        assert!(Instant::now() < deadline, "machine A never started re-embedding");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Machine B, with a link folder (and so a lock file) of its own, waits for A.
    let second = tokio::spawn({
        let dir = b_dir.path().to_path_buf();
        async move { haema_core::reembed(&dir, Some(Arc::new(HashEmbedder::new(16))), |_| {}).await }
    });
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert!(!second.is_finished(), "B re-embedded while A was at it");
    gated.gate.add_permits(1);
    assert_eq!(first.await.unwrap().unwrap().embedded, 3);
    assert_eq!(second.await.unwrap().unwrap().embedded, 3);
    let reopened = Memory::open_with(
        a_dir.path(),
        settings(ReviewPolicy::Auto),
        None,
        Some(Arc::new(HashEmbedder::new(16))),
    )
    .await
    .unwrap();
    let hits = reopened.search_records("chess", 3, SearchMode::Vector).await.unwrap();
    assert_eq!(hits.hits.len(), 3, "every memory has its one vector");
}
