// A few lines instead of a framework: build elements from data. Views call these to lay
// out what their view-model functions computed.
type Child = Node | string | null | undefined | false;

// Control characters as every haema surface shows them (haema_core::printable): each C0
// control but line feed and tab, DEL, each C1 control, and the carriage return (which would
// make a reviewer read other text than is stored) is shown as U+FFFD, and so is each
// bidirectional embedding, override and isolate (U+202A-U+202E, U+2066-U+2069), which would
// show the text after it in another order than it is stored. Only what is shown: an edit
// box gets the stored text itself (`value`), never this.
const UNPRINTABLE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

export function printable(text: string): string {
  return text.replace(UNPRINTABLE, "\uFFFD");
}

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<Record<string, string | boolean | EventListener>> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (typeof value === "function") {
      el.addEventListener(key.replace(/^on/, "").toLowerCase(), value);
    } else if (value === true) {
      el.setAttribute(key, "");
    } else if (typeof value === "string") {
      el.setAttribute(key, value);
    }
  }
  for (const child of children) {
    if (child !== null && child !== undefined && child !== false) {
      el.append(typeof child === "string" ? printable(child) : child);
    }
  }
  return el;
}
