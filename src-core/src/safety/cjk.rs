//! Instruction overrides in Chinese, Japanese and Korean, which are written without spaces
//! between words: a sentence (up to `。！？` or a line end) that holds a word of each group
//! of a row matches ("忽略" + "之前" + "指令").

/// Rows of word groups; a sentence matches a row when it holds a word of every group.
pub(crate) const CJK_OVERRIDES: &[&[&[&str]]] = &[
    // Chinese, simplified and traditional: "ignore the previous instructions"
    &[
        &[
            "忽略",
            "忽视",
            "忽視",
            "无视",
            "無視",
            "忘记",
            "忘記",
            "忘掉",
            "忘了",
            "不要理会",
            "不要理會",
            "不理会",
            "别管",
            "別管",
            "跳过",
            "跳過",
            "抛弃",
            "拋棄",
            "丢弃",
            "丟棄",
            "放弃",
            "放棄",
            "绕过",
            "繞過",
            "撇开",
            "不用管",
            "无需遵守",
            "不要遵守",
            "不要遵循",
            "不再遵守",
            "不必遵守",
            "覆盖",
            "覆蓋",
            "作废",
            "作廢",
            "清除",
        ],
        &[
            "之前",
            "以上",
            "上面",
            "先前",
            "前面",
            "此前",
            "上述",
            "原来",
            "原來",
            "原有",
            "原先",
            "所有",
            "全部",
            "一切",
            "系统",
            "系統",
            "以前",
            "前述",
            "你的",
            "开发者",
        ],
        &[
            "指令",
            "指示",
            "说明",
            "說明",
            "规则",
            "規則",
            "提示",
            "命令",
            "设定",
            "設定",
            "约束",
            "約束",
            "限制",
            "准则",
            "準則",
            "规定",
            "規定",
            "要求",
            "安全策略",
        ],
    ],
    // Japanese
    &[
        &[
            "無視",
            "忘れ",
            "破棄",
            "無効",
            "従わ",
            "スキップ",
            "上書き",
            "捨て",
            "気にせず",
            "リセット",
        ],
        &[
            "以前",
            "上記",
            "これまで",
            "前の",
            "先の",
            "今まで",
            "すべて",
            "全て",
            "以上の",
            "上の",
            "システム",
            "元の",
            "最初の",
            "あなたの",
        ],
        &[
            "指示",
            "命令",
            "ルール",
            "プロンプト",
            "指令",
            "規則",
            "設定",
            "制約",
            "ガイドライン",
            "制限",
            "ポリシー",
        ],
    ],
    // Korean
    &[
        &[
            "무시",
            "잊어",
            "잊고",
            "잊으",
            "따르지 마",
            "따르지 말",
            "무효",
            "건너뛰",
            "버리",
            "덮어",
            "취소",
        ],
        &[
            "이전",
            "위의",
            "앞의",
            "지금까지",
            "모든",
            "기존",
            "위 ",
            "앞서",
            "시스템",
            "원래",
            "처음",
            "너의",
            "당신의",
        ],
        &[
            "지시",
            "명령",
            "지침",
            "규칙",
            "프롬프트",
            "설정",
            "가이드라인",
            "제한",
            "정책",
            "제약",
        ],
    ],
    // "the previous instructions are void"
    &[
        &[
            "之前",
            "以前",
            "上述",
            "先前",
            "原来",
            "原來",
            "以上",
            "前面",
            "所有",
            "以前の",
            "前の",
            "これまでの",
            "上記の",
            "이전",
            "위의",
            "기존",
            "지금까지",
        ],
        &[
            "指令",
            "指示",
            "规则",
            "規則",
            "说明",
            "說明",
            "命令",
            "ルール",
            "プロンプト",
            "지시",
            "명령",
            "지침",
            "규칙",
            "프롬프트",
        ],
        &[
            "已失效",
            "失效",
            "作废",
            "作廢",
            "无效",
            "無效",
            "不再有效",
            "不再适用",
            "已取消",
            "已被取消",
            "废除",
            "廢除",
            "撤销",
            "無効",
            "取り消",
            "廃止",
            "もう有効では",
            "適用されません",
            "유효하지 않",
            "무효",
            "취소",
            "폐기",
            "더 이상 적용되지",
            "효력을 잃",
        ],
    ],
    // "you are now …" with no limits, a persona or a mode
    &[
        &[
            "你现在是",
            "你現在是",
            "从现在开始你",
            "從現在開始你",
            "从现在起你",
            "現在起你",
        ],
        &[
            "没有限制",
            "沒有限制",
            "不受限制",
            "无限制",
            "無限制",
            "不受任何",
            "模式",
            "越狱",
            "越獄",
            "DAN",
            "dan",
            "没有任何规则",
            "AI",
            "ai",
            "角色",
        ],
    ],
    &[
        &["あなたは今から", "今からあなたは", "これからあなたは", "あなたはもう"],
        &[
            "制限のない",
            "制限なし",
            "制約のない",
            "モード",
            "脱獄",
            "dan",
            "ai",
            "キャラクター",
            "役",
        ],
    ],
    &[
        &[
            "너는 이제",
            "당신은 이제",
            "이제부터 너는",
            "이제부터 당신은",
            "지금부터 너는",
            "지금부터 당신은",
        ],
        &[
            "제한 없는",
            "제한이 없는",
            "제약 없는",
            "모드",
            "탈옥",
            "dan",
            "ai",
            "캐릭터",
            "역할",
        ],
    ],
    // Notes to the AI reading the text
    &[
        &[
            "AI",
            "ai",
            "人工智能",
            "人工智慧",
            "模型",
            "助手",
            "助理",
            "アシスタント",
            "モデル",
            "인공지능",
            "어시스턴트",
            "모델",
        ],
        &[
            "正在阅读",
            "正在閱讀",
            "读到这",
            "讀到這",
            "阅读本",
            "閱讀本",
            "阅读此",
            "閱讀此",
            "読んでいる",
            "読む",
            "읽는",
            "읽고 있는",
        ],
    ],
    // Revealing the system prompt
    &[
        &[
            "显示",
            "顯示",
            "输出",
            "輸出",
            "告诉我",
            "告訴我",
            "透露",
            "泄露",
            "洩露",
            "打印",
            "重复",
            "重複",
            "表示して",
            "教えて",
            "出力",
            "見せて",
            "繰り返",
            "보여",
            "알려",
            "출력",
            "공개",
            "반복",
        ],
        &[
            "系统提示",
            "系統提示",
            "系统指令",
            "系統指令",
            "システムプロンプト",
            "시스템 프롬프트",
            "시스템프롬프트",
            "初始提示",
            "隐藏的指令",
        ],
    ],
];

/// Urgent notices of new rules ("重要！！！新规则：…"): an alert word, then within a few
/// characters (marks between allowed) new rules or instructions.
const ALERTS: &[&str] = &[
    "重要", "紧急", "緊急", "注意", "警告", "通知", "중요", "긴급", "주의", "공지",
];
const NEW_RULES: &[&str] = &[
    "新规则",
    "新規則",
    "新的规则",
    "新的規則",
    "新指令",
    "新的指令",
    "新指示",
    "新的指示",
    "新政策",
    "新的政策",
    "新しいルール",
    "新しい指示",
    "新しい命令",
    "新しいポリシー",
    "新ルール",
    "新規ルール",
    "새 규칙",
    "새로운 규칙",
    "새 지시",
    "새로운 지시",
    "새 명령",
    "새로운 명령",
    "새 정책",
    "새로운 정책",
    "새 지침",
    "새로운 지침",
];

/// The first urgent notice of new rules in `text`.
fn notice(text: &str) -> Option<String> {
    ALERTS.iter().find_map(|alert| {
        text.match_indices(alert).find_map(|(at, _)| {
            let after: String = text[at + alert.len()..].chars().take(12).collect();
            let rule = NEW_RULES.iter().find(|r| after.contains(**r))?;
            let between = &after[..after.find(rule)?];
            between
                .chars()
                .all(|c| !c.is_alphanumeric())
                .then(|| format!("{alert}…{rule}"))
        })
    })
}

/// Words before a verb that turn "ignore" into "do not ignore".
const NEGATED: &[&str] = &[
    "不要忽略",
    "不要忽视",
    "不要忘记",
    "別忘記",
    "别忘记",
    "不要忘了",
    "勿忘",
    "무시하지 마",
    "잊지 마",
];

/// The first CJK override in `text`, as its parts.
pub(crate) fn cjk_match(text: &str) -> Option<String> {
    if text.is_ascii() {
        return None;
    }
    if let Some(found) = notice(text) {
        return Some(found);
    }
    for sentence in text.split(['。', '！', '？', '!', '?', '\n', '．']) {
        if sentence.is_ascii() || NEGATED.iter().any(|n| sentence.contains(n)) {
            continue;
        }
        // Korean past tense ("무시했다": reported, not ordered).
        let found = CJK_OVERRIDES.iter().find_map(|groups| {
            let found: Vec<&str> = groups
                .iter()
                .filter_map(|g| g.iter().find(|w| sentence.contains(**w)).copied())
                .collect();
            (found.len() == groups.len()).then(|| found.join("…"))
        });
        if found.is_some() && !sentence.contains("했다") && !sentence.contains("했습니다") {
            return found;
        }
    }
    None
}
