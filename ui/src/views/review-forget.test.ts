// An assistant's forget request in Review, through the real shell in jsdom against the
// in-memory backend: what approving it removes is shown before anything is approved.
import { describe, expect, it } from "vitest";
import { startApp } from "../test/app-fixture";
import { button, forgetRequest, mergeView, settle, text } from "../test/backend";


const start = startApp;

describe("review of an assistant's forget request", () => {
  it("shows the phrase and the assistant notes it removes, asks again, and is never approved with the others", async () => {
    const { view, pending } = forgetRequest(11);
    const { root, backend } = await start((b) => {
      b.waiting = [view, mergeView(7), mergeView(8)];
      b.pendingForgets.set(11, pending);
    }, "review");
    expect(backend.named("pending_forget").map((c) => c.args.id)).toEqual([11]);
    const card = root.querySelector("article.change") as HTMLElement;
    expect(text(card.querySelector("h2"))).toBe("Forget everything that mentions “default”");
    const plan = card.querySelector("[aria-label='If you approve now']");
    expect(text(plan)).toContain("No memory is forgotten.");
    expect(text(plan)).toContain("“task” of default, “cursor” of default");
    expect(text(plan)).toContain("4 assistant notes");
    expect(text(plan)).toContain("exports, backups");

    button(root, "Approve all as suggested").click();
    await settle();
    expect(backend.named("approve").map((c) => c.args.id)).toEqual([7, 8]);

    button(root.querySelector("article.change") as HTMLElement, "Forget for good…").click();
    await settle();
    const dialog = document.querySelector<HTMLElement>("#forget-dialog");
    expect(text(dialog)).toContain("Forget everything that mentions “default”?");
    expect(text(dialog)).toContain("“task” of default");
    document.querySelector<HTMLButtonElement>("#forget-keep")?.click();
    await settle();
    expect(backend.named("approve").map((c) => c.args.id)).toEqual([7, 8]);

    button(root.querySelector("article.change") as HTMLElement, "Forget for good…").click();
    await settle();
    document.querySelector<HTMLInputElement>("#forget-sure")?.click();
    document.querySelector<HTMLButtonElement>("#forget-confirm")?.click();
    await settle();
    expect(backend.named("approve").map((c) => c.args.id)).toEqual([7, 8, 11]);
    expect(text(root.querySelector(".notice"))).toContain("Forgotten for good: 0 memories");
    expect(text(root.querySelector(".notice"))).toContain("4 assistant notes");
  });
});
