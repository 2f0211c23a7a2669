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
    // Three test files at once on a 2-core machine: the integration files wait on the local stack more
    // than they compute (docs/decisions.md, "Issue 45: the suite's time": 643 s idle against 744 s with two;
    // the three files that failed on timing under load were fixed, then a loaded clean-clone run was green).
    maxWorkers: 3,
  },
});
