//! Sample data for the state machine and snapshot tests: fixed ids and times, so that
//! frames are the same on every machine.

use std::collections::BTreeSet;

use haema_core::{
    AgentStateKey, Changeset, ChangesetId, ChangesetKind, ChangesetStatus, CoreAuthor, CoreSections, CoreVersion,
    CoreVersionId, DecidedBy, ForgetPlan, ForgetRecord, MemoryRecord, MemoryStatus, Outcome, PendingForget,
    ProposedItem, RelatedItem, ReviewPolicy, Section, StoreInfo,
};

/// 2026-11-18 11:06:40 UTC.
pub const T0: i64 = 1_795_000_000_000;

/// A memory made by changeset `changeset`, `minutes` before T0.
pub fn memory(id: &str, content: &str, minutes: i64, changeset: i64) -> MemoryRecord {
    MemoryRecord {
        attributes: Default::default(),
        timestamp: String::new(),
        id: id.into(),
        content: content.into(),
        timestamp_ms: T0 - minutes * 60_000,
        updated_at_ms: T0 - minutes * 60_000,
        status: MemoryStatus::Active,
        changeset_id: Some(ChangesetId::from(changeset)),
        superseded_by: None,
        pinned: false,
        has_embedding: true,
    }
}

/// Everyday memories.
pub fn memories() -> Vec<MemoryRecord> {
    vec![
        memory("m5", "The user prefers green tea to coffee, without sugar.", 1, 5),
        MemoryRecord {
            attributes: haema_core::MemoryAttributes {
                memory_type: Some("fact".into()),
                importance: Some(0.9),
                source: Some("doctor's letter".into()),
                ..Default::default()
            },
            pinned: true,
            ..memory("m4", "The user is allergic to peanuts.", 30, 4)
        },
        memory("m3", "The user works as a cellist in Seoul.", 90, 3),
        memory("m2", "The user's sister Ana visits every December.", 600, 2),
        memory("m1", "The user runs on Sunday mornings.", 3000, 1),
    ]
}

/// One memory far longer than a line.
pub fn long_memories() -> Vec<MemoryRecord> {
    let long = "The user keeps a detailed practice journal: scales for twenty minutes, then Bach suites, \
                then orchestral excerpts, and writes down every tempo, every fingering change and every \
                tension in the shoulders so that the teacher can see the week at a glance on Fridays.";
    vec![
        memory("m9", long, 2, 9),
        memory("m8", &long.replace("Fridays", "Mondays"), 3, 8),
    ]
}

/// CJK, Korean and emoji.
pub fn unicode_memories() -> Vec<MemoryRecord> {
    vec![
        memory("u3", "사용자는 서울에 살고 첼로를 연주해요 🎻", 1, 12),
        memory("u2", "ユーザーは緑茶が好きです 🍵 砂糖なし", 2, 11),
        memory("u1", "用户对花生过敏 🥜⚠️", 3, 10),
    ]
}

/// Store counts.
pub fn info(active: usize, pending: usize) -> StoreInfo {
    StoreInfo {
        dir: "/stores/default".into(),
        location: "/stores/default".into(),
        name: "default".into(),
        active,
        pending_changesets: pending,
        captures_waiting: 0,
        embedder: "local:all-MiniLM-L6-v2".into(),
        dims: 384,
        embedder_wanted: None,
        vectors_behind: false,
        scope: haema_core::StoreScope::Shared,
        user: None,
        lexical_reason: None,
        llm: Some("openai:gpt-4o-mini".into()),
        review: ReviewPolicy::Guarded,
    }
}

/// A pending merge: two related memories, one kept, one rewritten; core changes too.
pub fn merge(id: i64) -> Changeset {
    Changeset {
        attributes: Default::default(),
        agent_key: None,
        id: ChangesetId::from(id),
        kind: ChangesetKind::Add,
        status: ChangesetStatus::Pending,
        outcome: Outcome::Reconstructed,
        created_at_ms: T0 - 5 * 60_000,
        decided_at_ms: None,
        decided_by: None,
        raw_input: Some("Actually I switched to black coffee last month.".into()),
        inputs: vec!["The user switched to black coffee last month.".into()],
        related: vec![
            RelatedItem {
                memory_id: "m5".into(),
                content: "The user prefers green tea to coffee, without sugar.".into(),
                distance: Some(0.1834),
                kept: false,
            },
            RelatedItem {
                memory_id: "m4".into(),
                content: "The user is allergic to peanuts.".into(),
                distance: Some(0.2411),
                kept: true,
            },
        ],
        proposed: vec![
            ProposedItem {
                attributes: Default::default(),
                memory_id: Some("n1".into()),
                content: "The user prefers black coffee to green tea, without sugar.".into(),
                kept: false,
            },
            ProposedItem {
                attributes: Default::default(),
                memory_id: Some("m4".into()),
                content: "The user is allergic to peanuts.".into(),
                kept: true,
            },
        ],
        core_before: Some("# SOUL\n\n# TOOLS\n\n# RULE\n\n# USER\n- Drinks green tea\n".into()),
        core_after: Some("# SOUL\n\n# TOOLS\n\n# RULE\n\n# USER\n- Drinks black coffee\n".into()),
        llm: Some("openai:gpt-4o-mini".into()),
        embedder: Some("local:all-MiniLM-L6-v2".into()),
        llm_calls: Vec::new(),
        warnings: Vec::new(),
        reverts_id: None,
        reverted_by_id: None,
        forget: None,
    }
}

/// An agent's pending request to forget everything mentioning "default" (MCP's
/// `forget_memory`), and what approving it would remove: one memory, and the agent
/// `default`'s two state keys.
pub fn forget_request(id: i64) -> (Changeset, PendingForget) {
    let changeset = Changeset {
        kind: ChangesetKind::Forget,
        outcome: Outcome::Forget,
        raw_input: None,
        inputs: Vec::new(),
        related: vec![RelatedItem {
            memory_id: "m9".into(),
            content: "The default editor is vim.".into(),
            distance: None,
            kept: false,
        }],
        proposed: Vec::new(),
        core_before: None,
        core_after: None,
        llm: None,
        embedder: None,
        forget: Some(ForgetRecord {
            mentioning: Some("default".into()),
            receipt: None,
        }),
        ..merge(id)
    };
    let key = |key: &str| AgentStateKey {
        agent_id: "default".into(),
        key: key.into(),
    };
    let plan = ForgetPlan {
        memories: vec![memory("m9", "The default editor is vim.", 90, 3)],
        changesets: 1,
        core_versions: 0,
        agent_state: 4,
        agent_state_removed: vec![key("task"), key("cursor")],
    };
    let pending = PendingForget {
        changeset: ChangesetId::from(id),
        mentioning: Some("default".into()),
        memory_ids: vec!["m9".into()],
        plan,
    };
    (changeset, pending)
}

/// A stale changeset with CJK text.
pub fn stale(id: i64) -> Changeset {
    Changeset {
        status: ChangesetStatus::Stale,
        raw_input: Some("저는 이제 부산에 살아요 🌊".into()),
        inputs: vec!["사용자는 이제 부산에 살아요 🌊".into()],
        related: vec![RelatedItem {
            memory_id: "u3".into(),
            content: "사용자는 서울에 살고 첼로를 연주해요 🎻".into(),
            distance: Some(0.12),
            kept: false,
        }],
        proposed: vec![ProposedItem {
            attributes: Default::default(),
            memory_id: Some("n2".into()),
            content: "사용자는 부산에 살고 첼로를 연주해요 🎻🌊".into(),
            kept: false,
        }],
        core_before: None,
        core_after: None,
        ..merge(id)
    }
}

/// A history: committed, rejected, reverted and its revert.
pub fn history() -> Vec<Changeset> {
    let committed = |id, text: &str, by: DecidedBy| Changeset {
        status: ChangesetStatus::Committed,
        decided_by: Some(by),
        decided_at_ms: Some(T0 - 60_000),
        raw_input: Some(text.into()),
        related: Vec::new(),
        proposed: vec![ProposedItem {
            attributes: Default::default(),
            memory_id: Some(format!("h{id}").into()),
            content: text.into(),
            kept: false,
        }],
        core_before: None,
        core_after: None,
        outcome: Outcome::NoLlm,
        ..merge(id)
    };
    vec![
        Changeset {
            kind: ChangesetKind::Revert,
            reverts_id: Some(ChangesetId::from(3)),
            raw_input: None,
            inputs: Vec::new(),
            outcome: Outcome::Revert,
            ..committed(4, "", DecidedBy::User)
        },
        Changeset {
            status: ChangesetStatus::Reverted,
            reverted_by_id: Some(ChangesetId::from(4)),
            ..committed(3, "The user moved to Busan.", DecidedBy::User)
        },
        Changeset {
            status: ChangesetStatus::Rejected,
            ..committed(2, "The user hates tea.", DecidedBy::User)
        },
        committed(1, "The user runs on Sunday mornings.", DecidedBy::Auto),
    ]
}

/// core.md with every section filled, USER locked.
pub fn core() -> (CoreSections, BTreeSet<Section>) {
    let text = "# SOUL\nYou are a calm, concise assistant.\n\n# TOOLS\n- `rg` for searching code\n- `git` for history\n\n# RULE\n1. Never share the user's address.\n2. Ask before deleting files.\n\n# USER\n## Profile\n- Name: Mina (미나) 🎻\n- Likes **green tea**\n> prefers short answers\n";
    let sections = CoreSections::parse(text).unwrap_or_default();
    (sections, BTreeSet::from([Section::User]))
}

/// Three versions of core.md.
pub fn core_versions() -> Vec<CoreVersion> {
    let v = |id: i64, content: &str, author: CoreAuthor, minutes: i64| CoreVersion {
        id: CoreVersionId::from(id),
        content: content.into(),
        author,
        changeset_id: (author == CoreAuthor::Llm).then_some(ChangesetId::from(7)),
        created_at_ms: T0 - minutes * 60_000,
    };
    vec![
        v(
            3,
            "# SOUL\nYou are calm.\n\n# TOOLS\n\n# RULE\n\n# USER\n- Likes black coffee\n",
            CoreAuthor::Llm,
            1,
        ),
        v(
            2,
            "# SOUL\nYou are calm.\n\n# TOOLS\n\n# RULE\n\n# USER\n- Likes green tea\n",
            CoreAuthor::User,
            60,
        ),
        v(1, haema_core::CORE_TEMPLATE, CoreAuthor::Initial, 600),
    ]
}

/// Agent keys: one in use, one never used and bound to a user, one revoked.
pub fn agent_keys() -> Vec<haema_core::AgentKey> {
    use haema_core::{AgentAccess, AgentKey};
    let key = |name: &str, access| AgentKey {
        name: name.into(),
        access,
        user_id: None,
        created_at_ms: T0 - 86_400_000,
        expires_at_ms: None,
        last_used_ms: None,
        revoked_at_ms: None,
    };
    vec![
        AgentKey {
            last_used_ms: Some(T0 - 120_000),
            ..key("claude-laptop", AgentAccess::Propose)
        },
        AgentKey {
            user_id: Some("ana".into()),
            expires_at_ms: Some(4_102_444_800_000),
            ..key("ci-bot", AgentAccess::Read)
        },
        AgentKey {
            revoked_at_ms: Some(T0 - 60_000),
            last_used_ms: Some(T0 - 3_600_000),
            ..key("old-agent", AgentAccess::Write)
        },
    ]
}

/// A key as made: the key shown once.
pub fn new_key() -> haema_core::NewAgentKey {
    haema_core::NewAgentKey {
        key: "haema_ak_0123456789abcdefghijABCDEFGHIJ0123456789".into(),
        agent: agent_keys().remove(0),
    }
}
