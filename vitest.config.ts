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
    // Two test files at once (docs/decisions.md, "Issue 45: the suite's time": three were faster idle,
    // 643 s, but under load beside other work three files failed on timing; two have held under load).
    maxWorkers: 2,
  },
});
