import { defineConfig } from "vitest/config";

// End-to-end tests: node environment, one file at a time (one app window).
export default defineConfig({
  test: { include: ["e2e/**/*.e2e.ts"], environment: "node", fileParallelism: false, testTimeout: 30_000 },
});
