// Issue 33 in the window, through the real shell in jsdom against the in-memory backend: no
// keystroke loses a memory (forget needs "I understand" ticked; Enter alone never forgets;
// Escape always keeps), focus goes on to the next item after an action, Ctrl+Z undoes from
// an unchanged text box, and an Undo stays until the next notice.
import { emit } from "@tauri-apps/api/event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { startApp } from "../test/app-fixture";
import { button, memory, mergeView, settle, text } from "../test/backend";

afterEach(() => vi.useRealTimers());

const start = startApp;

function key(target: EventTarget, key: string, more: KeyboardEventInit = {}): void {
  target.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true, ...more }));
}

const cards = (root: HTMLElement) => [...root.querySelectorAll<HTMLElement>(".memories .memory")];

describe("focus after an action", () => {
  it("goes to the same button of the next memory after Delete, and to the next change after Approve or Reject", async () => {
    const { root } = await start((b) => {
      b.memories = [memory("a", "First thing", 1), memory("b", "Second thing", 2), memory("c", "Third thing", 3)];
    }, "latest");
    const remove = button(cards(root)[0], "Delete");
    remove.focus();
    remove.click();
    await settle();
    expect(cards(root)).toHaveLength(2);
    expect(document.activeElement).toBe(button(cards(root)[0], "Delete"));
    expect(text(cards(root)[0])).toContain("Second thing");

    const pin = button(cards(root)[1], "Pin");
    pin.focus();
    pin.click();
    await settle();
    expect(document.activeElement).toBe(button(cards(root)[1], "Pinned"));

    const review = await start((b) => (b.waiting = [mergeView(7), mergeView(8)]), "review");
    const approve = button(review.root.querySelector("article.change") as HTMLElement, "Approve");
    approve.focus();
    approve.click();
    await settle();
    const next = review.root.querySelector<HTMLElement>("article.change");
    expect(next?.dataset.key).toBe("8");
    expect(document.activeElement).toBe(button(next!, "Approve"));
    const reject = button(next!, "Reject");
    reject.focus();
    reject.click();
    await settle();
    expect(document.activeElement?.id).toBe("review-list");
  });
});

describe("switching views with Alt+1…7", () => {
  it("puts focus in the new view's box at once, so that keys typed before its data is in are not lost", async () => {
    const { root } = await start((b) => (b.memories = [memory("a", "Ana lives in Busan", 1)]), "latest");
    key(root, "2", { altKey: true });
    // Before the search view's data is in: the keys typed now go to its box.
    expect(document.activeElement?.id).toBe("search-query");
    await settle();
    expect(document.activeElement?.id).toBe("search-query");
    key(document.activeElement!, "1", { altKey: true });
    expect(document.activeElement?.id).toBe("remember-text");
    await settle();
    expect(document.activeElement?.id).toBe("remember-text");
  });
});

describe("a live refresh", () => {
  it("keeps the focus where it was when another process changes the store", async () => {
    const { root } = await start(undefined, "latest");
    const remove = button(cards(root)[1], "Delete");
    remove.focus();
    await emit("store-changed");
    await settle();
    expect(document.activeElement).toBe(button(cards(root)[1], "Delete"));
    const history = await start((b) => (b.history = [mergeView(7), mergeView(8)]), "history");
    history.root.querySelectorAll<HTMLElement>(".history > li > details > summary")[1]?.focus();
    await emit("store-changed");
    await settle();
    expect(document.activeElement?.closest<HTMLElement>("[data-row]")?.dataset.key).toBe("8");
  });
});

describe("Ctrl+Z", () => {
  it("undoes the newest action from the empty remember box, but is the box's own undo once something is typed", async () => {
    const { root, backend } = await start(undefined, "latest");
    button(cards(root)[0], "Delete").click();
    await settle();
    const box = root.querySelector<HTMLTextAreaElement>("#remember-text")!;
    box.focus();
    box.value = "half a thought";
    key(box, "z", { ctrlKey: true });
    await settle();
    expect(backend.named("revert")).toHaveLength(0);
    box.value = "";
    key(box, "z", { ctrlKey: true });
    await settle();
    expect(backend.named("revert")).toHaveLength(1);
    expect(text(root.querySelector(".notice"))).toBe("The memory is back.");
  });
});

describe("the Undo notice", () => {
  it("stays until the next notice", async () => {
    const { root } = await start(undefined, "latest");
    vi.useFakeTimers();
    button(cards(root)[0], "Delete").click();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(text(root.querySelector(".notice"))).toContain("Deleted the memory.");
    expect(root.querySelector("#undo-button")).not.toBeNull();
  });

  it("offers Undo after a rejection, which puts the change back in Review", async () => {
    const { root, backend } = await start((b) => (b.waiting = [mergeView(7)]), "review");
    button(root, "Reject").click();
    await settle();
    expect(text(root.querySelector(".notice"))).toContain("Undo puts it back in Review");
    button(root.querySelector(".notice") as HTMLElement, "Undo").click();
    await settle();
    expect(backend.named("reopen").at(-1)?.args).toEqual({ id: 7 });
  });
});

describe("the forget dialog", () => {
  it("needs “I understand” before Forget for good works; Enter on the first focus keeps; Escape keeps after a click on its text", async () => {
    const { root, backend } = await start((b) => {
      b.memories = [
        { ...memory("a", "The user drinks green tea", 1), pinned: true },
        { ...memory("b", "The user drank green tea daily", 40), status: "superseded" },
        memory("c", "The user likes green walls", 2),
      ];
    }, "settings");
    const phrase = root.querySelector<HTMLInputElement>("#settings-forget-phrase")!;
    phrase.value = "green";
    button(root, "Forget everything that mentions it for good…").click();
    await settle();
    const dialog = document.querySelector<HTMLElement>("#forget-dialog")!;
    expect(text(dialog.querySelector(".dialog-head"))).toBe(
      "Forget everything that mentions “green”?3 memories go for good: 2 memories in use (1 of them pinned) and 1 no longer in use (replaced or deleted earlier).",
    );
    const items = [...dialog.querySelectorAll(".forget-memories li")].map((li) => text(li));
    expect(items).toEqual(["The user drinks green teapinned", "The user drank green tea dailyno longer in use", "The user likes green walls"]);
    expect(document.activeElement?.id).toBe("forget-keep");
    const confirm = document.querySelector<HTMLButtonElement>("#forget-confirm")!;
    expect(confirm.disabled).toBe(true);
    confirm.click();
    await settle();
    expect(backend.named("forget")).toHaveLength(0);

    // A click on the list's text leaves focus on the page: Escape still closes, keeping all.
    document.body.focus();
    key(document.body, "Escape");
    await settle();
    expect(document.querySelector("#forget-dialog")).toBeNull();
    expect(backend.named("forget")).toHaveLength(0);
    expect(text(root.querySelector(".notice"))).toBe("Nothing was forgotten.");

    button(root, "Forget everything that mentions it for good…").click();
    await settle();
    const sure = document.querySelector<HTMLInputElement>("#forget-sure")!;
    key(document.activeElement!, "Tab");
    key(document.activeElement!, "Tab", { shiftKey: true });
    key(document.activeElement!, "Tab", { shiftKey: true });
    expect(document.activeElement).toBe(sure);
    sure.click();
    expect(document.querySelector<HTMLButtonElement>("#forget-confirm")?.disabled).toBe(false);
    document.querySelector<HTMLButtonElement>("#forget-confirm")?.click();
    await settle();
    expect(backend.named("forget").at(-1)?.args.request).toEqual({ memory_ids: [], mentioning: "green" });
  });

  it("is opened by a button that says “for good”, apart from Delete", async () => {
    const { root } = await start(undefined, "latest");
    const card = cards(root)[0];
    const forget = button(card, "Forget for good…");
    expect(forget.className).toBe("danger-quiet");
    expect(forget.parentElement?.className).toBe("apart");
    expect(button(card, "Delete").parentElement).not.toBe(forget.parentElement);
  });
});
