import { expect, it } from "vitest";
import { when } from "./time";

it("says times in plain words", () => {
  const now = Date.UTC(2026, 10, 22, 12, 0, 0);
  expect(when(now - 10_000, now)).toBe("just now");
  expect(when(now - 60_000, now)).toBe("a minute ago");
  expect(when(now - 5 * 60_000, now)).toBe("5 minutes ago");
  expect(when(now - 3 * 3_600_000, now)).toBe("3 hours ago");
  expect(when(now - 26 * 3_600_000, now)).toBe("yesterday");
  expect(when(now - 3 * 86_400_000, now)).toBe("3 days ago");
  expect(when(now - 30 * 86_400_000, now)).toMatch(/2026/);
});
