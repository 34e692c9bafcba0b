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
fn the_readme_settings_example_is_valid() {
    let readme = include_str!("../../../README.md");
    let start = readme.find("```toml\n").expect("README has a toml block") + "```toml\n".len();
    let end = start + readme[start..].find("```").expect("the block ends");
    let settings = Settings::from_toml(&readme[start..end]).unwrap();
    assert_eq!(settings.embedder.batch_size, 32);
    assert_eq!(settings.review, ReviewPolicy::Guarded);
}

#[test]
fn keys_in_the_file_are_refused() {
    let err = Settings::from_toml("[llm]\nprovider = \"openai\"\napi_key = \"sk-x\"\n").unwrap_err();
    assert!(err.contains("environment only"), "{err}");
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
