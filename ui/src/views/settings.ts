// "How this memory is set up": first what a person changes here (the AI, search, when to
// be asked, merge sensitivity, the memory's folder and copies of it, the keys of agents on
// other computers), then every setting the core declares, grouped, each with its value,
// where that value came from and, in small print, the line of a file or the environment
// variable that changes it.
import { api, type AiSetup, type SettingLine, type StoreSettings } from "../api";
import type { App, View } from "../app";
import { h } from "../dom";
import { agentsSection } from "./agents";
import { connectionSection } from "./connect";
import { forgetPhraseForm } from "./forget";
import { mergeSection, reviewSection, storeSection } from "./preferences";
import { exampleLines, fileKey, fileName, settingGroups, settingLabel, sourceWords, valueWords } from "../logic/settings";

export function settingsView(app: App): View {
  // Every section shows what was saved last; saving one refreshes the others.
  const show = (setup: AiSetup) => {
    for (const section of [llm, embedder, review, merge]) section.render(setup);
    void app.refresh();
  };
  const llm = connectionSection(app, "llm", show);
  const embedder = connectionSection(app, "embedder", show);
  const review = reviewSection(app, show);
  const merge = mergeSection(app, show);
  const store = storeSection(app);
  const agents = agentsSection(app);
  const file = h("p", { class: "path", id: "settings-file" });
  const missing = h("p", { class: "muted", id: "settings-file-missing", hidden: true }, "This file does not exist yet: create it. Until then every setting has its default.");
  const writing = h("div", {});
  const again = h("button", { type: "button" }, "Read the settings again");
  again.addEventListener("click", () => void app.refresh());
  // Made once, so that a refresh leaves it open or closed as the person left it.
  const howTo = h(
    "div",
    { class: "how-to" },
    h(
      "p",
      {},
      "The settings above are changed here. The others below are changed in this memory's settings file: edit it in a text editor, save it, then open the memory again:",
    ),
    file,
    missing,
    again,
    h("details", {}, h("summary", {}, "How to write a setting in the file"), writing),
  );
  const reopen = h("div", { class: "reopen", role: "status" });
  const groups = h("div", { class: "setting-groups" });

  function render(shown: StoreSettings): void {
    const focused = document.activeElement?.id;
    file.textContent = shown.file;
    missing.hidden = shown.file_exists;
    writing.replaceChildren(...writingHelp(shown));
    reopen.replaceChildren();
    if (shown.reopen_needed) {
      const button = h("button", { type: "button", class: "primary", id: "settings-reopen" }, "Open this memory again");
      button.addEventListener("click", async () => {
        const dir = app.store?.dir;
        if (dir && (await app.openStore(dir, false, "settings"))) app.say("Opened again with the settings shown.");
      });
      reopen.append(
        h(
          "p",
          { class: "warning" },
          "The settings changed since this memory was opened. The values below are the new ones; they apply once it is opened again.",
        ),
        button,
      );
    }
    groups.replaceChildren(
      ...settingGroups(shown.settings).map((group) => {
        const id = `settings-group-${group.name}`;
        return h(
          "section",
          { class: "setting-group", "aria-labelledby": id },
          h("h2", { id }, group.title),
          group.help ? h("p", { class: "muted" }, group.help) : null,
          h("dl", { class: "settings" }, ...group.lines.map((line) => row(line))),
        );
      }),
    );
    if (focused) document.getElementById(focused)?.focus();
  }

  const element = h(
    "section",
    { class: "view", "aria-labelledby": "settings-title" },
    h("h1", { id: "settings-title" }, "How this memory is set up"),
    h("p", { class: "muted" }, "Connect an AI, choose when you are asked, and see every setting, what it is now and where that comes from."),
    reopen,
    llm.element,
    embedder.element,
    review.element,
    merge.element,
    store.element,
    agents.element,
    h("h2", { id: "settings-all" }, "Every setting"),
    howTo,
    groups,
    h(
      "section",
      { class: "forget-group", "aria-labelledby": "settings-forget" },
      h("h2", { id: "settings-forget" }, "Forget"),
      h(
        "p",
        { class: "muted" },
        "Remove every memory that mentions a word or phrase — your address, a name — and the phrase wherever else it is written: earlier changes, the profile and its old versions. You see what goes before anything is removed.",
      ),
      forgetPhraseForm(app, "settings-forget-phrase"),
    ),
  );
  return {
    element,
    async refresh() {
      const [shown, setup, facts, keys] = await Promise.all([api.settings(), api.aiSetup(), api.storeFacts(), api.agentKeys()]);
      render(shown);
      for (const section of [llm, embedder, review, merge]) section.render(setup);
      store.render(facts);
      agents.render(keys);
    },
  };
}

/** How a line of the settings file looks, with an example taken from the settings shown;
 * where keys and the person's own settings live. */
function writingHelp(shown: StoreSettings): HTMLElement[] {
  const example =
    shown.settings.find((l) => l.file === "store" && l.key.includes(".") && /^\d/.test(l.value)) ??
    shown.settings.find((l) => l.file === "store");
  const out: HTMLElement[] = [];
  if (example) {
    out.push(
      h("p", {}, `Each setting below names, in small print, the line to write. For example, these lines set “${settingLabel(example)}” to ${example.value}:`),
      h("pre", { class: "example" }, exampleLines(example)),
    );
  }
  out.push(
    h(
      "p",
      {},
      "Keys for online services are never written in a file: they are kept in this computer's keyring (saved with “Connect an AI” above) or come from environment variables set before haema starts, and this window never shows them in full.",
    ),
  );
  if (shown.user_file) {
    out.push(h("p", {}, "Your own settings, for every memory (the terminal app's), are in ", h("span", { class: "path" }, shown.user_file), "."));
  }
  return out;
}

/** One setting: its help as the label, its value, where the value came from, and in small
 * print where it can be changed. */
function row(line: SettingLine): HTMLElement {
  return h(
    "div",
    { class: `setting from-${line.source}`, "data-key": line.key },
    h("dt", {}, settingLabel(line)),
    h("dd", { class: "value" }, valueWords(line)),
    h("dd", { class: "source" }, sourceWords(line)),
    h("dd", { class: "how" }, ...whereToChange(line)),
  );
}

/** The small print of a setting: the file key or the variable that changes it, the
 * choices and the default. */
function whereToChange(line: SettingLine): Node[] {
  const parts: Node[][] = [];
  const file = fileName(line);
  if (file) {
    const { key, table } = fileKey(line.key);
    const place: Node[] = [h("code", {}, key)];
    if (table) place.push(document.createTextNode(" under "), h("code", {}, `[${table}]`));
    place.push(document.createTextNode(` in ${file}`));
    parts.push(place);
  }
  if (line.env) {
    const words = file ? "or the environment variable " : "only the environment variable ";
    parts.push([document.createTextNode(words), h("code", {}, line.env)]);
  }
  if (line.allowed.length > 0) {
    parts.push([document.createTextNode(`choices: ${line.allowed.join(", ")}`)]);
  }
  if (line.source !== "default") parts.push([document.createTextNode(`default: ${line.default}`)]);
  const out: Node[] = [];
  parts.forEach((part, i) => {
    if (i > 0) out.push(document.createTextNode(" · "));
    out.push(...part);
  });
  // A sentence's first letter.
  const first = out[0];
  if (first instanceof Text) first.textContent = capitalisedText(first.textContent ?? "");
  return out;
}

function capitalisedText(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
