//! Instruction overrides in Chinese, Japanese and Korean, which are written without spaces
//! between words: a text that holds a word of each of three groups matches.

/// Chinese, Japanese and Korean: a text holding a word of each group ("忽略" + "之前" +
/// "指令"), as these are written without spaces.
pub(crate) const CJK_OVERRIDES: &[[&[&str]; 3]] = &[
    [
        &["忽略", "无视", "無視", "忘记", "忘掉"],
        &["之前", "以上", "上面", "先前", "前面"],
        &["指令", "指示", "说明", "規則", "规则", "提示"],
    ],
    [
        &["無視", "忘れ"],
        &["以前", "上記", "これまで", "前の"],
        &["指示", "命令", "ルール", "プロンプト"],
    ],
    [
        &["무시", "잊어"],
        &["이전", "위의", "앞의"],
        &["지시", "명령", "지침", "규칙", "프롬프트"],
    ],
];

/// The first CJK override in `text`, as its three parts.
pub(crate) fn cjk_match(text: &str) -> Option<String> {
    CJK_OVERRIDES.iter().find_map(|groups| {
        let found: Vec<&str> = groups
            .iter()
            .filter_map(|g| g.iter().find(|w| text.contains(**w)).copied())
            .collect();
        (found.len() == 3).then(|| found.join("…"))
    })
}
