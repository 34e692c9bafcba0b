//! Writes `src-tui/assets/demo.jsonl`, the sample `haema demo` imports: a short life of an
//! assistant's memory about one user, made by the real pipeline (an OpenAI-compatible
//! server on 127.0.0.1 answers as an LLM would) and exported losslessly.
//!
//! `cargo run -p haema-tui --example make_demo_sample` (only when the sample should change).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use haema_core::{ChangesetStatus, Memory, ReviewPolicy, Section};
use haema_tests::FakeOpenAi;
use serde_json::json;

const SOUL: &str = "You are Mina's calm, practical assistant.\n- Answer briefly; offer details when asked.\n- Admit uncertainty plainly.";
const TOOLS: &str = "- `calendar`: read and create events; confirm before inviting others.\n- `notes`: Mina's practice journal (read only).\n- `web`: search, then cite the source.";
const RULE: &str = "1. Never share Mina's address or phone number.\n2. Ask before spending money or booking anything.\n3. Peanuts are a hard no in any food suggestion.";
const USER: &str = "## Profile\n- Mina Park, cellist in the Seoul Philharmonic\n- Speaks Korean and English; prefers English for work\n\n## Preferences\n- Drinks **green tea**, no sugar\n- Practises 07:00-09:00; no calls then";

fn items(texts: &[&str]) -> Vec<String> {
    texts.iter().map(|t| (*t).to_owned()).collect()
}

#[tokio::main]
async fn main() {
    let fake = FakeOpenAi::start(64).await;
    let dir = tempfile::tempdir().unwrap();
    let mut settings = fake.settings(
        dir.path(),
        &[
            ("HAEMA_LLM_MODEL", "gpt-4o-mini"),
            ("HAEMA_EMBED_MODEL", "demo-hash"),
            ("HAEMA_MERGE_DISTANCE_CUTOFF", "0.75"),
        ],
    );
    settings.review = ReviewPolicy::Guarded;
    // One related memory per new fact: the scripted answers below rewrite exactly that one.
    settings.merge.top_k = 1;
    let memory = Memory::open(dir.path(), settings).await.unwrap();

    for (section, text) in [
        (Section::Soul, SOUL),
        (Section::Tools, TOOLS),
        (Section::Rule, RULE),
        (Section::User, USER),
    ] {
        memory.set_core_section(section, text).await.unwrap();
    }
    memory.set_section_lock(Section::Rule, true).await.unwrap();

    // Each fact with the `core_relevant` a model gives it in its reconstruction answer,
    // judged against the core above: true only for what is durable, changes how the
    // assistant behaves, and the core lacks (peanuts and green tea are already in it).
    let facts = [
        ("Mina is allergic to peanuts.", false),
        ("Mina's sister Ana lives in Busan and visits every December.", false),
        ("Mina runs along the Han river on Sunday mornings.", false),
        (
            "Mina is preparing the Dvořák cello concerto for a March concert.",
            false,
        ),
        ("Mina's teacher, Mr. Lee, gives lessons on Fridays at 16:00.", false),
        ("Mina keeps a practice journal with tempos and fingerings.", false),
        ("Mina dislikes video calls before noon.", true),
        ("Mina's cello is a 1920s French instrument insured with Hanwha.", false),
        ("Mina reads science fiction on the subway, lately Ted Chiang.", false),
        (
            "Mina's favourite restaurant is a small naengmyeon place in Euljiro.",
            false,
        ),
        ("Mina wants to learn to bake sourdough bread this winter.", false),
        (
            "Mina's flight to Vienna for the masterclass leaves on 14 January.",
            false,
        ),
        ("서울 사무실 주소는 비서에게만 알려 주세요.", true),
        ("Mina likes short answers with a clear next step.", true),
        ("Mina drinks green tea without sugar.", false),
    ];
    for (fact, core_relevant) in facts {
        fake.set_core_relevant(Some(core_relevant));
        memory.add(items(&[fact])).await.unwrap();
    }

    // A merge the LLM proposed and Mina approved: the tea preference changed.
    fake.answer(
        "reconstruct",
        json!({"memories": ["Mina now drinks black coffee in the morning and green tea, without sugar, after lunch."], "coverage": "complete", "core_relevant": true}),
    );
    fake.answer(
        "core_update",
        json!({"should_update": true, "core_markdown": format!("# SOUL\n{SOUL}\n\n# TOOLS\n{TOOLS}\n\n# RULE\n{RULE}\n\n# USER\n{}\n", USER.replace("Drinks **green tea**, no sugar", "Black coffee in the morning, **green tea** after lunch"))}),
    );
    let merged = memory
        .add(items(&[
            "Mina drinks black coffee in the morning now, and green tea without sugar after lunch.",
        ]))
        .await
        .unwrap();
    memory.approve(merged.changeset.unwrap()).await.unwrap();

    // A proposal Mina rejected.
    fake.answer(
        "reconstruct",
        json!({"memories": ["Mina has stopped running."], "coverage": "complete", "core_relevant": false}),
    );
    let rejected = memory
        .add(items(&["Mina skipped her Sunday run along the Han river this week."]))
        .await
        .unwrap();
    memory.reject(rejected.changeset.unwrap()).await.unwrap();

    // Waiting for review when the demo opens: a move, and the lesson time.
    fake.answer(
        "reconstruct",
        json!({"memories": ["Mina's sister Ana moved from Busan to Seoul and visits every December."], "coverage": "complete", "core_relevant": false}),
    );
    memory
        .add(items(&[
            "Mina's sister Ana moved from Busan to Seoul; she still visits every December.",
        ]))
        .await
        .unwrap();
    fake.answer(
        "reconstruct",
        json!({"memories": ["Mina's teacher, Mr. Lee, moved the lessons to Thursdays at 17:00."], "coverage": "complete", "core_relevant": false}),
    );
    memory
        .add(items(&["Mr. Lee's lessons are on Thursdays at 17:00 from now on."]))
        .await
        .unwrap();

    let pending = memory.pending().await.unwrap();
    for c in &pending {
        eprintln!(
            "#{}: {:?} -> {:?}",
            c.id,
            c.related.iter().map(|r| &r.content).collect::<Vec<_>>(),
            c.proposed.iter().map(|p| &p.content).collect::<Vec<_>>()
        );
    }
    for c in memory
        .changesets(Default::default())
        .await
        .unwrap()
        .iter()
        .filter(|c| c.status != ChangesetStatus::Pending && !c.related.is_empty())
    {
        eprintln!(
            "#{} {:?}: {:?} -> {:?}",
            c.id,
            c.status,
            c.related.iter().map(|r| &r.content).collect::<Vec<_>>(),
            c.proposed.iter().map(|p| &p.content).collect::<Vec<_>>()
        );
    }
    assert_eq!(pending.len(), 2, "{pending:#?}");
    assert!(
        pending
            .iter()
            .all(|c| c.status == ChangesetStatus::Pending && c.removed().count() == 1)
    );

    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo.jsonl");
    let mut out = Vec::new();
    memory.export_jsonl(&mut out).await.unwrap();
    std::fs::write(&path, out).unwrap();
    println!("wrote {}", path.display());
}
