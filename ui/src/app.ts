// The window's shell: which store is open, which view shows, notices with Undo, errors in
// plain words, progress of long work, keyboard shortcuts and live refresh. Views get an
// `App` to act through; they keep no business logic of their own.
import { api, errorText, isCommandError, type Remedy, type StoreInfo, type StoreStatus } from "./api";
import { h, printable } from "./dom";
import { focusPlace, restoreFocus } from "./focus";
import { applyTheme, loadTheme, nextTheme, THEME_WORDS, type ThemeChoice } from "./logic/theme";
import { type Undoable, UndoStack } from "./logic/undo";

export type ViewName = "latest" | "search" | "review" | "core" | "history" | "stores" | "settings" | "setup";

export interface View {
  element: HTMLElement;
  /** Loads the view's data again (after a change here or in another process). */
  refresh(): Promise<void>;
  /** Puts keyboard focus where work starts. */
  focus?(): void;
}

export type ViewFactory = (app: App) => View;

const NAV: Array<{ name: ViewName; label: string }> = [
  { name: "latest", label: "Memories" },
  { name: "search", label: "Search" },
  { name: "review", label: "Review" },
  { name: "core", label: "Profile" },
  { name: "history", label: "History" },
  { name: "stores", label: "Switch memory" },
  { name: "settings", label: "Settings" },
];

export class App {
  store: StoreInfo | null = null;
  /** How the open store stands (search, review), in the core's words: every view says it so. */
  status: StoreStatus | null = null;
  readonly undos = new UndoStack();
  /** An agent key just made or given anew (for the memory in `store`), kept until the
   * person says it is copied: it is shown once, and leaving Settings, or switching to
   * another memory and back, must not lose it. */
  shownKey: { store: string; name: string; key: string } | null = null;
  /** Whose changes History shows: an agent key's name, or everyone's (`null`). */
  historyAgent: string | null = null;
  private current: ViewName = "latest";
  private view: View | null = null;
  private readonly main = h("main", { id: "view", tabindex: "-1" });
  private readonly nav = h("nav", { "aria-label": "Views" });
  private readonly storeLabel = h("span", { class: "store-name" });
  private readonly personButton = h("button", { type: "button", class: "quiet person", id: "person-button", hidden: true });
  private readonly notice = h("div", { class: "notice", role: "status", "aria-live": "polite" });
  private readonly alert = h("div", { class: "alert", role: "alert" });
  private readonly progress = h("div", { class: "progress", role: "status", "aria-live": "polite", hidden: true });
  private readonly themeButton = h("button", { type: "button", class: "quiet" });
  private theme: ThemeChoice;
  private readonly systemDark =
    typeof window.matchMedia === "function" ? window.matchMedia("(prefers-color-scheme: dark)") : null;

  constructor(
    readonly root: HTMLElement,
    private readonly views: Record<ViewName, ViewFactory>,
    private readonly firstRun: (app: App, status: import("./api").AppStatus) => HTMLElement,
    readonly now: () => number = () => Date.now(),
  ) {
    this.theme = loadTheme(localStorage);
    this.applyTheme();
    this.systemDark?.addEventListener("change", () => this.applyTheme());
    this.themeButton.addEventListener("click", () => this.cycleTheme());
    this.personButton.addEventListener("click", () => this.showPersonForm());
  }

  /** Opens the store of the last run (or `HAEMA_STORE`), else the first-run screen. */
  async start(): Promise<void> {
    void api.onStoreChanged(() => void this.refresh());
    void api.onProgress((p) => this.showProgress(p.finished ? null : p.message, p.done, p.total));
    document.addEventListener("keydown", (e) => this.onKey(e));
    try {
      const status = await api.appStatus();
      this.status = status.status;
      if (status.store) {
        this.store = status.store;
      } else if (status.start_store) {
        this.store = await api.openStore(status.start_store, false);
      }
      if (this.store) this.showShell("latest");
      else this.root.replaceChildren(this.firstRun(this, status), this.alert);
      if (status.start_problem) this.fail({ kind: "invalid", message: status.start_problem, remedy: null });
    } catch (e) {
      this.root.replaceChildren(this.firstRun(this, emptyStatus()), this.alert);
      this.fail(e);
    }
  }

  /** Opens (or creates) a store and shows its memories (or `view`); undoable back to the
   * store before. */
  async openStore(dir: string | null, create: boolean, view: ViewName = "latest"): Promise<boolean> {
    const before = this.store?.dir ?? null;
    const beforeName = this.store?.name ?? "";
    try {
      this.store = await api.openStore(dir, create);
    } catch (e) {
      this.fail(e);
      return false;
    }
    this.undos.clear();
    this.historyAgent = null;
    this.showShell(view);
    if (before !== null && before !== this.store.dir) {
      this.say(`Opened “${this.store.name}”.`, {
        done: "Opened",
        undo: async () => {
          await this.openStore(before, false);
          return `Back to “${beforeName}”.`;
        },
      });
    }
    return true;
  }

  private showShell(view: ViewName): void {
    const skip = h("a", { href: "#view", class: "skip" }, "Skip to content");
    const header = h(
      "header",
      {},
      h(
        "div",
        { class: "bar" },
        h("span", { class: "brand" }, "haema"),
        this.storeLabel,
        this.personButton,
        this.nav,
        this.themeButton,
      ),
      h("div", { class: "status-row" }, this.progress, this.notice),
    );
    this.root.replaceChildren(skip, header, this.alert, this.main);
    void this.show(view);
  }

  /** Shows a view (Alt+1…7 or the tabs). */
  async show(name: ViewName): Promise<void> {
    this.current = name;
    if (this.needsPerson()) {
      this.renderNav();
      this.showPersonForm();
      return;
    }
    this.view = this.views[name](this);
    this.main.replaceChildren(this.view.element);
    this.renderNav();
    this.clearAlert();
    // Focus goes to the view at once, so that keys typed right after Alt+2 land in its box
    // rather than on the page; once its data is in, again, unless the person moved it.
    this.view.focus?.();
    await this.refresh();
    const active = document.activeElement;
    if (active === null || active === document.body || !this.main.contains(active)) this.view?.focus?.();
  }

  get currentView(): ViewName {
    return this.current;
  }

  /** Updates the tabs' labels and which is current; the buttons stay the same elements, so
   * focus and references survive refreshes. */
  private renderNav(): void {
    if (this.nav.childElementCount === 0) {
      NAV.forEach((item, i) => {
        const button = h("button", { type: "button", title: `${item.label} (Alt+${i + 1})`, "data-view": item.name });
        button.addEventListener("click", () => void this.show(item.name));
        this.nav.append(button);
      });
    }
    const waiting = this.store?.pending_changesets ?? 0;
    NAV.forEach((item, i) => {
      const button = this.nav.children[i] as HTMLButtonElement;
      const label = item.name === "review" && waiting > 0 ? `${item.label} (${waiting})` : item.label;
      if (button.textContent !== label) button.textContent = label;
      if (item.name === this.current) button.setAttribute("aria-current", "page");
      else button.removeAttribute("aria-current");
    });
    this.storeLabel.textContent = this.store ? printable(this.store.name) : "";
    this.storeLabel.title = this.store?.location ?? "";
    const perUser = this.store?.scope === "per_user";
    this.personButton.hidden = !perUser;
    this.personButton.textContent = this.store?.user ? `Person: ${printable(this.store.user)}` : "Choose a person";
    this.personButton.title = "Whose memories to work with (this memory keeps each person's apart)";
  }

  /** A store that keeps people's memories apart, with no person chosen yet. */
  private needsPerson(): boolean {
    return this.store?.scope === "per_user" && !this.store.user;
  }

  /** Asks whose memories to work with, in place of the view. */
  showPersonForm(): void {
    const input = h("input", { id: "person-id", type: "text", autocomplete: "off", required: true, value: this.store?.user ?? "" });
    const form = h(
      "form",
      { class: "inline-form person-form", "aria-labelledby": "person-title" },
      h("h2", { id: "person-title" }, "Whose memories?"),
      h(
        "p",
        {},
        "This memory keeps each person's memories apart: you see and change only the memories of the person you choose, and their changes go only into their memories.",
      ),
      h("label", { for: "person-id" }, "Person (the user id their assistant uses)"),
      input,
      h("button", { type: "submit", class: "primary", id: "person-choose" }, "Show their memories"),
    );
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      void this.choosePerson(input.value);
    });
    this.view = null;
    this.main.replaceChildren(form);
    queueMicrotask(() => input.focus());
  }

  /** Works with `user`'s memories from now on and shows their newest memories. */
  async choosePerson(user: string): Promise<void> {
    const name = user.trim();
    if (!name) {
      this.fail({ kind: "invalid", message: "Type the person's user id first.", remedy: null });
      return;
    }
    try {
      this.store = await api.chooseUser(name);
    } catch (e) {
      this.fail(e);
      return;
    }
    this.undos.clear();
    this.say(`Showing the memories of ${name}.`);
    await this.show("latest");
  }

  /** Reloads the store's counts and the current view. */
  async refresh(): Promise<void> {
    try {
      const status = await api.appStatus();
      if (status.store) this.store = status.store;
      this.status = status.status;
      this.renderNav();
      await this.view?.refresh();
    } catch (e) {
      this.fail(e);
    }
  }

  /** Runs something that changes the store: shows its result with Undo, or its error.
   * Keyboard focus then goes where work goes on: the control the action started from, or
   * the same control of the next item of its list (`then` names the control, by its
   * `data-action`, when another one fits better), or the list. */
  async act(work: () => Promise<Undoable | string | null>, then?: string): Promise<boolean> {
    this.clearAlert();
    const place = focusPlace(document.activeElement, then);
    let ok = true;
    try {
      const result = await work();
      if (typeof result === "string") this.say(result);
      else if (result) this.say(sentence(result.done), result);
    } catch (e) {
      this.fail(e);
      ok = false;
    }
    await this.refresh();
    restoreFocus(place, this.main);
    return ok;
  }

  /** Undoes the newest action. */
  async undo(): Promise<void> {
    if (this.undos.size === 0) {
      this.say("There is nothing to undo.");
      return;
    }
    await this.act(async () => this.undos.undo());
  }

  /** A notice; with an undoable action, it offers Undo (also Ctrl+Z). It stays until the
   * next notice: an Undo never runs out of time. */
  say(text: string, undoable?: Undoable): void {
    if (undoable) this.undos.push(undoable);
    const children: Node[] = [h("span", {}, text)];
    if (undoable) {
      const button = h("button", { type: "button", class: "undo", id: "undo-button", title: `Undo this (Ctrl+Z)` }, "Undo");
      button.addEventListener("click", () => void this.undo());
      children.push(button);
    }
    this.notice.replaceChildren(...children);
  }

  /** Shows an error in plain words, with the button that is the way out when there is one. */
  fail(error: unknown): void {
    if (isCommandError(error) && error.kind === "no_user") this.showPersonForm();
    const children: Node[] = [h("span", {}, errorText(error))];
    const remedy = isCommandError(error) ? error.remedy : null;
    if (remedy) {
      const button = h("button", { type: "button", class: "remedy" }, remedyWords(remedy));
      button.addEventListener("click", () => void this.act(() => runRemedy(remedy)));
      children.push(button);
    }
    children.push(closeButton(() => this.clearAlert()));
    this.alert.replaceChildren(...children);
  }

  clearAlert(): void {
    this.alert.replaceChildren();
  }

  /** Shows (or, with `null`, hides) what long work is doing. */
  showProgress(message: string | null, done = 0, total = 0): void {
    if (message === null) {
      this.progress.hidden = true;
      this.progress.replaceChildren();
      return;
    }
    const bar = h("progress", { "aria-label": message });
    if (total > 0) {
      bar.max = total;
      bar.value = done;
    }
    const count = total > 0 ? ` ${done} of ${total}` : "";
    this.progress.replaceChildren(bar, h("span", {}, message + count));
    this.progress.hidden = false;
  }

  private cycleTheme(): void {
    this.theme = nextTheme(this.theme);
    this.applyTheme();
  }

  private applyTheme(): void {
    applyTheme(document.documentElement, localStorage, this.theme, this.systemDark?.matches ?? false);
    this.themeButton.textContent = THEME_WORDS[this.theme];
  }

  private onKey(e: KeyboardEvent): void {
    const typing = isTyping(e.target);
    const tab = e.altKey && /^[1-9]$/.test(e.key) ? NAV[Number(e.key) - 1] : undefined;
    if (tab && this.store) {
      e.preventDefault();
      void this.show(tab.name);
    } else if ((e.ctrlKey || e.metaKey) && !e.shiftKey && e.key.toLowerCase() === "z" && !hasOwnUndo(e.target) && this.store) {
      e.preventDefault();
      void this.undo();
    } else if (e.key === "/" && !typing && this.store) {
      e.preventDefault();
      void this.show("search");
    }
  }
}

/** Whether keys typed at `target` are text (a letter is no shortcut there). */
function isTyping(target: EventTarget | null): boolean {
  return isTextField(target) || target instanceof HTMLSelectElement;
}

function isTextField(target: EventTarget | null): target is HTMLInputElement | HTMLTextAreaElement {
  if (target instanceof HTMLTextAreaElement) return true;
  return target instanceof HTMLInputElement && !["checkbox", "radio", "range", "button", "submit", "file", "color"].includes(target.type);
}

/** Whether Ctrl+Z at `target` belongs to the field's own text undo: a text field whose text
 * was changed from what it started with. Elsewhere (and in a field as it started, such as an
 * empty "remember" box) Ctrl+Z undoes the newest action. */
export function hasOwnUndo(target: EventTarget | null): boolean {
  return isTextField(target) && target.value !== target.defaultValue;
}

/** `text` as a sentence: a full stop unless it ends with one already. */
function sentence(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}

function emptyStatus(): import("./api").AppStatus {
  return { store: null, status: null, start_store: null, default_store: null, default_exists: false, start_problem: null };
}

export function closeButton(onClose: () => void): HTMLButtonElement {
  const button = h("button", { type: "button", class: "quiet", "aria-label": "Dismiss" }, "×");
  button.addEventListener("click", onClose);
  return button;
}

/** The label of the button that takes a way out of an error. */
export function remedyWords(remedy: Remedy): string {
  switch (remedy.action) {
    case "rerun":
      return "Build it again";
    case "reembed":
      return "Prepare the memories for search again";
    case "revert_first":
      return "Undo the later change";
  }
}

/** Takes a way out of an error; says what was done. */
async function runRemedy(remedy: Remedy): Promise<string> {
  switch (remedy.action) {
    case "rerun":
      await api.rerun(remedy.changeset);
      return "Built it again against the memories as they are now.";
    case "reembed":
      await api.reembed();
      return "The memories are prepared for search again.";
    case "revert_first":
      await api.revert(remedy.changeset);
      return "Undid the later change; you can undo this one now.";
  }
}
