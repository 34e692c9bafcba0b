//! Tests of settings loading and validation.
use super::*;

fn env(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
    move |name| pairs.iter().find(|(k, _)| *k == name).map(|(_, v)| (*v).to_owned())
}

#[test]
fn defaults_file_then_env() {
    let dir = tempfile::tempdir().unwrap();
    let s = Settings::load_with_env(dir.path(), env(&[])).unwrap();
    assert_eq!(s.review, ReviewPolicy::Guarded);
    assert_eq!(s.merge.top_k, 3);
    std::fs::write(dir.path().join("haema.toml"), "review = \"auto\"\n[merge]\ntop_k = 5\n").unwrap();
    let s = Settings::load_with_env(dir.path(), env(&[])).unwrap();
    assert_eq!((s.review, s.merge.top_k), (ReviewPolicy::Auto, 5));
    let s = Settings::load_with_env(
        dir.path(),
        env(&[("HAEMA_REVIEW", "review"), ("HAEMA_MERGE_TOP_K", "7")]),
    )
    .unwrap();
    assert_eq!((s.review, s.merge.top_k), (ReviewPolicy::Review, 7));
}

#[test]
fn a_blank_provider_setting_is_none_but_a_blank_spelling_is_no_provider() {
    let err = "".parse::<ProviderKind>().unwrap_err();
    assert_eq!(
        err.to_string(),
        "unknown provider ``; expected one of: none, openai, gemini, local"
    );
    assert_eq!(" local ".parse::<ProviderKind>().unwrap_err().value, " local ");
    assert_eq!(ProviderKind::from_setting(" local "), Ok(ProviderKind::Local));
    assert_eq!(ProviderKind::from_setting(" \t"), Ok(ProviderKind::None));

    let dir = tempfile::tempdir().unwrap();
    let s = Settings::load_with_env(dir.path(), env(&[("HAEMA_LLM", " "), ("HAEMA_EMBEDDER", "  ")])).unwrap();
    assert_eq!(
        (s.llm.provider, s.embedder.provider),
        (ProviderKind::None, Some(ProviderKind::None))
    );
    let s = Settings::load_with_env(dir.path(), env(&[("HAEMA_EMBEDDER", " gemini ")])).unwrap();
    assert_eq!(s.embedder.provider, Some(ProviderKind::Gemini));
    let err = Settings::load_with_env(dir.path(), env(&[("HAEMA_EMBEDDER", "lcoal")]))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("HAEMA_EMBEDDER=\"lcoal\" is not valid: unknown provider `lcoal`; expected one of: none, openai, gemini, local"),
        "{err}"
    );

    let s = Settings::from_toml("[llm]\nprovider = \"\"\n[embedder]\nprovider = \" \"\n").unwrap();
    assert_eq!(
        (s.llm.provider, s.embedder.provider),
        (ProviderKind::None, Some(ProviderKind::None))
    );
    let s = Settings::from_toml("[llm]\nprovider = \"gemini\"\n[embedder]\nprovider = \"local\"\n").unwrap();
    assert_eq!(
        (s.llm.provider, s.embedder.provider),
        (ProviderKind::Gemini, Some(ProviderKind::Local))
    );
    assert_eq!(
        Settings::from_toml("").unwrap().embedder.provider,
        None,
        "unset is not none"
    );
    let err = Settings::from_toml("[embedder]\nprovider = \"openia\"\n").unwrap_err();
    assert!(err.contains("unknown provider `openia`; expected one of"), "{err}");
    let written = toml::to_string(&s).unwrap();
    assert_eq!(Settings::from_toml(&written).unwrap(), s, "{written}");
}

#[test]
fn haema_constructor_validation() {
    let dir = tempfile::tempdir().unwrap();
    let err = Settings::load_with_env(dir.path(), env(&[("HAEMA_EMBED_DIMS", "0")]))
        .unwrap_err()
        .to_string();
    assert!(err.contains("dimension must be greater than 0"), "{err}");
    let err = Settings::load_with_env(dir.path(), env(&[("HAEMA_MERGE_TOP_K", "0")]))
        .unwrap_err()
        .to_string();
    assert!(err.contains("top_k must be greater than 0"), "{err}");
    let err = Settings::load_with_env(dir.path(), env(&[("HAEMA_MERGE_DISTANCE_CUTOFF", "-0.1")]))
        .unwrap_err()
        .to_string();
    assert!(err.contains(">= 0"), "{err}");
    assert!(Settings::load_with_env(dir.path(), env(&[("HAEMA_MERGE_DISTANCE_CUTOFF", "0")])).is_ok());
    let err = Settings::load_with_env(dir.path(), env(&[("HAEMA_MERGE_TOP_K", "three")]))
        .unwrap_err()
        .to_string();
    assert!(err.contains("HAEMA_MERGE_TOP_K"), "{err}");
}

#[test]
fn the_docs_settings_example_is_valid() {
    let page = include_str!("../../../docs/configuration.md");
    let start = page.find("```toml\n").expect("docs/configuration.md has a toml block") + "```toml\n".len();
    let end = start + page[start..].find("```").expect("the block ends");
    let settings = Settings::from_toml(&page[start..end]).unwrap();
    assert_eq!(settings.embedder.batch_size, 32);
    assert_eq!(settings.review, ReviewPolicy::Guarded);
}

#[test]
fn keys_in_the_file_are_refused() {
    let err = Settings::from_toml("[llm]\nprovider = \"openai\"\napi_key = \"sk-x\"\n").unwrap_err();
    assert!(err.contains("system keyring"), "{err}");
    assert!(
        err.contains("[llm] api_key") && err.contains("HAEMA_LLM_API_KEY"),
        "{err}"
    );
    let err = Settings::from_toml("[embedder]\napi_key = \"sk-x\"\n").unwrap_err();
    assert!(err.contains("HAEMA_EMBED_API_KEY"), "{err}");
    let err = Settings::from_toml("[llm]\nmodle = \"x\"\n").unwrap_err();
    assert!(err.contains("modle"), "{err}");
}

#[test]
fn openai_needs_a_key_only_at_openai() {
    let dir = tempfile::tempdir().unwrap();
    let s = Settings::load_with_env(dir.path(), env(&[("HAEMA_LLM", "openai")])).unwrap();
    let err = s.build_llm().err().unwrap().to_string();
    assert!(err.contains("HAEMA_LLM_API_KEY"), "{err}");
    let s = Settings::load_with_env(
        dir.path(),
        env(&[
            ("HAEMA_LLM", "openai"),
            ("HAEMA_LLM_BASE_URL", "http://127.0.0.1:11434/v1"),
        ]),
    )
    .unwrap();
    assert!(s.build_llm().unwrap().is_some());
    let s = Settings::load_with_env(
        dir.path(),
        env(&[
            ("HAEMA_EMBEDDER", "openai"),
            ("HAEMA_EMBED_BASE_URL", "http://127.0.0.1:1/v1"),
            ("HAEMA_EMBED_MODEL", "mystery"),
        ]),
    )
    .unwrap();
    let err = s.build_embedder().err().unwrap().to_string();
    assert!(err.contains("HAEMA_EMBED_DIMS"), "{err}");
}

#[test]
fn tui_keys_take_a_key_or_a_list() {
    let settings =
        Settings::from_toml("[tui]\nmouse = false\n[tui.keys]\nquit = \"ctrl-q\"\napprove = [\"y\", \"enter\"]\n")
            .unwrap();
    assert!(!settings.tui.mouse);
    assert_eq!(settings.tui.keys["quit"].keys(), vec!["ctrl-q"]);
    assert_eq!(settings.tui.keys["approve"].keys(), vec!["y", "enter"]);
    assert!(Settings::default().tui.mouse);
    let bad = Settings::from_toml("[tui]\ncolour = 1\n").unwrap_err();
    assert!(bad.contains("colour"), "{bad}");
}

#[test]
fn the_loader_reads_exactly_the_declared_variables() {
    let dir = tempfile::tempdir().unwrap();
    let asked = std::cell::RefCell::new(Vec::<String>::new());
    Settings::load_with_env(dir.path(), |name| {
        asked.borrow_mut().push(name.to_owned());
        None
    })
    .unwrap();
    let mut asked = asked.into_inner();
    asked.sort();
    let mut declared: Vec<String> = SETTINGS
        .iter()
        .filter(|s| s.read_by == ReadBy::Settings)
        .filter_map(|s| s.env.map(str::to_owned))
        .collect();
    declared.sort();
    assert_eq!(
        asked, declared,
        "every variable the loader reads is declared in SETTINGS, and only those"
    );
}

#[test]
fn the_registry_is_well_formed() {
    let mut names: Vec<&str> = SETTINGS.iter().map(|s| s.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), SETTINGS.len(), "names are unique");
    let mut vars: Vec<&str> = SETTINGS.iter().filter_map(|s| s.env).collect();
    let count = vars.len();
    vars.sort_unstable();
    vars.dedup();
    assert_eq!(vars.len(), count, "variables are unique");
    for spec in SETTINGS {
        let loaded = spec.read_by == ReadBy::Settings;
        assert!(!spec.help.is_empty() && !spec.default.is_empty(), "{}", spec.name);
        assert_eq!(spec.show.is_some(), loaded, "{}: shown when loaded", spec.name);
        assert_eq!(
            spec.set.is_some(),
            loaded && spec.env.is_some(),
            "{}: set from its variable",
            spec.name
        );
        assert!(
            spec.file.is_some() || spec.env.is_some(),
            "{}: settable somewhere",
            spec.name
        );
        if let Some(set) = spec.set {
            for value in spec.allowed {
                let mut s = Settings::default();
                set(&mut s, value).unwrap_or_else(|e| panic!("{} = {value}: {e}", spec.name));
                assert_eq!(spec.show.map(|show| show(&s)).as_deref(), Some(*value), "{}", spec.name);
            }
        }
    }
    let json = serde_json::to_value(SETTINGS).unwrap();
    assert_eq!(json[1]["name"], "review");
    assert_eq!(json[1]["file"], "store");
    assert_eq!(json[1]["allowed"], serde_json::json!(["auto", "review", "guarded"]));
    assert!(json[1].get("set").is_none() && json[1].get("show").is_none());
}

#[test]
fn the_leaves_of_a_settings_table_stop_at_declared_settings() {
    let table: toml::Table =
        "review = \"auto\"\n[llm]\nmodel = \"m\"\n[tui.keys]\nquit = \"q\"\napprove = [\"y\"]\n[extra.deep]\nkey = 1\n"
            .parse()
            .unwrap();
    let leaves: Vec<(String, String)> = dotted_leaves(&table)
        .into_iter()
        .map(|(key, value)| (key, value.to_string()))
        .collect();
    let expected = [
        ("extra.deep.key", "1"),
        ("llm.model", "\"m\""),
        ("review", "\"auto\""),
        ("tui.keys", "{ approve = [\"y\"], quit = \"q\" }"),
    ]
    .map(|(k, v)| (k.to_owned(), v.to_owned()));
    assert_eq!(leaves, expected, "tui.keys is one setting; unknown keys are listed too");
    assert!(dotted_leaves(&toml::Table::new()).is_empty());
}

#[test]
fn every_file_key_is_declared_with_the_code_default() {
    let mut full = Settings::default();
    full.llm.base_url = Some("http://x".into());
    full.llm.model = Some("m".into());
    full.embedder.provider = Some(ProviderKind::Openai);
    full.embedder.base_url = Some("http://x".into());
    full.embedder.model = Some("m".into());
    full.embedder.dims = Some(8);
    full.tui.keys.insert("quit".into(), KeyList::One("q".into()));
    let table = toml::Table::try_from(&full).unwrap();
    let mut keys: Vec<String> = dotted_leaves(&table).into_iter().map(|(key, _)| key).collect();
    keys.sort();
    let mut declared: Vec<String> = SETTINGS
        .iter()
        .filter(|s| s.read_by != ReadBy::FrontEnd)
        .filter_map(|s| s.file_key().map(str::to_owned))
        .collect();
    declared.sort();
    assert_eq!(keys, declared, "the fields of Settings are the declared file keys");

    let defaults = toml::Table::try_from(Settings::default()).unwrap();
    for spec in SETTINGS {
        let shown = match spec.file_key().and_then(|k| registry::lookup(&defaults, k)) {
            Some(toml::Value::String(s)) => s.clone(),
            Some(v @ (toml::Value::Integer(_) | toml::Value::Float(_) | toml::Value::Boolean(_))) => v.to_string(),
            _ => continue,
        };
        assert_eq!(spec.default, shown, "{}: the declared default is the code's", spec.name);
    }
}

#[test]
fn the_user_file_holds_the_tui_and_a_store_file_still_wins() {
    let (store, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let user = home.path().join("config.toml");
    let s = Settings::load_with(store.path(), Some(&user), env(&[])).unwrap();
    assert_eq!(s.tui, TuiSettings::default(), "no user file: the defaults");
    std::fs::write(
        &user,
        "[tui]\nmouse = false\n[tui.keys]\nquit = \"ctrl-q\"\napprove = \"y\"\n",
    )
    .unwrap();
    let s = Settings::load_with(store.path(), Some(&user), env(&[])).unwrap();
    assert!(!s.tui.mouse);
    assert_eq!(s.tui.keys["quit"].keys(), vec!["ctrl-q"]);
    std::fs::write(
        Settings::file_path(store.path()),
        "review = \"auto\"\n[tui.keys]\napprove = \"enter\"\n",
    )
    .unwrap();
    let s = Settings::load_with(store.path(), Some(&user), env(&[])).unwrap();
    assert!(!s.tui.mouse, "the store's file does not set mouse: the user's stands");
    assert_eq!(s.tui.keys["quit"].keys(), vec!["ctrl-q"]);
    assert_eq!(s.tui.keys["approve"].keys(), vec!["enter"], "the store's binding wins");
    assert_eq!(s.review, ReviewPolicy::Auto);
    let lines = Settings::explain_with(store.path(), Some(&user), env(&[])).unwrap();
    let source = |key: &str| lines.iter().find(|l| l.key == key).map(|l| l.source);
    assert_eq!(source("tui.mouse"), Some(Source::UserFile));
    assert_eq!(source("tui.keys"), Some(Source::File));
    assert_eq!(source("review"), Some(Source::File));
    assert_eq!(source("store"), None, "front ends show the store themselves");

    std::fs::write(Settings::file_path(store.path()), "[tui]\nmouse = true\n").unwrap();
    assert!(
        Settings::load_with(store.path(), Some(&user), env(&[]))
            .unwrap()
            .tui
            .mouse
    );
    std::fs::write(&user, "[llm]\nprovider = \"openai\"\n").unwrap();
    let err = Settings::load_with(store.path(), Some(&user), env(&[]))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("config.toml") && err.contains("only `store` and [tui]"),
        "{err}"
    );
}

#[test]
fn messages_name_where_a_setting_is_set() {
    assert_eq!(registry::origin("embedder.dims"), "HAEMA_EMBED_DIMS / [embedder] dims");
    assert_eq!(registry::origin("embedder.batch_size"), "[embedder] batch_size");
    assert_eq!(registry::origin("review"), "HAEMA_REVIEW / review");
    let dir = tempfile::tempdir().unwrap();
    let err = Settings::load_with_env(dir.path(), env(&[("HAEMA_LLM", "local")]))
        .unwrap_err()
        .to_string();
    assert!(err.contains(": HAEMA_LLM=local is not supported"), "{err}");
}
