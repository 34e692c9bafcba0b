// "Changes waiting for you": each change as a before/after with the changed words marked;
// every new memory can be kept, edited or left out and every replaced one kept too, then
// the change approved (as drafted) or rejected. Every decision can be undone.
import { api, type ChangesetView, type PendingForget, STALE_MEANING } from "../api";
import type { App, View } from "../app";
import { h } from "../dom";
import { redraw } from "../focus";
import { type Choice, type Draft, freshDraft, isEdited, planWords } from "../logic/review";
import { when } from "../logic/time";
import { decide, decideAll } from "../logic/actions";
import { changeTitle, learnerWords } from "../logic/history-words";
import { inputWords, outcomeNote } from "../logic/words";
import { lineDiff, pieces, technical } from "./pieces";
import { forgetRequestCard } from "./review-forget";

export function reviewView(app: App): View {
  const drafts = new Map<number, Draft>();
  const list = h("div", { class: "changes", id: "review-list", "aria-label": "Changes waiting" });
  const intro = h("p", { class: "muted" });
  // Conversations an assistant's hooks captured while no AI was connected: said here, where
  // their changes will wait once one is.
  const captured = h("p", { class: "captured", id: "review-captured", hidden: true });
  const approveAll = h("button", { type: "button" }, "Approve all as suggested");
  let waiting: ChangesetView[] = [];
  // What approving each of an assistant's forget requests would remove, worked out when
  // the list is loaded; never approved all at once.
  const forgets = new Map<number, PendingForget | null>();
  const approvable = (): ChangesetView[] => waiting.filter((v) => v.changeset.kind !== "forget");

  approveAll.addEventListener("click", () => void app.act(() => decideAll(approvable())));

  function render(): void {
    const pending = approvable().filter((v) => v.changeset.status === "pending");
    intro.textContent =
      waiting.length === 0
        ? "Nothing is waiting. When something new changes what your assistant already knows, it waits here for you."
        : "Your assistant wants to change what it remembers. Look at each change, adjust it if you like, then approve or reject it.";
    captured.textContent = app.status?.captured ?? "";
    captured.hidden = !app.status?.captured;
    approveAll.hidden = pending.length < 2;
    const focused = document.activeElement?.id;
    redraw(() =>
      list.replaceChildren(
        ...waiting.map((view) =>
          view.changeset.kind === "forget" && view.changeset.status === "pending"
            ? forgetRequestCard(app, view, forgets.get(view.changeset.id) ?? null)
            : card(app, view, draftFor(view), () => render()),
        ),
      ),
    );
    if (focused) document.getElementById(focused)?.focus();
  }

  function draftFor(view: ChangesetView): Draft {
    const id = view.changeset.id;
    let draft = drafts.get(id);
    if (!draft || draft.after.length !== view.after.length) {
      draft = freshDraft(view);
      drafts.set(id, draft);
    }
    return draft;
  }

  const element = h(
    "section",
    { class: "view", "aria-labelledby": "review-title" },
    h("h1", { id: "review-title" }, "Changes waiting for you"),
    intro,
    captured,
    approveAll,
    list,
  );
  return {
    element,
    async refresh() {
      waiting = await api.awaitingReview();
      forgets.clear();
      for (const view of waiting) {
        if (view.changeset.kind === "forget" && view.changeset.status === "pending") {
          forgets.set(view.changeset.id, await api.pendingForget(view.changeset.id));
        }
      }
      const ids = new Set(waiting.map((v) => v.changeset.id));
      for (const id of drafts.keys()) if (!ids.has(id)) drafts.delete(id);
      render();
    },
    focus: () => (element.querySelector<HTMLElement>(".change [data-action=approve]") ?? element.querySelector<HTMLElement>(".change button"))?.focus(),
  };
}

function card(app: App, view: ChangesetView, draft: Draft, rerender: () => void): HTMLElement {
  const cs = view.changeset;
  const titleId = `change-${cs.id}`;
  const stale = cs.status === "stale";
  const note = outcomeNote(view);
  const buttons = h("div", { class: "actions" });
  const explain = h("p", { class: "muted", "aria-live": "polite" }, stale ? "" : planWords(view, draft));
  const approve = h("button", { type: "button", class: "primary", "data-action": "approve" });
  // Typing in an edit box updates these in place (a redraw would swallow a click on
  // Approve that ends the typing).
  const summarise = (): void => {
    explain.textContent = stale ? "" : planWords(view, draft);
    approve.textContent = isEdited(view, draft) ? "Approve with my edits" : "Approve";
  };
  summarise();
  if (stale) {
    const again = h("button", { type: "button", class: "primary", "data-action": "approve" }, "Build it again");
    again.addEventListener("click", () =>
      void app.act(async () => {
        await api.rerun(cs.id);
        return "Built again from what your assistant remembers now.";
      }),
    );
    buttons.append(again);
  } else {
    approve.addEventListener("click", () => void app.act(() => decide(view, draft), "approve"));
    buttons.append(approve);
  }
  const reject = h("button", { type: "button", "data-action": "reject" }, "Reject");
  reject.addEventListener("click", () => void app.act(() => decide(view, "reject"), "approve"));
  buttons.append(reject);

  const before = view.before.map((item, i) => {
    const row = h("li", { class: item.kept ? "kept" : "changed" }, h("span", { class: "text" }, pieces(item.pieces)));
    if (item.kept) row.append(h("span", { class: "tag" }, "stays"));
    else if (!stale && view.before_more === 0) {
      const box = h("input", { type: "checkbox", id: `${titleId}-keep-${i}` });
      box.checked = draft.keepOld[i] ?? false;
      box.addEventListener("change", () => {
        draft.keepOld[i] = box.checked;
        rerender();
      });
      row.append(h("label", { class: "inline", for: `${titleId}-keep-${i}` }, box, " Keep this one too"));
    }
    return row;
  });
  const after = view.after.map((_, i) => afterRow(view, draft, i, `${titleId}-after-${i}`, !stale, rerender, summarise));

  return h(
    "article",
    { class: `change ${cs.status}`, "aria-labelledby": titleId, "data-row": "", "data-key": String(cs.id) },
    h("h2", { id: titleId }, changeTitle(view)),
    h("p", { class: "meta" }, `Because ${learnerWords(view)} learned: “${inputWords(view)}” · ${when(cs.created_at_ms, app.now())}`),
    stale ? h("p", { class: "warning" }, `This change is out of date: ${STALE_MEANING}. Build it again or reject it.`) : null,
    note ? h("p", { class: "muted" }, note) : null,
    ...cs.warnings.map((w) => h("p", { class: "warning" }, w)),
    h(
      "div",
      { class: "before-after" },
      h(
        "section",
        { class: "side", "aria-label": "Before" },
        h("h3", {}, "Before"),
        before.length === 0 ? h("p", { class: "muted" }, "Nothing: these are new.") : h("ul", {}, ...before),
        view.before_more > 0 ? h("p", { class: "muted" }, `… and ${view.before_more} more`) : null,
      ),
      h(
        "section",
        { class: "side", "aria-label": "After" },
        h("h3", {}, "After"),
        after.length === 0 ? h("p", { class: "muted" }, "Nothing: the older memories go.") : h("ul", {}, ...after),
        view.after_more > 0 ? h("p", { class: "muted" }, `… and ${view.after_more} more`) : null,
      ),
    ),
    view.core ? h("section", { class: "core-diff" }, h("h3", {}, "Profile changes"), lineDiff(view.core, "Profile changes")) : null,
    explain,
    buttons,
    technical(view),
  );
}

const CHOICE_WORDS: Record<Choice["kind"], string> = { keep: "Keep", edit: "Edit", leave: "Leave out" };

function afterRow(
  view: ChangesetView,
  draft: Draft,
  i: number,
  id: string,
  editable: boolean,
  rerender: () => void,
  summarise: () => void,
): HTMLElement {
  const item = view.after[i];
  if (!item) return h("li", {});
  const choice = draft.after[i] ?? { kind: "keep" };
  const row = h("li", { class: `${item.kept ? "kept" : "changed"} choice-${choice.kind}` });
  if (choice.kind === "edit") {
    const area = h("textarea", { id: `${id}-text`, rows: "2", "aria-label": "Your version of this memory" });
    area.value = choice.text;
    area.addEventListener("input", () => {
      draft.after[i] = { kind: "edit", text: area.value };
      summarise();
    });
    row.append(area);
  } else {
    row.append(h("span", { class: "text" }, pieces(item.pieces)));
  }
  if (item.kept) row.append(h("span", { class: "tag" }, "stays"));
  if (editable && view.after_more === 0 && view.before_more === 0) {
    const group = h("div", { class: "segmented", role: "group", "aria-label": "What to do with this memory" });
    for (const kind of ["keep", "edit", "leave"] as const) {
      const button = h(
        "button",
        { type: "button", id: `${id}-${kind}`, "aria-pressed": String(choice.kind === kind) },
        CHOICE_WORDS[kind],
      );
      button.addEventListener("click", () => {
        draft.after[i] = kind === "edit" ? { kind, text: choice.kind === "edit" ? choice.text : item.content } : { kind };
        rerender();
        if (kind === "edit") document.getElementById(`${id}-text`)?.focus();
      });
      group.append(button);
    }
    row.append(group);
  }
  return row;
}
