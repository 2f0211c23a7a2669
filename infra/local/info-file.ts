import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where a running local stack leaves its endpoints for the operator CLI: .local/stack-<PORT>.json. */
export function localStackInfoPath(root: string, port: number | string): string {
  return join(root, '.local', `stack-${port}.json`);
}

export function writeLocalStackInfo(root: string, port: number, info: object): void {
  mkdirSync(join(root, '.local'), { recursive: true });
  writeFileSync(localStackInfoPath(root, port), JSON.stringify(info), { mode: 0o600 });
}

export function removeLocalStackInfo(root: string, port: number): void {
  rmSync(localStackInfoPath(root, port), { force: true });
}

export type LocalStackInfoFile = {
  baseUrl: string;
  secretsEndpoint: string;
  providerSecretId: string;
  sqsEndpoint: string;
  queueUrls: { payouts: string; webhooks: string; reconcile: string; mail: string; mailFeedback: string; streamFailures: string };
};

export function readLocalStackInfo(root: string, port: number | string): LocalStackInfoFile {
  try {
    return JSON.parse(readFileSync(localStackInfoPath(root, port), 'utf8')) as LocalStackInfoFile;
  } catch {
    throw new Error(`No local stack on port ${port}: start it with npm start (same PORT), or name a deployed one with --stack`);
  }
}
