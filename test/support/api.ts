import { execFile } from 'node:child_process';
import { request } from 'node:http';
import { randomInt } from 'node:crypto';
import { promisify } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { inject } from 'vitest';
import { createAccount, type AccountStore, type IssuedKeys } from '../../shared/adapters/dynamo/accounts';
import { PAYMENT_METHODS, type PaymentMethod } from '../../shared/domain/payment-methods';
import { getSqs } from '../../shared/adapters/sqs/client';
import { createDb, getDb } from '../../shared/adapters/dynamo/dynamo';
import { enforceDynamoDbLimits, enforceSqsLimits } from '../../infra/local/aws-limits';
import { localAwsConfig } from '../../infra/local/aws';
import { ROOT } from './local-stack-process';
import { expectConforms } from './openapi-check';

export type Reply = { status: number; headers: Record<string, string | string[] | undefined>; text: string; json: unknown };

export function stack() {
  return inject('localStack');
}

/** A loopback source address of its own (127.x.y.z), so per-IP limits of one test do not touch another's. */
export function uniqueIp(): string {
  return `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
}

export type CallOptions = { headers?: Record<string, string>; body?: string | object; sourceIp?: string };

/**
 * One HTTP request to the local stack from the given loopback address. The answer is checked against
 * the served OpenAPI document (test/support/openapi-check.ts): one the document does not describe
 * throws a ContractViolation.
 */
export async function call(method: string, path: string, options: CallOptions = {}): Promise<Reply> {
  const url = new URL(path, stack().baseUrl);
  const reply = await send(method, url, options);
  await expectConforms({ method, url: url.pathname + url.search, status: reply.status, headers: reply.headers, body: reply.text });
  return reply;
}

function send(method: string, url: URL, options: CallOptions): Promise<Reply> {
  const body = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  const headers: Record<string, string> = {
    ...(body !== undefined && typeof options.body === 'object' ? { 'content-type': 'application/json' } : {}),
    ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
    ...options.headers,
  };
  return new Promise((resolve, reject) => {
    const req = request(
      { method, hostname: url.hostname, port: url.port, path: url.pathname + url.search, headers, localAddress: options.sourceIp ?? uniqueIp() },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

export function basic(publicKey: string, secretKey: string): string {
  return `Basic ${Buffer.from(`${publicKey}:${secretKey}`).toString('base64')}`;
}

export function accountStore(): AccountStore {
  const client = new DynamoDBClient({ ...localAwsConfig(), endpoint: stack().dynamodbEndpoint });
  return { db: createDb(client), table: stack().tableName, now: () => new Date() };
}

/** A fresh account written straight to the local table (as the operator CLI does). */
export function newAccount(methods: PaymentMethod[] = [...PAYMENT_METHODS], withdrawFeeCents = 0): Promise<IssuedKeys> {
  return createAccount(accountStore(), { name: `Test ${randomInt(1_000_000)}`, methods, withdrawFeeCents });
}

/** A Bearer token for keys, asked from a unique address so the per-IP auth limit is not shared. */
export async function tokenFor(keys: IssuedKeys): Promise<string> {
  const reply = await call('POST', '/api/auth', { headers: { authorization: basic(keys.public_key, keys.secret_key) } });
  if (reply.status !== 200) throw new Error(`auth failed: ${reply.status} ${reply.text}`);
  return (reply.json as { success: { token: string } }).success.token;
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

export type CliResult = { code: number; stdout: string; stderr: string; json: unknown };

/** Runs the operator CLI against the local stack, as `npm run admin -- ...` does. */
export async function admin(...args: string[]): Promise<CliResult> {
  const env = { ...process.env, PORT: String(stack().port), DYNAMODB_PORT: String(stack().dynamodbPort), NODE_NO_WARNINGS: '1' };
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'infra/admin/cli.ts', ...args], { cwd: ROOT, env });
    return { code: 0, stdout, stderr, json: JSON.parse(stdout) };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '', json: undefined };
  }
}

/** Points this test process's AWS SDK and handler configuration at the local stack (for in-process handler calls). */
export function useLocalStackEnvironment(): void {
  const s = stack();
  Object.assign(process.env, {
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: s.dynamodbEndpoint,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: s.secretsEndpoint,
    AWS_ENDPOINT_URL_SQS: s.sqsEndpoint,
    TABLE_NAME: s.tableName,
    MASTER_KEY_SECRET_ID: s.masterKeySecretId,
    PROVIDER_SECRET_ID: s.providerSecretId,
    PUBLIC_BASE_URL: s.baseUrl,
    CEP_PROVIDER: 'fixture',
    // As the local stack's (global-setup.ts): many tests decline the one shared test card.
    CARD_DECLINES_PER_CARD_PER_HOUR: '1000',
    // The stack's authenticator test clock: panel handlers run here match codes at the same time as the stack's.
    LOCAL_TOTP_CLOCK_DIR: s.totpClockDir,
    LOCAL_RATE_CLOCK_DIR: s.rateClockDir,
  });
  // In-process handlers meet AWS's limits, as in the local stack.
  enforceDynamoDbLimits(getDb());
  enforceSqsLimits(getSqs());
}

/** Waits for a new rate-limit minute when fewer than `margin` seconds remain, so a burst fits in one window. */
export async function withinOneWindow(margin = 8): Promise<void> {
  const left = 60 - ((Date.now() / 1000) % 60);
  if (left < margin) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 50));
}
