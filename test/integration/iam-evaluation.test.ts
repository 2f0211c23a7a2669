import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type { DenialRecord } from '../../infra/local/iam/hook';
import { runAsFunction } from '../../infra/local/iam/hook';
import type { FunctionRole, LocalIamPolicies } from '../../infra/local/iam/policies';
import { INTERNAL_ERROR_MESSAGE } from '../../shared/http/errors';
import { functionIdOf } from '../../shared/http/route';
import { routes } from '../../shared/http/routes';
import { bearer, newAccount, tokenFor, useLocalStackEnvironment } from '../support/api';
import { invokeRoute } from '../support/invoke-route';

/**
 * Issue 44: every AWS call a handler makes is evaluated against its function's role as synthesized
 * (infra/local/iam/). A role narrowed on purpose makes its route fail here as it would in AWS: the
 * SDK throws AccessDeniedException, the pipeline answers its 500. Its denials are marked expected, so
 * the run's denial record (checked by the global teardown) stays clean.
 */
const synthesized = (): LocalIamPolicies => JSON.parse(readFileSync(inject('iamEvaluation').policiesFile, 'utf8')) as LocalIamPolicies;

/** The role without the statements that allow `action`. */
function without(role: FunctionRole, action: string): FunctionRole {
  const allows = (statement: Record<string, unknown>) => ([] as unknown[]).concat(statement.Action).includes(action);
  return { ...role, policies: role.policies.map((p) => ({ ...p, policy: { ...p.policy, Statement: p.policy.Statement.filter((s) => !allows(s)) } })) };
}

function recordedDenials(): DenialRecord[] {
  const dir = inject('iamEvaluation').denialsDir;
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n'))
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as DenialRecord);
}

describe('local IAM evaluation', () => {
  let token: string;
  beforeAll(async () => {
    useLocalStackEnvironment();
    token = await tokenFor(await newAccount());
  });

  it('GET /api/balance with its role as synthesized: 200', async () => {
    const answer = await invokeRoute(routes.balance, { headers: bearer(token) });
    expect(answer.status).toBe(200);
  });

  it('GET /api/balance whose role lost dynamodb:BatchGetItem: the balance read is denied and the route answers 500 internal_error, as in AWS', async () => {
    const functionId = functionIdOf(routes.balance);
    const role = synthesized().functions[functionId];
    expect(role).toBeDefined();
    const narrowed = without(role!, 'dynamodb:BatchGetItem');
    const before = recordedDenials().length;
    const answer = await runAsFunction(functionId, () => invokeRoute(routes.balance, { headers: bearer(token) }), { role: narrowed, expectDenials: true });
    expect(answer.status).toBe(500);
    expect(answer.json).toEqual({ error: INTERNAL_ERROR_MESSAGE, code: 'internal_error' });
    const denials = recordedDenials()
      .slice(before)
      .filter((d) => d.pid === process.pid);
    expect(denials).toEqual([
      expect.objectContaining({
        functionId,
        action: 'dynamodb:BatchGetItem',
        expected: true,
        principal: expect.stringContaining(`assumed-role/${role!.roleLogicalId}/${functionId}`),
      }),
    ]);
    expect(denials[0]?.context['dynamodb:LeadingKeys']).toEqual(expect.arrayContaining([expect.stringMatching(/^ACCT#/), expect.stringMatching(/^BAL#/)]));
  });

  it('GET /api/balance whose role lost the counting UpdateItem: the gate is denied before anything is read (500)', async () => {
    const functionId = functionIdOf(routes.balance);
    const narrowed = without(synthesized().functions[functionId]!, 'dynamodb:UpdateItem');
    const answer = await runAsFunction(functionId, () => invokeRoute(routes.balance, { headers: bearer(token) }), { role: narrowed, expectDenials: true });
    expect(answer.status).toBe(500);
    expect(recordedDenials().filter((d) => d.pid === process.pid && d.action === 'dynamodb:UpdateItem' && d.expected)).not.toHaveLength(0);
  });
});
