import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { TestProject } from 'vitest/node';
import { localAwsConfig } from '../../infra/local/aws';
import { LOCAL_MAIL_FROM } from '../../infra/local/constants';
import type { DenialRecord } from '../../infra/local/iam/hook';
import { loadLocalIamPolicies } from '../../infra/local/iam/load';
import { describeLeaks, type LoggedLeak, scanLogDirectory, scanLogFile, scanTable, stackLogFile, type StoredLeak } from './leak-sources';
import { ROOT, startLocalStackProcess, type LocalStackInfo, type RunningStack } from './local-stack-process';
import { RECEIVER_IPS, type TestCertificate, writeTestCertificate } from './tls';

declare module 'vitest' {
  export interface ProvidedContext {
    localStack: LocalStackInfo;
    webhookCertificate: TestCertificate;
    /** Where test workers copy their JSON log lines (test/support/worker-log-tee.ts). */
    leakScan: { workerLogDir: string };
    /** The role policies in-process handler calls are evaluated against, and where each process records its denials (infra/local/iam/). */
    iamEvaluation: { policiesFile: string; denialsDir: string };
  }
}

let running: RunningStack | undefined;
/** This run's own files (certificate, workers' log copies): runs side by side do not share them. */
let runDir: string | undefined;

/** Starts the local stack once per test run (free ports) and stops it, with every child, at the end. */
export async function setup(project: TestProject) {
  runDir = join(ROOT, '.local', `run-${process.pid}`);
  rmSync(runDir, { recursive: true, force: true });
  const certificate = await writeTestCertificate(runDir);
  // Test workers are forked after this: they trust the receivers' certificate too.
  process.env.NODE_EXTRA_CA_CERTS = certificate.certPath;
  // The stack's role policies, synthesized once for the run (cached under .local/iam/ by a digest of the
  // sources): the local stack and every test worker evaluate each handler's AWS calls against them.
  const iam = await loadLocalIamPolicies(ROOT, process.env.MAIL_FROM ?? LOCAL_MAIL_FROM);
  const denialsDir = join(runDir, 'iam-denials');
  running = await startLocalStackProcess({
    // Retry waits shrunk for tests (unit tests assert the real schedules).
    PAYOUT_RETRY_SCALE: '0.01',
    // A bank outage is retried for 24 h in AWS; here for 3 s, then the DLQ.
    PAYOUT_RETRY_WINDOW_SECONDS: '3',
    // The sweep runs every 2 s and forwards what the stream has not forwarded 20 s after its creation.
    LOCAL_SWEEP_INTERVAL_SECONDS: '2',
    SWEEP_AFTER_SECONDS: '20',
    // The checkout upkeep settles UNKNOWN checkouts every 2 s (every 5 minutes in AWS).
    LOCAL_CHECKOUT_UPKEEP_INTERVAL_SECONDS: '2',
    WEBHOOK_RETRY_SCALE: '0.0001',
    // Many tests decline the one shared test card (4000000000000002): its per-card cap (5 an hour by
    // default) would refuse them; test/integration/card-testing.test.ts tests the cap on cards of its own.
    CARD_DECLINES_PER_CARD_PER_HOUR: '1000',
    // Local-only: the tests' HTTPS receivers listen on loopback addresses.
    WEBHOOK_ALLOW_PRIVATE_HOSTS: ['localhost', '127.0.0.1', ...RECEIVER_IPS].join(','),
    NODE_EXTRA_CA_CERTS: certificate.certPath,
    LOCAL_IAM_POLICIES: iam.file,
    LOCAL_IAM_DENIALS_DIR: denialsDir,
  });
  project.provide('localStack', running.info);
  project.provide('webhookCertificate', certificate);
  project.provide('leakScan', { workerLogDir: join(runDir, 'worker-logs') });
  project.provide('iamEvaluation', { policiesFile: iam.file, denialsDir });
}

/** The denials the run recorded that no test expected (a test narrowing a policy marks its own as expected). */
export function unexpectedDenials(denialsDir: string): DenialRecord[] {
  if (!existsSync(denialsDir)) return [];
  return readdirSync(denialsDir)
    .filter((name) => name.endsWith('.jsonl'))
    .flatMap((name) =>
      readFileSync(join(denialsDir, name), 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== ''),
    )
    .map((line) => JSON.parse(line) as DenialRecord)
    .filter((denial) => !denial.expected);
}

function describeDenials(denials: DenialRecord[]): string {
  const seen = new Map<string, number>();
  for (const d of denials) {
    const key = `${d.functionId}: ${d.action} on ${d.resource} ${JSON.stringify(d.context)}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return [...seen].map(([key, count]) => `  ${count}× ${key}`).join('\n');
}

/**
 * Stops the stack, after scanning what the whole run left behind for secrets in clear (issue 9):
 * every item of the table (before the in-memory database goes), the stack's log after its start-up
 * banner, and the workers' copies of their in-process handlers' logs. Any finding fails the run,
 * naming where (item key and attribute, or file and line), never the secret.
 */
export async function teardown() {
  const stack = running;
  if (!stack) return;
  let stored: StoredLeak[] = [];
  try {
    const client = new DynamoDBClient({ ...localAwsConfig(), endpoint: stack.info.dynamodbEndpoint });
    stored = (await scanTable(client, stack.info.tableName)).leaks;
    client.destroy();
  } finally {
    await stack.stop();
  }
  // Let the last chunks of the stack's output reach its log file.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const logged: LoggedLeak[] = [...scanLogFile(stackLogFile(stack.info.port), { after: 'LOCAL_STACK_READY ' }).leaks];
  if (runDir) logged.push(...scanLogDirectory(join(runDir, 'worker-logs')).leaks);
  // Every AWS call a handler made was evaluated against its function's synthesized role: a denial no
  // test expected is a call that fails in AWS (issue 44), whatever the test that made it concluded.
  const denials = runDir ? unexpectedDenials(join(runDir, 'iam-denials')) : [];
  if (denials.length > 0) {
    process.exitCode = 1;
    throw new Error(`AWS calls the functions' roles deny (local IAM evaluation, docs/decisions.md issue 44):\n${describeDenials(denials)}`);
  }
  if (stored.length + logged.length > 0) {
    // Vitest reports a teardown error without failing the run: set the exit code as well. The run's
    // directory (with the workers' log copies) stays for inspection.
    process.exitCode = 1;
    throw new Error(`Secrets or personal data in clear after the test run (docs/security.md):\n${describeLeaks(stored, logged)}`);
  }
  if (runDir) rmSync(runDir, { recursive: true, force: true });
}
