import type { TestProject } from 'vitest/node';
import { startLocalStackProcess, type LocalStackInfo, type RunningStack } from './local-stack-process';

declare module 'vitest' {
  export interface ProvidedContext {
    localStack: LocalStackInfo;
  }
}

let running: RunningStack | undefined;

/** Starts the local stack once per test run (free ports) and stops it, with every child, at the end. */
export async function setup(project: TestProject) {
  // Retry waits shrunk for tests (unit tests assert the real schedules).
  running = await startLocalStackProcess({ PAYOUT_RETRY_SCALE: '0.01' });
  project.provide('localStack', running.info);
}

export async function teardown() {
  await running?.stop();
}
