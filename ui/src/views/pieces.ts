// Renders the core's diff pieces: removed words struck through, added words marked.
// (The pairing and the word diff are computed in haema-core, shared with the TUI.)
import type { ChangesetView, Piece } from "../api";
import { h } from "../dom";

export function pieces(list: Piece[]): DocumentFragment {
  const out = document.createDocumentFragment();
  for (const piece of list) {
    if (piece.change === "same") out.append(piece.text);
    else if (piece.change === "removed") out.append(h("del", {}, piece.text));
    else out.append(h("ins", {}, piece.text));
  }
  return out;
}

/** A line diff: one line per piece. */
export function lineDiff(list: Piece[], label: string): HTMLElement {
  return h(
    "div",
    { class: "line-diff", role: "group", "aria-label": label },
    ...list.map((p) =>
      h(
        p.change === "same" ? "span" : p.change === "removed" ? "del" : "ins",
        { class: `line ${p.change}` },
        p.text === "" ? " " : p.text,
      ),
    ),
  );
}

/** The before/after of a change, read-only (history). */
export function beforeAfter(view: ChangesetView): HTMLElement {
  const side = (title: string, items: ChangesetView["before"], more: number, empty: string) =>
    h(
      "section",
      { class: "side", "aria-label": title },
      h("h3", {}, title),
      items.length === 0 ? h("p", { class: "muted" }, empty) : null,
      h(
        "ul",
        {},
        ...items.map((item) =>
          h("li", { class: item.kept ? "kept" : "changed" }, pieces(item.pieces), item.kept ? h("span", { class: "tag" }, "unchanged") : null),
        ),
      ),
      more > 0 ? h("p", { class: "muted" }, `… and ${more} more`) : null,
    );
  return h(
    "div",
    { class: "before-after" },
    side("Before", view.before, view.before_more, "Nothing was there before."),
    side("After", view.after, view.after_more, "Nothing is kept."),
    view.core ? h("section", { class: "core-diff" }, h("h3", {}, "Profile"), lineDiff(view.core, "Profile changes")) : null,
  );
}

/** Ids, models and the AI's raw answers, folded away. */
export function technical(view: ChangesetView): HTMLElement {
  const cs = view.changeset;
  const rows: Array<[string, string]> = [
    ["Change number", String(cs.id)],
    ["Type of change", `${cs.kind} (${cs.outcome})`],
    ["Status", cs.status + (cs.decided_by ? ` by ${cs.decided_by}` : "")],
    ["AI", cs.llm ?? "none"],
    ["Search model", cs.embedder ?? "none"],
  ];
  if (cs.reverts_id !== null) rows.push(["Undoes change", String(cs.reverts_id)]);
  if (cs.reverted_by_id !== null) rows.push(["Undone by change", String(cs.reverted_by_id)]);
  return h(
    "details",
    { class: "technical" },
    h("summary", {}, "Technical details"),
    h("dl", {}, ...rows.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)])),
    ...cs.llm_calls.map((call) =>
      h(
        "div",
        {},
        h("h4", {}, `The AI's answer (${call.stage})`),
        call.error ? h("p", { class: "warning" }, call.error) : null,
        h("pre", {}, JSON.stringify(call.answer, null, 2)),
      ),
    ),
  );
}
