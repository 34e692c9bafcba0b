// A small W3C WebDriver client (what tauri-driver speaks): sessions, elements, keys,
// screenshots. Plain fetch, no browser-automation framework.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const ELEMENT = "element-6066-11e4-a52e-4f735466cecf";

/** Where the tests save the screenshots docs/desktop.md shows (`HAEMA_E2E_SCREENSHOTS` moves them). */
const SCREENSHOTS = process.env.HAEMA_E2E_SCREENSHOTS ?? "../docs/screenshots";

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export class WebDriverError extends Error {}

/** WebDriver's codes of the keys that are not letters. */
export const KEY = { tab: "\uE004", enter: "\uE007", escape: "\uE00C", space: " ", shift: "\uE008", control: "\uE009", alt: "\uE00A", end: "\uE010" };

async function call(base: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(base + path, {
    method,
    headers: body === undefined ? undefined : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as { value: unknown };
  if (!response.ok) {
    const v = json.value as { error?: string; message?: string };
    throw new WebDriverError(`${method} ${path}: ${v.error ?? response.status} ${v.message ?? ""}`);
  }
  return json.value;
}

export class Session {
  private constructor(
    private readonly base: string,
    readonly id: string,
  ) {}

  /** Starts the app at `application` through tauri-driver at `base`. */
  static async start(base: string, application: string, args: string[] = []): Promise<Session> {
    const value = (await call(base, "POST", "/session", {
      capabilities: { alwaysMatch: { "tauri:options": { application, args } } },
    })) as { sessionId: string };
    return new Session(base, value.sessionId);
  }

  private path(rest: string): string {
    return `/session/${this.id}${rest}`;
  }

  /** The first element matching `css`, waiting up to `timeoutMs` for it. */
  async find(css: string, timeoutMs = 5000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        const value = (await call(this.base, "POST", this.path("/element"), { using: "css selector", value: css })) as Record<string, string>;
        return value[ELEMENT];
      } catch (e) {
        if (Date.now() > deadline) throw e;
        await sleep(100);
      }
    }
  }

  async text(element: string): Promise<string> {
    return (await call(this.base, "GET", this.path(`/element/${element}/text`))) as string;
  }

  /** Clicks an element as a person would, after scrolling it to the middle of the window
   * (the sticky header would otherwise cover what WebKit scrolls to the top). */
  async click(element: string): Promise<void> {
    await this.script(`arguments[0].scrollIntoView({ block: "center" });`, [{ [ELEMENT]: element }]);
    await call(this.base, "POST", this.path(`/element/${element}/click`), {});
  }

  async type(element: string, text: string): Promise<void> {
    await call(this.base, "POST", this.path(`/element/${element}/value`), { text });
  }

  /** Presses keys as a person does, on whatever has the focus: each argument is a key or a
   * chord held together (`KEY.control + "z"`). Plain text is typed letter by letter. */
  async press(...chords: string[]): Promise<void> {
    for (const chord of chords) {
      const keys = [...chord];
      const actions = [...keys.map((value) => ({ type: "keyDown", value })), ...keys.reverse().map((value) => ({ type: "keyUp", value }))];
      await call(this.base, "POST", this.path("/actions"), { actions: [{ type: "key", id: "keyboard", actions }] });
    }
  }

  /** Presses Tab (Shift+Tab with `back`) until the focused element matches `css`, as a
   * person moves through the window; fails after `most` presses. */
  async tabTo(css: string, most = 120, back = false): Promise<void> {
    for (let i = 0; i < most; i++) {
      if ((await this.script(`return document.activeElement?.matches(arguments[0]) ?? false;`, [css])) === true) return;
      await this.press(back ? KEY.shift + KEY.tab : KEY.tab);
    }
    throw new WebDriverError(`Tab never reached “${css}” in ${most} presses`);
  }

  /** Waits until the focused element matches `css` (focus moves once a view is drawn
   * again after an action). */
  async waitFocused(css: string, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while ((await this.script(`return document.activeElement?.matches(arguments[0]) ?? false;`, [css])) !== true) {
      if (Date.now() > deadline) {
        const now = (await this.script(`return document.activeElement?.outerHTML.slice(0, 120) ?? "nothing";`)) as string;
        throw new WebDriverError(`focus never reached “${css}” within ${timeoutMs} ms; it is on ${now}`);
      }
      await sleep(100);
    }
  }

  /** A description of the focused element: its tag, id, data-action and text. */
  async focused(): Promise<{ tag: string; id: string; action: string | null; text: string; row: string | null }> {
    return (await this.script(
      `const e = document.activeElement;
       return { tag: e.tagName.toLowerCase(), id: e.id, action: e.dataset?.action ?? null, text: e.textContent.trim(),
                row: e.closest("[data-row]")?.dataset.key ?? null };`,
    )) as { tag: string; id: string; action: string | null; text: string; row: string | null };
  }

  /** Waits until an element matching `css` has text containing `wanted`; returns it. */
  async waitText(css: string, wanted: string, timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = (await this.script(
        `return [...document.querySelectorAll(arguments[0])].map((e) => e.textContent).find((t) => t.includes(arguments[1])) ?? null;`,
        [css, wanted],
      )) as string | null;
      if (found !== null) return found;
      if (Date.now() > deadline) {
        const [shown, notice, focus] = (await this.script(
          `return [[...document.querySelectorAll(arguments[0])].map((e) => e.textContent.trim()).join(" | "),
                   [...document.querySelectorAll(".notice")].map((e) => e.textContent.trim()).join(" | "),
                   document.activeElement?.outerHTML.slice(0, 120) ?? "nothing"];`,
          [css],
        )) as [string, string, string];
        throw new WebDriverError(
          `no “${css}” containing “${wanted}” within ${timeoutMs} ms; it shows: ${shown === "" ? "(no such element)" : `“${shown.slice(0, 400)}”`}` +
            `; the notice says: ${notice === "" ? "(nothing)" : `“${notice.slice(0, 300)}”`}; focus is on ${focus}`,
        );
      }
      await sleep(100);
    }
  }

  /** Runs `body` in the window (synchronous script) and returns its value. */
  async script(body: string, args: unknown[] = []): Promise<unknown> {
    return call(this.base, "POST", this.path("/execute/sync"), { script: body, args });
  }

  /** Clicks the button whose text is `label` inside the first `within` element. */
  async clickButton(label: string, within = "body"): Promise<void> {
    await this.again(async () => this.click(await this.findWhere(`${within} button`, label)));
  }

  /** Finds `css` and clicks it. */
  async clickOn(css: string): Promise<void> {
    await this.again(async () => this.click(await this.find(css)));
  }

  /** Runs `step` again (up to three times) when a refresh of the view replaced the element
   * it found before it could use it. */
  private async again(step: () => Promise<void>): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await step();
        return;
      } catch (e) {
        if (attempt >= 3 || !(e instanceof WebDriverError) || !e.message.includes("stale element")) throw e;
        await sleep(100);
      }
    }
  }

  /** The first element matching `css` whose text is `label`, waiting for it. */
  async findWhere(css: string, label: string, timeoutMs = 5000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = (await this.script(
        `return [...document.querySelectorAll(arguments[0])].find((e) => e.textContent.trim() === arguments[1]) ?? null;`,
        [css, label],
      )) as Record<string, string> | null;
      if (value) return value[ELEMENT];
      if (Date.now() > deadline) throw new WebDriverError(`no “${css}” with text “${label}” within ${timeoutMs} ms`);
      await sleep(100);
    }
  }

  /** axe-core's WCAG 2.1 A/AA rules on what the window shows now; the violations in words. */
  async accessibilityProblems(): Promise<string[]> {
    const source = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
    return (await this.scriptAsync(
      `${source}
       const done = arguments[arguments.length - 1];
       axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } })
         .then((r) => done(r.violations.map((v) => v.id + ": " + v.help + " (" + v.nodes.map((n) => n.target.join(" ")).join(", ") + ")")))
         .catch((e) => done(["axe failed: " + e]));`,
    )) as string[];
  }

  /** Runs `body` in the window as an asynchronous script: it ends by calling
   * `arguments[arguments.length - 1]` with its result. */
  async scriptAsync(body: string, args: unknown[] = []): Promise<unknown> {
    return call(this.base, "POST", this.path("/execute/async"), { script: body, args });
  }

  /** The window's size and place. */
  async rect(): Promise<{ width: number; height: number }> {
    return (await call(this.base, "GET", this.path("/window/rect"))) as { width: number; height: number };
  }

  async setRect(width: number, height: number): Promise<void> {
    await call(this.base, "POST", this.path("/window/rect"), { width, height });
  }

  /** Closes the window as a person would (the app gets its close request). */
  async closeWindow(): Promise<void> {
    await call(this.base, "DELETE", this.path("/window"));
  }

  /** A PNG of the window as it looks once it has painted what the page holds now.
   *
   * On a cold machine (CI on a fresh clone) a screenshot taken right after the page changed
   * showed the frame before (an empty window, the previous view): WebKitGTK's screenshot
   * seems to be the last frame the window presented, which can lag the page. So this waits for the
   * fonts and two animation frames, then takes screenshots a quarter second apart until
   * two in a row are the same (at most `timeoutMs`; a blinking caret can keep them
   * changing, and the last one is then as good as any). */
  async screenshot(timeoutMs = 5000): Promise<Buffer> {
    await this.scriptAsync(
      `const done = arguments[arguments.length - 1];
       document.fonts.ready.then(() => requestAnimationFrame(() => requestAnimationFrame(() => done(null))));`,
    );
    const deadline = Date.now() + timeoutMs;
    let last = await this.lastFrame();
    for (;;) {
      await sleep(250);
      const next = await this.lastFrame();
      if (next.equals(last) || Date.now() > deadline) return next;
      last = next;
    }
  }

  /** Saves `screenshot()` as `<name>.png` in the screenshot folder. */
  async saveScreenshot(name: string): Promise<void> {
    mkdirSync(SCREENSHOTS, { recursive: true });
    writeFileSync(`${SCREENSHOTS}/${name}.png`, await this.screenshot());
  }

  private async lastFrame(): Promise<Buffer> {
    const b64 = (await call(this.base, "GET", this.path("/screenshot"))) as string;
    return Buffer.from(b64, "base64");
  }

  async end(): Promise<void> {
    await call(this.base, "DELETE", this.path(""));
  }
}
