// An assistant's request to forget, in Review: what approving it would remove now (the
// phrase, the memories, the assistant notes removed whole or blanked, what else loses the
// words), worked out when the list was loaded, and asked again in the forget dialog before
// anything goes. It cannot be undone, so it is never approved with the others.
import { api, type ChangesetView, type PendingForget } from "../api";
import type { App } from "../app";
import { h } from "../dom";
import { decide } from "../logic/actions";
import { forgetHeadline, forgetQuestion, receiptWords } from "../logic/forget";
import { when } from "../logic/time";
import { ask } from "./forget";

export function forgetRequestCard(app: App, view: ChangesetView, pending: PendingForget | null): HTMLElement {
  const cs = view.changeset;
  const titleId = `change-${cs.id}`;
  const reject = h("button", { type: "button" }, "Reject");
  reject.addEventListener("click", () => void app.act(() => decide(view, "reject")));
  const buttons = h("div", { class: "actions" });
  let plan: HTMLElement;
  if (pending) {
    const question = forgetQuestion(pending.plan, { memory_ids: pending.memory_ids, mentioning: pending.mentioning });
    const approve = h("button", { type: "button", class: "danger" }, "Forget for good…");
    approve.addEventListener("click", () => void approveForget(app, cs.id, question));
    buttons.append(approve);
    const shown = question.memories.slice(0, 20);
    plan = h(
      "section",
      { class: "forget-plan", "aria-label": "If you approve now" },
      h("h3", {}, "If you approve now"),
      question.memories.length === 0
        ? h("p", { class: "muted" }, "No memory is forgotten.")
        : h(
            "ul",
            { class: "forget-memories", "aria-label": "Memories forgotten" },
            ...shown.map((item) => h("li", {}, item.text, item.tag ? h("span", { class: "tag" }, item.tag) : null)),
            question.memories.length > shown.length
              ? h("li", { class: "muted" }, `and ${question.memories.length - shown.length} more`)
              : null,
          ),
      ...question.notes.map((note) => h("p", {}, note)),
    );
  } else {
    plan = h("p", { class: "warning" }, "What this would remove could not be worked out yet; look again in a moment.");
  }
  buttons.append(reject);
  return h(
    "article",
    { class: `change ${cs.status}`, "aria-labelledby": titleId, "data-row": "", "data-key": String(cs.id) },
    h("h2", { id: titleId }, forgetHeadline(view)),
    h("p", { class: "meta" }, `Your assistant asked for this · ${when(cs.created_at_ms, app.now())}`),
    ...cs.warnings.map((w) => h("p", { class: "warning" }, w)),
    plan,
    buttons,
  );
}

/** Asks once more in the forget dialog, then approves: the receipt says what went. */
async function approveForget(app: App, id: number, question: ReturnType<typeof forgetQuestion>): Promise<void> {
  if (!(await ask(question.title, question.memories, question.notes, question.count))) {
    app.say("Nothing was forgotten.");
    return;
  }
  await app.act(async () => {
    const done = await api.approve(id);
    const receipt = done.changeset.forget?.receipt ?? null;
    return receipt ? receiptWords(receipt) : "Forgotten for good.";
  });
}
