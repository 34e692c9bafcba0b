// Entry point: the first-run screen, then the memories. Views only lay out what the
// api module returns.
import { api, isCommandError } from "./api";

const root = document.getElementById("app") as HTMLElement;

function say(text: string): void {
  root.replaceChildren(Object.assign(document.createElement("p"), { textContent: text }));
}

async function start(): Promise<void> {
  try {
    const status = await api.appStatus();
    if (!status.store) {
      await api.openStore();
    }
    const memories = await api.latest(null, 50);
    const heading = Object.assign(document.createElement("h1"), { textContent: "Things your assistant remembers" });
    const list = document.createElement("ul");
    for (const m of memories) {
      list.append(Object.assign(document.createElement("li"), { textContent: m.content }));
    }
    root.replaceChildren(heading, list);
  } catch (e) {
    say(isCommandError(e) ? e.message : String(e));
  }
}

void start();
