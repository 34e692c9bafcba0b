// Changes through the real shell in jsdom, against the in-memory backend: review, the
// profile, history and forget.
import { afterEach, describe, expect, it, vi } from "vitest";
import { startApp } from "../test/app-fixture";
import { button, mergeView, settle, text } from "../test/backend";

afterEach(() => vi.useRealTimers());

const start = startApp;

describe("review", () => {
  it("shows each change as before/after with the changed words marked", async () => {
    const { root } = await start((b) => (b.waiting = [mergeView(7)]), "review");
    expect(text(root.querySelector("nav [data-view=review]"))).toBe("Review (1)");
    const card = root.querySelector("article.change");
    expect(text(card?.querySelector("h2") ?? null)).toBe("Replace “The user drinks green tea” with “The user drinks black tea” and 1 more");
    expect(card?.querySelector("[aria-label=Before] del")?.textContent).toBe("green ");
    expect(card?.querySelector("[aria-label=After] ins")?.textContent).toBe("black ");
    expect(text(card)).not.toContain("p1");
  });

  it("says when captured conversations wait for an AI, and nothing when none does", async () => {
    const said = "2 captured conversations wait for an AI to turn them into memories: nothing of them is stored until one is connected (`haema setup`, or Settings); their words wait in the agents’ own transcripts.";
    const { root } = await start((b) => (b.status = { ...b.status, captured: said }), "review");
    const note = root.querySelector<HTMLElement>("#review-captured");
    expect(note?.hidden).toBe(false);
    expect(text(note)).toBe(said);
    const none = await start(() => {}, "review");
    expect(none.root.querySelector<HTMLElement>("#review-captured")?.hidden).toBe(true);
  });

  it("approves one memory edited, one left out and the old one kept; undo reverts", async () => {
    const { root, backend } = await start((b) => (b.waiting = [mergeView(7)]), "review");
    const card = () => root.querySelector("article.change") as HTMLElement;
    button(card().querySelectorAll("li")[1] as HTMLElement, "Edit").click();
    const area = card().querySelector<HTMLTextAreaElement>("textarea");
    if (area) {
      area.value = "The user drinks black tea, no sugar";
      area.dispatchEvent(new Event("input"));
      area.dispatchEvent(new Event("change"));
    }
    button(card().querySelectorAll("[aria-label=After] li")[1] as HTMLElement, "Leave out").click();
    card().querySelector<HTMLInputElement>("input[type=checkbox]")?.click();
    expect(text(card())).toContain("Saves 2 memories as you edited them.");
    button(card(), "Approve with my edits").click();
    await settle();
    expect(backend.named("approve_edited")[0]?.args).toEqual({
      id: 7,
      memories: ["The user drinks black tea, no sugar", "The user drinks green tea"],
    });
    expect(text(root.querySelector(".notice"))).toContain("Approved with your edits.");
    button(root, "Undo").click();
    await settle();
    expect(backend.named("revert")[0]?.args).toEqual({ id: 7 });
  });

  it("rejects with undo that puts the change back, and approves all", async () => {
    const { root, backend } = await start((b) => (b.waiting = [mergeView(7), mergeView(8), mergeView(9)]), "review");
    button(root.querySelector("article.change") as HTMLElement, "Reject").click();
    await settle();
    expect(backend.named("reject")[0]?.args).toEqual({ id: 7 });
    button(root, "Undo").click();
    await settle();
    expect(backend.named("reopen")[0]?.args).toEqual({ id: 7 });
    button(root, "Approve all as suggested").click();
    await settle();
    expect(backend.named("approve").map((c) => c.args.id)).toEqual([8, 9]);
    expect(text(root.querySelector(".changes"))).toBe("");
    expect(text(root.querySelector("#review-title + p"))).toContain("Nothing is waiting");
  });

  it("offers to build an out-of-date change again", async () => {
    const stale = mergeView(4);
    stale.changeset.status = "stale";
    const { root, backend } = await start((b) => (b.waiting = [stale]), "review");
    expect(text(root)).toContain("This change is out of date");
    button(root, "Build it again").click();
    await settle();
    expect(backend.named("rerun")[0]?.args).toEqual({ id: 4 });
  });

  it("offers the error's own way out as a button: a change found stale on approval is built again", async () => {
    const { root, backend } = await start((b) => {
      b.waiting = [mergeView(6)];
      b.failOn.set("approve", {
        kind: "stale",
        message: "This change is out of date.",
        remedy: { action: "rerun", changeset: 6 },
      });
    }, "review");
    button(root, "Approve").click();
    await settle();
    expect(text(root.querySelector("[role=alert]") ?? root)).toContain("This change is out of date.");
    backend.failOn.delete("approve");
    button(root, "Build it again").click();
    await settle();
    expect(backend.named("rerun")[0]?.args).toEqual({ id: 6 });
  });
});

describe("profile", () => {
  it("edits a section with undo, locks it, and goes back to an earlier text", async () => {
    const { root, backend } = await start((b) => {
      b.sectionHistory = [
        { version_id: 3, created_at_ms: 0, author: "user", changeset_id: null, text: "- Likes jazz.", diff: [{ change: "added", text: "- Likes jazz." }] },
        { version_id: 1, created_at_ms: 0, author: "initial", changeset_id: null, text: "", diff: [] },
      ];
    }, "core");
    const user = () => root.querySelector("[aria-labelledby=core-user-title]") as HTMLElement;
    expect(text(user().querySelector("h2"))).toBe("About you");
    button(user(), "Edit").click();
    const area = user().querySelector("textarea");
    if (area) {
      area.value = "- Likes jazz.\n- Plays cello.";
      area.dispatchEvent(new Event("input"));
    }
    button(user(), "Save").click();
    await settle();
    expect(backend.named("set_section")[0]?.args).toEqual({ section: "USER", text: "- Likes jazz.\n- Plays cello." });
    expect(text(user())).toContain("Plays cello.");
    button(root, "Undo").click();
    await settle();
    expect(backend.named("set_section")[1]?.args).toEqual({ section: "USER", text: "- Likes jazz." });

    button(user(), "Lock").click();
    await settle();
    expect(backend.named("set_lock")[0]?.args).toEqual({ section: "USER", locked: true });
    expect(user().querySelector("[aria-pressed=true]")).not.toBeNull();

    button(user(), "Earlier versions").click();
    await settle();
    button(user(), "Go back to this").click();
    await settle();
    expect(backend.named("set_section")[2]?.args).toEqual({ section: "USER", text: "" });
  });

  it("Escape cancels an edit without saving", async () => {
    const { root, backend } = await start(undefined, "core");
    const soul = root.querySelector("[aria-labelledby=core-soul-title]") as HTMLElement;
    button(soul, "Edit").click();
    root.querySelector("#core-soul-edit")?.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape" }));
    await settle();
    expect(root.querySelector("[aria-labelledby=core-soul-title] textarea")).toBeNull();
    expect(backend.named("set_section")).toHaveLength(0);
  });
});

describe("history", () => {
  it("words each change and undoes a saved one or looks at a rejected one again", async () => {
    const saved = mergeView(5);
    saved.changeset.status = "committed";
    saved.changeset.decided_by = "user";
    const rejected = mergeView(6);
    rejected.changeset.status = "rejected";
    rejected.changeset.decided_by = "user";
    const { root, backend } = await start((b) => (b.history = [rejected, saved]), "history");
    const rows = root.querySelectorAll(".history > li");
    expect(text(rows[0] ?? null)).toContain("You said no");
    expect(text(rows[1] ?? null)).toContain("You approved it");
    button(rows[1] as HTMLElement, "Undo this change").click();
    await settle();
    expect(backend.named("revert")[0]?.args).toEqual({ id: 5 });
    button(root.querySelectorAll(".history > li")[0] as HTMLElement, "Look at it again").click();
    await settle();
    expect(backend.named("reopen")[0]?.args).toEqual({ id: 6 });
    button(root, "Undo").click();
    await settle();
    expect(backend.named("reject")[0]?.args).toEqual({ id: 6 });
  });
});

describe("forget", () => {
  it("asks with the memory's own words, keeps everything on Escape, and forgets for good on confirm", async () => {
    const { root, backend } = await start(undefined, "latest");
    const card = [...root.querySelectorAll(".memory")].find((li) => text(li).includes("lives in Oslo"));
    if (!card) throw new Error("no Oslo card");
    button(card, "Forget for good…").click();
    await settle();
    const dialog = document.querySelector<HTMLElement>("#forget-dialog");
    expect(dialog?.getAttribute("role")).toBe("alertdialog");
    expect(text(dialog)).toContain("Forget this memory for good?");
    expect(text(dialog)).toContain("The user lives in Oslo");
    expect(text(card)).toContain("Fact · importance 0.9 · from onboarding · city: Oslo");
    expect(text(dialog)).toContain("cannot be undone");
    expect(document.activeElement?.id).toBe("forget-keep");
    // "Forget for good" is off until "I understand" is ticked: Tab goes past it.
    dialog?.dispatchEvent(new KeyboardEvent("keydown", { key: "Tab", bubbles: true }));
    expect(document.activeElement?.id).toBe("forget-sure");
    dialog?.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    await settle();
    expect(document.querySelector("#forget-dialog")).toBeNull();
    expect(backend.named("forget")).toHaveLength(0);
    expect(text(root.querySelector(".notice"))).toContain("Nothing was forgotten");

    button(card, "Forget for good…").click();
    await settle();
    document.querySelector<HTMLInputElement>("#forget-sure")?.click();
    document.querySelector<HTMLButtonElement>("#forget-confirm")?.click();
    await settle();
    expect(backend.named("forget").map((c) => c.args.request)).toEqual([{ memory_ids: ["b"], mentioning: null }]);
    expect(text(root.querySelector(".notice"))).toContain("Forgotten for good: 1 memory");
    expect(text(root.querySelector(".notice"))).not.toContain("Undo");
    expect(text(root.querySelector(".memories"))).not.toContain("Oslo");
  });

  it("forgets everything that mentions a phrase from the settings, and says when nothing does", async () => {
    const { root, backend } = await start(undefined, "settings");
    const phrase = root.querySelector<HTMLInputElement>("#settings-forget-phrase");
    if (!phrase) throw new Error("no phrase field");
    phrase.value = "elm street";
    button(root, "Forget everything that mentions it for good…").click();
    await settle();
    expect(document.querySelector("#forget-dialog")).toBeNull();
    expect(text(root.querySelector(".notice"))).toContain("Nothing mentions “elm street”");
    expect(backend.named("forget")).toHaveLength(0);

    phrase.value = "GREEN tea";
    button(root, "Forget everything that mentions it for good…").click();
    await settle();
    expect(text(document.querySelector("#forget-dialog"))).toContain("Forget everything that mentions “GREEN tea”?");
    document.querySelector<HTMLInputElement>("#forget-sure")?.click();
    document.querySelector<HTMLButtonElement>("#forget-confirm")?.click();
    await settle();
    expect(backend.named("forget").at(-1)?.args.request).toEqual({ memory_ids: [], mentioning: "GREEN tea" });
    expect(phrase.value).toBe("");
  });
});
