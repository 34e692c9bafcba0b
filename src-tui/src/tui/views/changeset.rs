//! How a changeset reads: related memories against proposed ones with the changed words
//! marked, the core.md diff, and the full record for the details window.

use haema_core::review::diff::{self, Change};
use haema_core::review::view::{self, SHOWN_ITEMS as SHOWN, partner};
use haema_core::{Changeset, ChangesetId, ChangesetStatus, ChangesetSummary, DecidedBy, Outcome};
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::Ui;
use crate::tui::clock::Clock;

/// `… and 12 more` when `total` items were cut to [`SHOWN`].
fn more_line(total: usize, ui: &Ui) -> Option<Line<'static>> {
    (total > SHOWN).then(|| {
        Line::from(Span::styled(
            format!("… and {} more (`haema export` lists them all)", total - SHOWN),
            ui.theme.dim(),
        ))
    })
}

/// The inputs of a changeset on one line: the first three, and how many more.
pub fn inputs_line(cs: &Changeset) -> String {
    crate::output::inputs_line(&cs.inputs, cs.inputs.len())
}

/// `marker text`, with the words that differ from the partner emphasised.
fn marked<'a>(marker: &'a str, text: &str, partner: Option<&str>, base: Style, removed: bool, ui: &Ui) -> Line<'a> {
    let mut spans = vec![Span::styled(marker, base)];
    if partner.is_none() {
        spans.push(Span::styled(text.to_owned(), base));
        return Line::from(spans);
    }
    for piece in view::marked(text, partner, removed) {
        let style = match piece.change {
            Change::Same => base,
            _ => ui.theme.emphasis(base),
        };
        spans.push(Span::styled(piece.text, style));
    }
    Line::from(spans)
}

/// The related memories: replaced ones marked `-` (with their distance), kept ones `=`.
pub fn related_lines(cs: &Changeset, ui: &Ui) -> Vec<Line<'static>> {
    let added: Vec<&str> = cs.added().map(|p| p.content.as_str()).collect();
    let mut lines = Vec::new();
    for r in cs.related.iter().take(SHOWN) {
        let distance = r.distance.map(|d| format!("  d={d:.3}")).unwrap_or_default();
        let mut line = if r.kept {
            Line::from(vec![
                Span::styled("= ", ui.theme.dim()),
                Span::styled(r.content.clone(), ui.theme.dim()),
            ])
        } else {
            marked(
                "- ",
                &r.content,
                partner(&r.content, &added),
                ui.theme.removed(),
                true,
                ui,
            )
        };
        line.spans.push(Span::styled(distance, ui.theme.dim()));
        lines.push(line);
    }
    lines.extend(more_line(cs.related.len(), ui));
    if lines.is_empty() {
        lines.push(Line::from(Span::styled(
            "(no related memories: only new ones)",
            ui.theme.dim(),
        )));
    }
    lines
}

/// The proposed memories: new ones `+`, carried over ones `=`.
pub fn proposed_lines(cs: &Changeset, ui: &Ui) -> Vec<Line<'static>> {
    let removed: Vec<&str> = cs.removed().map(|r| r.content.as_str()).collect();
    let mut lines: Vec<Line<'static>> = cs
        .proposed
        .iter()
        .take(SHOWN)
        .map(|p| {
            if p.kept {
                Line::from(vec![
                    Span::styled("= ", ui.theme.dim()),
                    Span::styled(p.content.clone(), ui.theme.dim()),
                ])
            } else {
                marked(
                    "+ ",
                    &p.content,
                    partner(&p.content, &removed),
                    ui.theme.added(),
                    false,
                    ui,
                )
            }
        })
        .collect();
    lines.extend(more_line(cs.proposed.len(), ui));
    if lines.is_empty() {
        lines.push(Line::from(Span::styled(
            "(removes memories, adds none)",
            ui.theme.dim(),
        )));
    }
    lines
}

/// The core.md diff: changed lines with one line of context.
pub fn core_lines(cs: &Changeset, ui: &Ui) -> Vec<Line<'static>> {
    let (Some(before), Some(after)) = (&cs.core_before, &cs.core_after) else {
        return Vec::new();
    };
    diff_lines(before, after, ui)
}

/// A line diff with one line of context around changes; `…` marks skipped lines.
pub fn diff_lines(before: &str, after: &str, ui: &Ui) -> Vec<Line<'static>> {
    let pieces = diff::lines(before, after);
    let near_change = |i: usize| {
        pieces[i.saturating_sub(1)..(i + 2).min(pieces.len())]
            .iter()
            .any(|p| p.change != Change::Same)
    };
    let mut lines = Vec::new();
    let mut skipped = false;
    for (i, piece) in pieces.iter().enumerate() {
        let (marker, style) = match piece.change {
            Change::Same if !near_change(i) => {
                if !skipped {
                    lines.push(Line::from(Span::styled("  …", ui.theme.dim())));
                }
                skipped = true;
                continue;
            }
            Change::Same => ("  ", ui.theme.dim()),
            Change::Removed => ("- ", ui.theme.removed()),
            Change::Added => ("+ ", ui.theme.added()),
        };
        skipped = false;
        lines.push(Line::from(Span::styled(format!("{marker}{}", piece.text), style)));
    }
    if lines.iter().all(|l| l.spans.iter().all(|s| s.content.trim() == "…")) {
        return vec![Line::from(Span::styled("(no difference)", ui.theme.dim()))];
    }
    lines
}

/// `committed by user` and the like.
pub fn status_text(cs: &Changeset) -> String {
    status_words(cs.status, cs.decided_by, cs.reverted_by_id)
}

/// [`status_text`] of a summary.
pub fn summary_status(cs: &ChangesetSummary) -> String {
    status_words(cs.status, cs.decided_by, cs.reverted_by_id)
}

fn status_words(status: ChangesetStatus, decided_by: Option<DecidedBy>, reverted_by: Option<ChangesetId>) -> String {
    let word = status.as_str();
    match (decided_by, status) {
        (_, ChangesetStatus::Pending) => "pending".into(),
        (_, ChangesetStatus::Reverted) => match reverted_by {
            Some(by) => format!("reverted by #{by}"),
            None => "reverted".into(),
        },
        (Some(by), _) => format!("{word} by {by}"),
        (None, _) => word.into(),
    }
}

/// One line for lists: `+2 -1 core  input…`, after `via NAME · ` for a change an agent
/// made through its key.
pub fn summary(cs: &ChangesetSummary) -> String {
    let words = change_words(cs);
    match &cs.agent_key {
        Some(agent) => format!("via {agent} · {words}"),
        None => words,
    }
}

/// What a change did, in a line: [`summary`] without who made it.
pub fn change_words(cs: &ChangesetSummary) -> String {
    let quoted = |text: &Option<String>| format!("“{}”", super::widgets::one_line(text.as_deref().unwrap_or("")));
    let core = if cs.changes_core { " core" } else { "" };
    // A delete or an edit of one memory names it; other changes show their input.
    match (cs.reverts_id, cs.outcome) {
        (None, Outcome::Deleted) if cs.first_removed.is_some() => {
            return format!("-1  deleted {}", quoted(&cs.first_removed));
        }
        (None, Outcome::Edited) if cs.first_removed.is_some() && cs.first_added.is_some() => {
            return format!(
                "+1 -1  changed {} to {}",
                quoted(&cs.first_removed),
                quoted(&cs.first_added)
            );
        }
        _ => {}
    }
    let input = match cs.reverts_id {
        Some(r) => format!("undo of #{r}"),
        None => cs
            .raw_input
            .clone()
            .unwrap_or_else(|| crate::output::inputs_line(&cs.first_inputs, cs.input_count)),
    };
    format!(
        "+{} -{}{core}  {}",
        cs.added,
        cs.removed,
        super::widgets::one_line(&input)
    )
}

/// Everything about a changeset, for the details window.
pub fn full_lines(cs: &Changeset, ui: &Ui, clock: Clock) -> Vec<Line<'static>> {
    let mut lines = vec![
        Line::from(Span::styled(
            format!("Changeset #{} · {} · {}", cs.id, cs.kind, status_text(cs)),
            ui.theme.accent(),
        )),
        Line::from(Span::styled(
            format!("made {} · {}", clock.format(cs.created_at_ms), cs.outcome.describe()),
            ui.theme.dim(),
        )),
    ];
    if let Some(agent) = &cs.agent_key {
        lines.push(Line::from(format!("made by agent key {agent}")));
    }
    if let Some(at) = cs.decided_at_ms {
        lines.push(Line::from(Span::styled(
            format!("decided {}", clock.format(at)),
            ui.theme.dim(),
        )));
    }
    if let Some(r) = cs.reverts_id {
        lines.push(Line::from(format!("reverts changeset #{r}")));
    }
    if let Some(r) = cs.reverted_by_id {
        lines.push(Line::from(format!("reverted by changeset #{r}")));
    }
    let section = |title: &str| {
        vec![
            Line::from(""),
            Line::from(Span::styled(title.to_owned(), ui.theme.accent())),
        ]
    };
    lines.extend(section("Input"));
    match &cs.raw_input {
        Some(raw) => lines.extend(raw.lines().map(|l| Line::from(l.to_owned()))),
        None => {
            lines.extend(cs.inputs.iter().take(SHOWN).map(|i| Line::from(format!("• {i}"))));
            lines.extend(more_line(cs.inputs.len(), ui));
        }
    }
    lines.extend(section("Related memories"));
    lines.extend(related_lines(cs, ui));
    lines.extend(section("Proposed memories"));
    lines.extend(proposed_lines(cs, ui));
    let core = core_lines(cs, ui);
    if !core.is_empty() {
        lines.extend(section("core.md"));
        lines.extend(core);
    }
    if !cs.warnings.is_empty() {
        lines.extend(section("Warnings"));
        lines.extend(
            cs.warnings
                .iter()
                .map(|w| Line::from(Span::styled(format!("! {w}"), ui.theme.warning()))),
        );
    }
    let models: Vec<String> = [cs.llm.clone(), cs.embedder.clone()].into_iter().flatten().collect();
    if !models.is_empty() {
        lines.extend(section("Providers"));
        lines.push(Line::from(models.join(" · ")));
    }
    for call in &cs.llm_calls {
        lines.extend(section(&format!("LLM answer: {}", call.stage)));
        if let Some(answer) = &call.answer {
            let pretty = serde_json::to_string_pretty(answer).unwrap_or_default();
            lines.extend(
                pretty
                    .lines()
                    .map(|l| Line::from(Span::styled(l.to_owned(), ui.theme.dim()))),
            );
        }
        if let Some(e) = &call.error {
            lines.push(Line::from(Span::styled(format!("not used: {e}"), ui.theme.warning())));
        }
    }
    lines
}
