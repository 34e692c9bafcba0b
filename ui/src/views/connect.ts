// "Connect an AI" and "Search": a service in plain choices, what was found on this
// computer, a key field that is emptied once the key is saved (the window only ever learns
// its last four characters), a Test that makes one real call, and Save.
import { api, errorText, type AiSetup, type CheckOutcome, type Connection, type LocalAi, type Role, type Service } from "../api";
import type { App } from "../app";
import { h } from "../dom";
import type { Undoable } from "../logic/undo";
import { connectionOf, fittingModels, keyWords, localAiWords, missingWords, serviceChoices, sizeWords } from "../logic/connect";

export interface ConnectionSection {
  element: HTMLElement;
  render(setup: AiSetup): void;
}

const TITLES: Record<Role, { title: string; intro: string }> = {
  llm: {
    title: "Connect an AI",
    intro: "An AI splits what your assistant tells haema into facts, combines them with related memories and keeps the profile up to date. Every change it proposes can wait for your approval.",
  },
  embedder: {
    title: "Search",
    intro: "How search finds memories: by their meaning, with a search model, or by their words.",
  },
};

export function connectionSection(app: App, role: Role, onSaved: (setup: AiSetup) => void): ConnectionSection {
  const id = (name: string) => `${role}-${name}`;
  let setup: AiSetup | null = null;
  let local: LocalAi | null = null;
  let dirty = false;
  // Until the setup is read, the line says so and no detail part shows: the choices then stay
  // where they are when it arrives, so a click already on its way lands on what was aimed at.
  const now = h("p", { class: "now", id: id("now") }, "Reading what is set up…");
  const choices = serviceChoices(role);
  const radios = choices.map((choice) =>
    h("input", { type: "radio", name: id("service"), id: id(`service-${choice.service}`), value: choice.service }),
  );
  const fieldset = h(
    "fieldset",
    { class: "choices" },
    h("legend", {}, role === "llm" ? "Which AI?" : "How should search work?"),
    ...choices.map((choice, i) =>
      h(
        "div",
        { class: "choice" },
        radios[i],
        h("label", { for: id(`service-${choice.service}`) }, h("strong", {}, choice.label), h("span", { class: "muted" }, choice.detail)),
      ),
    ),
  );
  const localStatus = h("p", { id: id("local-status"), role: "status" });
  const lookAgain = h("button", { type: "button", id: id("look-again") }, "Look again");
  const localModel = h("select", { id: id("local-model") });
  const localPart = h(
    "div",
    { class: "detail" },
    localStatus,
    lookAgain,
    h("label", { for: id("local-model") }, "Model"),
    localModel,
  );
  const address = h("input", { type: "url", id: id("address"), autocomplete: "off", spellcheck: "false", placeholder: "https://llm.example.com/v1" });
  const addressPart = h("div", { class: "detail" }, h("label", { for: id("address") }, "Address of the service (its base URL)"), address);
  const model = h("input", { type: "text", id: id("model"), autocomplete: "off", spellcheck: "false" });
  const modelPart = h("div", { class: "detail" }, h("label", { for: id("model") }, "Model"), model);
  const key = h("input", { type: "password", id: id("key"), autocomplete: "off", spellcheck: "false" });
  const keyStatus = h("p", { id: id("key-status"), class: "muted" });
  const forgetKey = h("button", { type: "button", id: id("forget-key"), class: "quiet" }, "Remove the saved key");
  const keyringNote = h("p", { class: "warning", id: id("keyring-note"), hidden: true });
  const keyPart = h("div", { class: "detail" }, h("label", { for: id("key") }, "API key"), key, keyStatus, forgetKey, keyringNote);
  const overridden = h("p", { class: "warning", id: id("overridden"), hidden: true });
  const outcome = h("div", { class: "outcome", id: id("outcome"), role: "status", "aria-live": "polite" });
  const test = h("button", { type: "button", id: id("test") }, "Test");
  const save = h("button", { type: "button", class: "primary", id: id("save") }, "Save");
  const element = h(
    "section",
    { class: "connect", "aria-labelledby": id("title") },
    h("h2", { id: id("title") }, TITLES[role].title),
    h("p", { class: "muted" }, TITLES[role].intro),
    now,
    fieldset,
    localPart,
    addressPart,
    modelPart,
    keyPart,
    overridden,
    h("div", { class: "actions" }, test, save),
    outcome,
  );

  function chosen(): Service {
    const checked = radios.find((r) => r.checked);
    return (checked?.value as Service | undefined) ?? setup?.[role].connection.service ?? "none";
  }

  function current() {
    const service = chosen();
    const name = service === "this_computer" ? localModel.value : model.value;
    const where = service === "this_computer" ? (local?.server ?? "") : address.value;
    return connectionOf(role, service, name, service === "this_computer" && where === "http://127.0.0.1:11434" ? "" : where);
  }

  function showParts(): void {
    const service = chosen();
    localPart.hidden = service !== "this_computer";
    addressPart.hidden = service !== "other";
    modelPart.hidden = !["openai", "gemini", "other"].includes(service);
    keyPart.hidden = !["openai", "gemini", "other"].includes(service);
    if (setup) {
      const state = setup[role];
      keyStatus.textContent = keyWords(state, service);
      forgetKey.hidden = !(state.connection.service === service && state.key_from === "keyring");
      const needsKey = service === "openai" || service === "gemini";
      keyringNote.hidden = setup.keyring.usable || !needsKey;
      keyringNote.textContent = setup.keyring.usable
        ? ""
        : `This computer has no keyring haema can use, so a key cannot be saved here (${setup.keyring.said ?? "no Secret Service"}). Set the key in the ${role === "llm" ? "HAEMA_LLM_API_KEY" : "HAEMA_EMBED_API_KEY"} environment variable before haema starts instead.`;
      model.placeholder = state.connection.service === service ? state.model_in_force : role === "llm" ? defaultModel(service) : "";
    }
    if (service === "this_computer" && local === null) void look();
  }

  async function look(): Promise<void> {
    localStatus.textContent = localAiWords(null, role).text;
    try {
      local = await api.localAi();
    } catch (e) {
      local = { server: "", running: false, models: [] };
      app.fail(e);
    }
    const words = localAiWords(local, role);
    localStatus.textContent = words.text;
    const keep = localModel.value || setup?.[role].connection.model || "";
    localModel.replaceChildren(
      ...fittingModels(local, role).map((m) => h("option", { value: m.name }, sizeWords(m.size_bytes) ? `${m.name} (${sizeWords(m.size_bytes)})` : m.name)),
    );
    if (keep && [...localModel.options].some((o) => o.value === keep)) localModel.value = keep;
    localModel.disabled = !words.usable;
  }

  function tell(result: CheckOutcome | string, ok = false): void {
    if (typeof result === "string") {
      outcome.className = `outcome ${ok ? "ok" : "not-ok"}`;
      outcome.replaceChildren(h("p", {}, result));
      return;
    }
    outcome.className = `outcome ${result.ok ? "ok" : "not-ok"}`;
    const said = h("p", {}, h("strong", {}, result.ok ? "It works. " : "Not yet. "), result.said);
    outcome.replaceChildren(...(result.fix ? [said, h("p", { class: "fix" }, result.fix)] : [said]));
  }

  async function run(what: "test" | "save"): Promise<void> {
    const connection = current();
    const missing = missingWords(connection);
    if (missing) {
      tell(missing);
      return;
    }
    const typed = key.value.trim() === "" ? null : key.value.trim();
    test.disabled = save.disabled = true;
    try {
      if (what === "test") {
        tell("Testing: one call to the service…", true);
        tell(await api.testConnection(connection, typed));
      } else {
        tell("Saving…", true);
        const before = setup?.[role].connection ?? null;
        const saved = await api.saveConnection(connection, typed);
        key.value = "";
        dirty = false;
        render(saved);
        tell(role === "llm" ? "Saved. What is added from now on goes through this AI." : "Saved. Search uses this from now on.", true);
        const done = role === "llm" ? "The AI is connected." : "Search is set up.";
        app.say(done, before && !sameConnection(before, connection) ? undoSave(before, typed !== null && before.service === connection.service) : undefined);
        onSaved(saved);
      }
    } catch (e) {
      tell(errorText(e));
    } finally {
      test.disabled = save.disabled = false;
    }
  }

  /** How to go back to the connection saved before: it is saved again (a key typed for
   *  the same service replaced the old one in the keyring, and the undo says so). */
  function undoSave(before: Connection, keyReplaced: boolean): Undoable {
    return {
      done: role === "llm" ? "AI connection saved" : "Search connection saved",
      undo: async () => {
        const back = await api.saveConnection(before, null);
        dirty = false;
        render(back);
        outcome.replaceChildren();
        onSaved(back);
        const was = nowWords(role, before.service, back[role].model_in_force).replace(/^(Now|Chosen): /, "");
        return `Back to ${was}${keyReplaced ? " The key you typed stays saved in place of the old one: type the old key and save to bring it back." : ""}`;
      },
    };
  }

  function render(next: AiSetup): void {
    setup = next;
    const state = next[role];
    now.textContent = nowWords(role, state.connection.service, state.model_in_force);
    // How search works now, in the core's words (the model chosen may not be here yet).
    if (role === "embedder" && app.status) now.textContent += ` ${app.status.search}${app.status.search_fix ? ` ${app.status.search_fix}` : ""}`;
    if (!dirty) {
      for (const radio of radios) radio.checked = radio.value === state.connection.service;
      model.value = state.connection.model ?? "";
      address.value = state.connection.service === "other" ? (state.connection.address ?? "") : "";
    }
    const mine = next.overridden.filter((o) => (role === "llm" ? o.includes("(llm.") : o.includes("(embedder.")));
    overridden.hidden = mine.length === 0;
    overridden.textContent = `This computer's environment sets ${mine.join(", ")}, which wins over what is saved here.`;
    showParts();
  }

  for (const radio of radios) {
    radio.addEventListener("change", () => {
      dirty = true;
      outcome.replaceChildren();
      showParts();
    });
  }
  for (const input of [model, address, key, localModel]) input.addEventListener("input", () => (dirty = true));
  lookAgain.addEventListener("click", () => void look());
  test.addEventListener("click", () => void run("test"));
  save.addEventListener("click", () => void run("save"));
  forgetKey.addEventListener("click", async () => {
    try {
      const next = await api.forgetSavedKey(current());
      render(next);
      app.say("The saved key is removed from this computer's keyring.");
    } catch (e) {
      app.fail(e);
    }
  });
  showParts();
  return { element, render };
}

function defaultModel(service: Service): string {
  if (service === "openai") return "gpt-4o-mini";
  if (service === "gemini") return "gemini-2.5-flash";
  return "";
}

function nowWords(role: Role, service: Service, model: string): string {
  const choice = serviceChoices(role).find((c) => c.service === service);
  if (service === "none") return role === "llm" ? "Now: no AI. What is added is kept as it is given." : "Chosen: by words only.";
  return `${role === "llm" ? "Now" : "Chosen"}: ${choice?.label ?? service}${model ? `, ${model}` : ""}.`;
}

function sameConnection(a: Connection, b: Connection): boolean {
  return a.role === b.role && a.service === b.service && (a.model ?? "") === (b.model ?? "") && (a.address ?? "") === (b.address ?? "");
}
