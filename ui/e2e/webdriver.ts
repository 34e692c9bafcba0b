// A small W3C WebDriver client (what tauri-driver speaks): sessions, elements, keys,
// screenshots. Plain fetch, no browser-automation framework.
const ELEMENT = "element-6066-11e4-a52e-4f735466cecf";

export class WebDriverError extends Error {}

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
  static async start(base: string, application: string): Promise<Session> {
    const value = (await call(base, "POST", "/session", {
      capabilities: { alwaysMatch: { "tauri:options": { application } } },
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
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  async text(element: string): Promise<string> {
    return (await call(this.base, "GET", this.path(`/element/${element}/text`))) as string;
  }

  async click(element: string): Promise<void> {
    await call(this.base, "POST", this.path(`/element/${element}/click`), {});
  }

  async type(element: string, text: string): Promise<void> {
    await call(this.base, "POST", this.path(`/element/${element}/value`), { text });
  }

  /** A PNG of the window. */
  async screenshot(): Promise<Buffer> {
    const b64 = (await call(this.base, "GET", this.path("/screenshot"))) as string;
    return Buffer.from(b64, "base64");
  }

  async end(): Promise<void> {
    await call(this.base, "DELETE", this.path(""));
  }
}
