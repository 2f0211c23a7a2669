import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ROOT, startLocalStackProcess, type LocalStackInfo, type RunningStack } from './local-stack-process';
import { RECEIVER_IPS, type TestCertificate, writeTestCertificate } from './tls';

declare module 'vitest' {
  export interface ProvidedContext {
    localStack: LocalStackInfo;
    webhookCertificate: TestCertificate;
  }
}

let running: RunningStack | undefined;

/** Starts the local stack once per test run (free ports) and stops it, with every child, at the end. */
export async function setup(project: TestProject) {
  const certificate = await writeTestCertificate(join(ROOT, '.local'));
  // Test workers are forked after this: they trust the receivers' certificate too.
  process.env.NODE_EXTRA_CA_CERTS = certificate.certPath;
  running = await startLocalStackProcess({
    // Retry waits shrunk for tests (unit tests assert the real schedules).
    PAYOUT_RETRY_SCALE: '0.01',
    WEBHOOK_RETRY_SCALE: '0.0001',
    // Local-only: the tests' HTTPS receivers listen on loopback addresses.
    WEBHOOK_ALLOW_PRIVATE_HOSTS: ['localhost', '127.0.0.1', ...RECEIVER_IPS].join(','),
    NODE_EXTRA_CA_CERTS: certificate.certPath,
  });
  project.provide('localStack', running.info);
  project.provide('webhookCertificate', certificate);
}

export async function teardown() {
  await running?.stop();
}
