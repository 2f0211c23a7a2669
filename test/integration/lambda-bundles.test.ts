import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cdkEsbuildOptions } from '../../bench/cold-start/bundle';
import type { BundleTarget } from '../../bench/cold-start/functions';
import { BUILTIN_SHIMS } from '../../infra/cdk/bundling';
import { toHttpApiEvent } from '../../infra/local/apigw-event';
import { routes } from '../../shared/http/routes';
import { basic, newAccount, stack, uniqueIp, useLocalStackEnvironment } from '../support/api';
import { ROOT } from '../support/local-stack-process';

/**
 * The functions as Lambda runs them: bundled with the stack's esbuild settings and substitutions
 * (the SDK's credential chain reduced to the environment, the built-ins taken as CommonJS), each
 * imported in a fresh Node process with only Lambda's kind of environment, and invoked with an API
 * Gateway event against the local stack: the substitutions must leave the functions working.
 */

const TARGETS: BundleTarget[] = [
  { id: 'AuthToken', label: 'POST /api/auth', entry: routes.authToken.handler, kind: 'route', stackAliases: true },
  { id: 'GetBalance', label: 'GET /api/balance', entry: routes.balance.handler, kind: 'route', stackAliases: true },
];

let dir: string;

/** What a Lambda function's environment holds here: the role's credentials, the region, the stack's settings; nothing of this test process. */
function lambdaEnvironment(): Record<string, string> {
  const s = stack();
  return {
    PATH: process.env.PATH ?? '',
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_SESSION_TOKEN: 'local-session',
    AWS_ENDPOINT_URL_DYNAMODB: s.dynamodbEndpoint,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: s.secretsEndpoint,
    TABLE_NAME: s.tableName,
    MASTER_KEY_SECRET_ID: s.masterKeySecretId,
    PROVIDER_SECRET_ID: s.providerSecretId,
    PUBLIC_BASE_URL: s.baseUrl,
    AWS_LAMBDA_FUNCTION_NAME: 'bundle-test',
  };
}

/** Imports the bundle in a fresh process and invokes its handler with the event; the handler's result. */
async function invokeBundle(id: string, event: unknown): Promise<{ statusCode: number; body: string }> {
  const eventFile = join(dir, `${id}-event.json`);
  writeFileSync(eventFile, JSON.stringify(event));
  const script = [
    `const { handler } = await import(${JSON.stringify(join(dir, id, 'index.mjs'))});`,
    `const event = JSON.parse((await import('node:fs')).readFileSync(${JSON.stringify(eventFile)}, 'utf8'));`,
    `const context = { functionName: '${id}', awsRequestId: 'bundle-test', invokedFunctionArn: 'arn:aws:lambda:us-east-1:0:function:${id}', memoryLimitInMB: '512', getRemainingTimeInMillis: () => 10000 };`,
    'const result = await handler(event, context);',
    "process.stdout.write('\\nRESULT ' + JSON.stringify(result) + '\\n');",
  ].join('\n');
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    env: lambdaEnvironment(),
    cwd: dir,
    timeout: 30_000,
  });
  const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) throw new Error(`no result from the ${id} bundle`);
  return JSON.parse(line.slice('RESULT '.length)) as { statusCode: number; body: string };
}

function apiEvent(method: string, path: string, headers: Record<string, string>, routeKey: string) {
  return toHttpApiEvent({ method, url: path, headers, body: Buffer.alloc(0), sourceIp: uniqueIp(), host: 'localhost' }, routeKey, undefined);
}

beforeAll(async () => {
  useLocalStackEnvironment();
  dir = mkdtempSync(join(tmpdir(), 'lambda-bundles-'));
  await build(cdkEsbuildOptions(ROOT, dir, TARGETS));
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the Lambda bundles, as the stack builds them, in a fresh process with a Lambda's environment", () => {
  it('take every built-in as CommonJS: no ESM import of a built-in is left in them', () => {
    for (const target of TARGETS) {
      const text = readFileSync(join(dir, target.id, 'index.mjs'), 'utf8');
      const esmBuiltins = [...text.matchAll(/(?:from|import)\s*"node:([a-z_/]+)"/g)].map((m) => m[1]);
      expect(esmBuiltins, target.id).toEqual([]);
      expect(text, target.id).toContain('getBuiltinModule("node:http")');
    }
    expect(BUILTIN_SHIMS).toContain('http');
  });

  it('POST /api/auth issues a token and GET /api/balance answers with it (DynamoDB and Secrets Manager signed with the environment credentials)', async () => {
    const keys = await newAccount();
    const auth = await invokeBundle('AuthToken', apiEvent('POST', '/api/auth', { authorization: basic(keys.public_key, keys.secret_key) }, 'POST /api/auth'));
    expect(auth.statusCode, auth.body).toBe(200);
    const token = (JSON.parse(auth.body) as { success: { token: string } }).success.token;
    const balance = await invokeBundle('GetBalance', apiEvent('GET', '/api/balance', { authorization: `Bearer ${token}` }, 'GET /api/balance'));
    expect(balance.statusCode, balance.body).toBe(200);
    expect(JSON.parse(balance.body)).toEqual({ balance: { available: '0.00', reserved: '0.00', currency: 'BRL' } });
  }, 90_000);
});
