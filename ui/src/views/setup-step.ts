// The first-run step after a new memory is made: connect an AI now, or skip it (it is in
// Settings whenever wanted).
import { api, type AiSetup } from "../api";
import type { App, View } from "../app";
import { h } from "../dom";
import { connectionSection } from "./connect";

export function setupStepView(app: App): View {
  const next = h("button", { type: "button", class: "primary", id: "setup-continue", hidden: true }, "Continue to your memories");
  const skip = h("button", { type: "button", id: "setup-skip" }, "Skip for now");
  const llm = connectionSection(app, "llm", (setup: AiSetup) => {
    llm.render(setup);
    next.hidden = setup.llm.connection.service === "none";
    if (!next.hidden) next.focus();
  });
  next.addEventListener("click", () => void app.show("latest"));
  skip.addEventListener("click", () => void app.show("latest"));
  const element = h(
    "section",
    { class: "view setup-step", "aria-labelledby": "setup-title" },
    h("h1", { id: "setup-title" }, "Let your memory learn"),
    h(
      "p",
      { class: "lead" },
      "Without an AI, haema keeps what your assistant tells it word for word. With one, it sorts it into facts, combines it with what it already knows, and asks you before changing anything important.",
    ),
    llm.element,
    h("div", { class: "actions" }, next, skip),
    h("p", { class: "muted" }, "You can connect an AI, or change it, at any time in Settings."),
  );
  return {
    element,
    async refresh() {
      llm.render(await api.aiSetup());
    },
    focus() {
      element.querySelector<HTMLInputElement>("input[type=radio]:checked")?.focus();
    },
  };
}
