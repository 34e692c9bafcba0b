// "Everything that changed": every change, newest first, in words; a change that was
// saved can be undone, a rejected one looked at again.
import { api, type ChangesetView } from "../api";
import type { App, View } from "../app";
import { h } from "../dom";
import { PagedList } from "../logic/paged";
import { when } from "../logic/time";
import { historyActions, lookAgain, undoChange } from "../logic/actions";
import { changeHeadline, inputWords, statusWords } from "../logic/words";
import { beforeAfter, technical } from "./pieces";
import { activityPicture } from "./pictures";

export function historyView(app: App): View {
  const list = new PagedList<ChangesetView>((after, count) => api.history(after?.changeset.id ?? null, count), 30);
  const items = h("ol", { class: "history", "aria-label": "Changes, newest first" });
  const picture = h("div", { class: "activity-box" });
  const more = h("button", { type: "button" }, "Show earlier changes");
  more.addEventListener("click", async () => {
    await list.more().catch((e: unknown) => app.fail(e));
    render();
  });

  function render(): void {
    items.replaceChildren(...list.items.map((view) => row(app, view)));
    if (list.items.length === 0) items.replaceChildren(h("li", { class: "empty" }, "Nothing has changed yet."));
    more.hidden = list.done;
  }

  const element = h(
    "section",
    { class: "view", "aria-labelledby": "history-title" },
    h("h1", { id: "history-title" }, "Everything that changed"),
    h("p", { class: "muted" }, "Every change is kept here and can be undone, except forgetting, which is for good."),
    picture,
    items,
    more,
  );
  return {
    element,
    async refresh() {
      const [events] = await Promise.all([api.activity(30), list.reload()]);
      const open = picture.querySelector("details")?.open ?? false;
      picture.replaceChildren(activityPicture(events, app.now()));
      if (open) picture.querySelector("details")?.setAttribute("open", "");
      render();
    },
  };
}

function row(app: App, view: ChangesetView): HTMLElement {
  const cs = view.changeset;
  const actions = h("div", { class: "actions" });
  for (const action of historyActions(view)) {
    const button = h("button", { type: "button" }, action === "undo" ? "Undo this change" : "Look at it again");
    button.addEventListener("click", () => void app.act(() => (action === "undo" ? undoChange(view) : lookAgain(view))));
    actions.append(button);
  }
  const input = inputWords(view);
  return h(
    "li",
    { class: `change ${cs.status}` },
    h("h2", {}, changeHeadline(view)),
    h("p", { class: "meta" }, `${statusWords(view)} · ${when(cs.created_at_ms, app.now())}`),
    input ? h("p", {}, `From: “${input}”`) : null,
    h("details", {}, h("summary", {}, "What changed"), beforeAfter(view), technical(view)),
    actions,
  );
}
