import { afterEach, describe, expect, it } from "vitest";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { api, isCommandError } from "./api";

afterEach(() => clearMocks());

describe("api", () => {
  it("sends each command with its arguments", async () => {
    const calls: Array<[string, unknown]> = [];
    mockIPC((cmd, args) => {
      calls.push([cmd, args]);
      if (cmd === "latest") return [];
      if (cmd === "open_store") return { dir: "/s", active: 0, pending_changesets: 0, embedder: "none", dims: 0, llm: null, review: "guarded" };
      return null;
    });
    await api.openStore();
    await api.latest(null, 50);
    expect(calls).toEqual([
      ["open_store", { dir: null }],
      ["latest", { after: null, count: 50 }],
    ]);
  });

  it("recognises the app's errors", async () => {
    mockIPC(() => {
      throw { kind: "no_store", message: "No memory is open yet." };
    });
    const error = await api.appStatus().catch((e: unknown) => e);
    expect(isCommandError(error)).toBe(true);
    expect(isCommandError("boom")).toBe(false);
  });
});
