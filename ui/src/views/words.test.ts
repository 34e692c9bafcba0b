// Issue 33's words in the window: History says what each change did (with the memory's
// text), when it was decided, and what an undo left; search says how it works now in the
// core's words, the same in every view, and shows the profile's lines beside the memories;
// what the assistant would be told reads without tags; a memory's details say whose they are.
import { describe, expect, it } from "vitest";
import { startApp } from "../test/app-fixture";
import { button, mergeView, NOW, settle, text } from "../test/backend";


const start = startApp;

/** A change proposed three days ago and approved a minute ago. */
function approvedLately(id: number) {
  const view = mergeView(id);
  view.changeset = { ...view.changeset, status: "committed", decided_by: "user", created_at_ms: NOW - 3 * 86_400_000, decided_at_ms: NOW - 60_000 };
  return view;
}

describe("History", () => {
  it("titles each change by what it did, says when it was decided and proposed, and what an undo left", async () => {
    const { root, backend } = await start((b) => {
      b.history = [approvedLately(7)];
      b.profileLeft.set(7, ["USER"]);
    }, "history");
    const row = root.querySelector<HTMLElement>(".history > li")!;
    expect(text(row.querySelector("h2"))).toBe("Replaced “The user drinks green tea” with “The user drinks black tea” and 1 more");
    expect(text(row.querySelector(".meta"))).toBe("You approved it · a minute ago · proposed 3 days ago");
    button(row, "Undo this change").click();
    await settle();
    expect(backend.named("revert").at(-1)?.args).toEqual({ id: 7 });
    expect(text(root.querySelector(".notice"))).toBe(
      "Partly undone. The profile's “About you” was not put back: it was changed again since, so it stays as it is now.Undo",
    );
  });

  it("shows an undo that left part of the profile on the undone change itself", async () => {
    const view = approvedLately(7);
    view.changeset = { ...view.changeset, status: "reverted", reverted_by_id: 9 };
    const undo = mergeView(9);
    undo.changeset = { ...undo.changeset, kind: "revert", status: "committed", decided_by: "user", reverts_id: 7, created_at_ms: NOW - 5_000, decided_at_ms: NOW - 5_000 };
    const { root } = await start((b) => {
      b.history = [undo, view];
      b.profileLeft.set(7, ["RULE", "USER"]);
    }, "history");
    // The undone change says when it was undone, not when it was first saved.
    expect(text(root.querySelector(`.history [data-key="7"] .meta`))).toBe("Undone · just now · saved a minute ago");
    expect(text(root.querySelector(".history .partly"))).toBe(
      "Undone only in part. The profile's “Rules” and “About you” were not put back: they were changed again since, so they stay as they are now.",
    );
  });
});

describe("search in the core's words", () => {
  it("says once how search works, offers no search by meaning while there is none, and shows the profile's lines marked as such", async () => {
    const { root } = await start((b) => (b.core.sections.RULE = "- Peanuts are a hard no in any food suggestion."), "search");
    const status = "Search finds memories by their words only: no search model is chosen. To search by meaning too, choose a search model in the settings.";
    expect(text(root.querySelector("#search-status"))).toBe(status);
    const mode = root.querySelector<HTMLSelectElement>("#search-mode")!;
    expect([...mode.options].map((o) => [o.textContent, o.disabled])).toEqual([
      ["Best match", false],
      ["By meaning (not yet)", true],
      ["By exact words", false],
    ]);
    const query = root.querySelector<HTMLInputElement>("#search-query")!;
    query.value = "food";
    query.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter" }));
    await settle();
    expect(text(root.querySelector("#search-count"))).toBe("No memory found. 1 line of the profile has these words.");
    expect(text(root.querySelector(".profile-hits li"))).toBe("Profile · Rules Peanuts are a hard no in any food suggestion.");

    // The same sentence in Switch memory and in Settings.
    const { root: stores } = await start(undefined, "stores");
    expect(text(stores)).toContain(status);
    const { root: settings } = await start(undefined, "settings");
    expect(text(settings.querySelector("#embedder-now"))).toContain(status);
    expect(text(settings)).not.toContain("nothing waits for review");
  });

  it("shows what the assistant would be told as the profile's sections and lists, the exact block folded away", async () => {
    const { root, backend } = await start(undefined, "search");
    backend.recallAnswer = {
      text: "<memory note=\"…\">\n<core>\n# SOUL\nCalm.\n\n# USER\n- Likes **jazz**.\n</core>\n<latest>\n- The user drinks green tea\n</latest>\n</memory>\n",
      items: [
        { reason: "core", id: null, content: "# SOUL\nCalm.\n\n# TOOLS\n\n# RULE\n\n# USER\n- Likes **jazz**.", score: null, tokens: 10, sanitized: false, truncated: false, flags: [] },
        { reason: "latest", id: "a", content: "The user drinks green tea", score: null, tokens: 6, sanitized: false, truncated: false, flags: [] },
      ],
      tokens: 40,
      budget: 800,
      max_chars: 1000,
      notice: null,
    };
    button(root, "What would your assistant be told?").click();
    await settle();
    const box = root.querySelector<HTMLElement>(".recall")!;
    const visible = [...box.children].filter((c) => c.tagName !== "DETAILS").map((c) => text(c)).join(" | ");
    expect(visible).toBe(
      "What your assistant would be told | This fills about 5% of the room your assistant has for memories before it answers (40 of 800 tokens; a token is a short word or part of a word). | Always: the profile | Personality | Calm. | About you | Likes jazz. | The newest memories | The user drinks green tea",
    );
    expect(text(box.querySelector("details pre"))).toContain("<memory");
  });
});

describe("a memory's details", () => {
  it("say which memory they belong to, in plain words", async () => {
    const { root } = await start(undefined, "latest");
    const card = [...root.querySelectorAll<HTMLElement>("li.memory")].find((li) => li.textContent?.includes("Oslo"))!;
    button(card, "Details").click();
    await settle();
    const form = root.querySelector<HTMLElement>(".attributes-form")!;
    expect(form.getAttribute("aria-label")).toBe("Details of “The user lives in Oslo”");
    expect([...form.querySelectorAll("label")].map((l) => text(l))).toEqual([
      "What sort of memory",
      "How much it matters",
      "Where it came from",
      "Which assistant wrote it",
      "Conversation",
      "Other details",
    ]);
    expect(text(form)).not.toMatch(/JSON object|Importance|Metadata|Kind/);
  });
});
