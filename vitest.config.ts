import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // Copies the in-process handlers' log lines for the leak scan of the global teardown.
    // Evaluates the in-process handlers' AWS calls against their functions' roles (infra/local/iam/).
    setupFiles: ['test/support/worker-log-tee.ts', 'test/support/iam-evaluation.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Three test files at once on a 2-core machine: the integration files wait on the local stack (HTTP,
    // DynamoDB Local) more than they compute; measured idle, the whole run took 643 s with 3 against
    // 644-781 s with 2 (docs/decisions.md, "Issue 45: the suite's time").
    maxWorkers: 3,
  },
});
