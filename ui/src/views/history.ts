// "Everything that changed": every change, newest first, in words: a title that says what
// it did, with the memory's text; who decided and when (and when it was proposed, when that
// was another time); what an undo left in place. A change that was saved can be undone, a
// rejected one looked at again.
import { api, type HistoryEntry } from "../api";
import type { App, View } from "../app";
import { h } from "../dom";
import { redraw } from "../focus";
import { PagedList } from "../logic/paged";
import { historyActions, lookAgain, undoChange } from "../logic/actions";
import { agentWords, changeTitle, decidedWords, profileLeftWords } from "../logic/history-words";
import { inputWords } from "../logic/words";
import { beforeAfter, technical } from "./pieces";
import { activityPicture } from "./pictures";

export function historyView(app: App): View {
  // Whose changes: everyone's, or one agent's (chosen here or from its key in Settings).
  const list = new PagedList<HistoryEntry>((after, count) => api.history(after?.view.changeset.id ?? null, count, app.historyAgent), 30);
  const madeBy = h("select", { id: "history-agent" });
  const madeByPart = h("div", { class: "made-by", hidden: true }, h("label", { for: "history-agent" }, "Made by"), madeBy);
  madeBy.addEventListener("change", async () => {
    app.historyAgent = madeBy.value === "" ? null : madeBy.value;
    await list.reload().catch((e: unknown) => app.fail(e));
    render();
  });
  const items = h("ol", { class: "history", id: "history-list", "aria-label": "Changes, newest first" });
  const picture = h("div", { class: "activity-box" });
  const more = h("button", { type: "button" }, "Show earlier changes");
  more.addEventListener("click", async () => {
    await list.more().catch((e: unknown) => app.fail(e));
    render();
  });

  function render(): void {
    redraw(() => {
      // When each change was decided, for an undone change to say when its undo was.
      const decided = new Map(list.items.map((e) => [e.view.changeset.id, e.view.changeset.decided_at_ms]));
      items.replaceChildren(...list.items.map((entry) => row(app, entry, decided.get(entry.view.changeset.reverted_by_id ?? -1) ?? null)));
      if (list.items.length === 0) {
        const empty = app.historyAgent === null ? "Nothing has changed yet." : `The agent “${app.historyAgent}” has made no changes.`;
        items.replaceChildren(h("li", { class: "empty" }, empty));
      }
    });
    more.hidden = list.done;
  }

  const element = h(
    "section",
    { class: "view", "aria-labelledby": "history-title" },
    h("h1", { id: "history-title" }, "Everything that changed"),
    h("p", { class: "muted" }, "Every change is kept here and can be undone, except forgetting, which is for good."),
    picture,
    madeByPart,
    items,
    more,
  );

  /** The choices of "Made by": everyone, then each agent key (revoked ones too). */
  function showAgents(names: string[]): void {
    if (app.historyAgent !== null && !names.includes(app.historyAgent)) names = [...names, app.historyAgent];
    madeByPart.hidden = names.length === 0;
    madeBy.replaceChildren(h("option", { value: "" }, "Everyone"), ...names.map((n) => h("option", { value: n }, `The agent “${n}”`)));
    madeBy.value = app.historyAgent ?? "";
  }
  return {
    element,
    async refresh() {
      const [events, keys] = await Promise.all([api.activity(30), api.agentKeys()]);
      showAgents(keys.map((k) => k.key.name));
      try {
        await list.reload();
      } catch (e) {
        // One agent's changes cannot be read (its key is another person's): back to
        // everyone's, so that the view does not stay stuck on it.
        if (app.historyAgent === null) throw e;
        app.historyAgent = null;
        showAgents(keys.map((k) => k.key.name));
        await list.reload();
        app.fail(e);
      }
      const open = picture.querySelector("details")?.open ?? false;
      picture.replaceChildren(activityPicture(events, app.now()));
      if (open) picture.querySelector("details")?.setAttribute("open", "");
      render();
    },
  };
}

function row(app: App, entry: HistoryEntry, undoneAt: number | null): HTMLElement {
  const view = entry.view;
  const cs = view.changeset;
  const actions = h("div", { class: "actions" });
  for (const action of historyActions(view)) {
    const button = h(
      "button",
      { type: "button", "data-action": action },
      action === "undo" ? "Undo this change" : "Look at it again",
    );
    button.addEventListener("click", () => void app.act(() => (action === "undo" ? undoChange(view) : lookAgain(view))));
    actions.append(button);
  }
  const input = inputWords(view);
  const left = profileLeftWords(entry.profile_left);
  const agent = agentWords(view);
  const titleId = `history-${cs.id}`;
  return h(
    "li",
    { class: `change ${cs.status}`, "data-row": "", "data-key": String(cs.id), "aria-labelledby": titleId },
    h("h2", { id: titleId }, changeTitle(view)),
    h("p", { class: "meta" }, decidedWords(view, app.now(), undoneAt)),
    agent ? h("p", { class: "meta agent" }, agent) : null,
    left ? h("p", { class: "warning partly" }, cs.kind === "revert" ? `Partly undone. ${left}` : `Undone only in part. ${left}`) : null,
    input && cs.kind !== "revert" ? h("p", {}, `From: “${input}”`) : null,
    h("details", {}, h("summary", {}, "What changed"), beforeAfter(view), technical(view)),
    actions,
  );
}
