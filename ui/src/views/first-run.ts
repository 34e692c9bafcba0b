// The first screen: what haema keeps (three kinds of memory) and where; start a new memory
// or open an existing one.
import type { AppStatus } from "../api";
import type { App } from "../app";
import { h } from "../dom";

export function firstRunView(app: App, status: AppStatus): HTMLElement {
  const suggested = status.default_store ?? "";
  const newFolder = h("input", { id: "first-new", type: "text", value: suggested });
  const start = h("button", { type: "submit", class: "primary", id: "first-start" }, "Start a new memory");
  const startForm = h(
    "form",
    { class: "inline-form", "aria-label": "Start a new memory" },
    h("label", { for: "first-new" }, "Folder for the new memory"),
    newFolder,
    start,
  );
  startForm.addEventListener("submit", (e) => {
    e.preventDefault();
    void app.openStore(newFolder.value.trim() || null, true, "setup");
  });
  const openFolder = h("input", { id: "first-open", type: "text", value: status.default_exists ? suggested : "" });
  const open = h("button", { type: "submit", id: "first-open-button" }, "Open");
  const openForm = h(
    "form",
    { class: "inline-form", "aria-label": "Open an existing memory" },
    h("label", { for: "first-open" }, "Folder of an existing memory"),
    openFolder,
    open,
  );
  openForm.addEventListener("submit", (e) => {
    e.preventDefault();
    void app.openStore(openFolder.value.trim(), false);
  });
  const element = h(
    "main",
    { class: "first-run", id: "view" },
    h("h1", {}, "Welcome to haema"),
    h(
      "p",
      { class: "lead" },
      "haema keeps what your AI assistant learns about you and your work, on this computer. You decide what it keeps.",
    ),
    h(
      "ul",
      { class: "kinds", "aria-label": "Three kinds of memory" },
      h("li", {}, h("strong", {}, "Profile. "), "A short text your assistant always reads: its personality, its tools, its rules and what it knows about you."),
      h("li", {}, h("strong", {}, "Latest. "), "The newest things it learned, always at hand."),
      h("li", {}, h("strong", {}, "Long-term. "), "Everything else, found by searching when it matters."),
    ),
    h("p", {}, "When something new changes what it already knows, the change waits for you to approve or reject it."),
    h("h2", {}, status.default_exists ? "Open your memory" : "Start"),
    status.default_exists ? openForm : startForm,
    h("details", {}, h("summary", {}, status.default_exists ? "Start a new memory instead" : "Open an existing memory instead"), status.default_exists ? startForm : openForm),
  );
  queueMicrotask(() => (status.default_exists ? open : start).focus());
  return element;
}
