import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** The files in the order of their names: journey.e2e.ts first, on fresh folders (its
 * first run must not find a store another file opened), then the files that open stores of
 * their own (keys, merge, startup). */
class ByName extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => a.moduleId.localeCompare(b.moduleId));
  }
}

// End-to-end tests: node environment, one file at a time (one app window).
export default defineConfig({
  test: {
    include: ["e2e/**/*.e2e.ts"],
    environment: "node",
    fileParallelism: false,
    testTimeout: 30_000,
    sequence: { sequencer: ByName },
  },
});
