import { request } from 'node:http';
import { afterEach, inject } from 'vitest';
import { parse } from 'yaml';
import { routeList } from '../../shared/http/routes';
import { compileContract, type Contract, type ObservedAnswer } from './openapi-contract';

/**
 * Every answer an integration test receives through the shared helpers (api.ts `call`, invoke.ts
 * `invoke`, invoke-route.ts `invokeRoute`) is checked here against the OpenAPI document the local
 * stack serves at GET /developers/openapi.yaml, compiled once per test worker: status declared,
 * content type declared, body and declared headers matching their schemas, route present. A
 * disagreement throws from the helper and, should the test swallow that error, fails the test in an
 * afterEach hook.
 */

export class ContractViolation extends Error {
  override readonly name = 'ContractViolation';
}

let contract: Promise<Contract> | undefined;
const unreported: string[] = [];

/** The served document (YAML), fetched straight from the stack so the check reads what a client reads. */
function servedDocument(baseUrl: string): Promise<Record<string, unknown>> {
  const url = new URL('/developers/openapi.yaml', baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ method: 'GET', hostname: url.hostname, port: url.port, path: url.pathname }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error(`openapi-check: GET /developers/openapi.yaml answered ${res.statusCode}`));
        resolve(parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** The compiled contract of this worker. */
export function servedContract(): Promise<Contract> {
  contract ??= servedDocument(inject('localStack').baseUrl).then((document) => compileContract(document, routeList));
  return contract;
}

/** Throws a ContractViolation naming the operation, the status and the ajv error paths when the answer disagrees with the document. */
export async function expectConforms(answer: ObservedAnswer): Promise<void> {
  const problems = (await servedContract()).violations(answer);
  if (problems.length === 0) return;
  const message = `OpenAPI contract violated (shared/http/openapi.ts, served at /developers/openapi.yaml):\n  ${problems.join('\n  ')}`;
  unreported.push(message);
  throw new ContractViolation(message);
}

/** The route table's ids: an in-process call of a route outside it (a test-only route such as the probe) has no contract. */
const DOCUMENTED_IDS = new Set(routeList.map((route) => route.id));

export function isServedRoute(routeId: string): boolean {
  return DOCUMENTED_IDS.has(routeId);
}

// A violation thrown inside a helper the test wrapped in a catch still fails the test that made the call.
afterEach(() => {
  if (unreported.length === 0) return;
  const messages = unreported.splice(0);
  throw new ContractViolation(messages.join('\n'));
});
