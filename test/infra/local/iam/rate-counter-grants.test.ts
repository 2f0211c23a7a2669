import { marshall } from '@aws-sdk/util-dynamodb';
import type { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { IamEvaluator } from '../../../../infra/local/iam/evaluator';
import { loadLocalIamPolicies } from '../../../../infra/local/iam/load';
import { dynamoDbRequests } from '../../../../infra/local/iam/requests';
import { LOCAL_MAIL_FROM, LOCAL_TABLE } from '../../../../infra/local/constants';
import type { Db } from '../../../../shared/adapters/dynamo/dynamo';
import { hitAccountCounter, hitIpCounter } from '../../../../shared/adapters/dynamo/rate-counter';
import { functionIdOf } from '../../../../shared/http/route';
import { routes } from '../../../../shared/http/routes';
import { ROOT } from '../../../support/local-stack-process';

/** A table stand-in that records the counter's updates and answers each with the item after it. */
function recordingDb(sent: UpdateCommand[]): Db {
  return {
    send: async (command: UpdateCommand) => {
      sent.push(command);
      return { Attributes: { rlLog: Array.from({ length: 60 }, () => 0), kv: 1 } };
    },
  } as unknown as Db;
}

/** The counter's UpdateItem as it reaches IAM (marshalled). */
const asSent = (command: UpdateCommand) =>
  dynamoDbRequests({ partition: 'aws', region: 'us-east-1', account: '123456789012' }, 'UpdateItemCommand', {
    ...command.input,
    Key: marshall(command.input.Key ?? {}),
    TableName: LOCAL_TABLE,
  });

/**
 * Issue 44, finding 1: the gate's counting UpdateItem asks the item back (ALL_NEW: the log gives the
 * quota left); the roles granted it only through statements that refused any ReturnValues but NONE and
 * UPDATED_*, so on AWS POST /api/auth, every Bearer route and every public page answered 500. Evaluated
 * here against the policies as synthesized: this fails on the grants before the fix.
 */
describe("the rate limiter's updates against the synthesized roles", () => {
  let evaluator: IamEvaluator;
  beforeAll(async () => {
    evaluator = new IamEvaluator((await loadLocalIamPolicies(ROOT, LOCAL_MAIL_FROM)).policies);
  }, 120_000);

  it('a read route counts its account (sliding log, and a fixed window past 1,000 a minute) with the account item back', async () => {
    const sent: UpdateCommand[] = [];
    await hitAccountCounter(recordingDb(sent), { table: LOCAL_TABLE, accountId: 'acct_1', keyVersion: 1, limit: 60, nowMs: Date.now(), returnItem: false });
    await hitAccountCounter(recordingDb(sent), {
      table: LOCAL_TABLE,
      accountId: 'acct_1',
      keyVersion: 1,
      limit: 5_000,
      nowMs: Date.now(),
      returnItem: false,
    }).catch(() => undefined);
    expect(sent.length).toBeGreaterThanOrEqual(2);
    for (const command of sent) {
      const [request] = asSent(command);
      expect(request?.context['dynamodb:ReturnValues']).toBe('ALL_NEW');
      for (const route of [routes.balance, routes.listInvoices, routes.getWithdraw]) {
        expect(route.access).toBe('read');
        expect(await evaluator.decide(functionIdOf(route), request!), `${route.id}: ${JSON.stringify(request)}`).toEqual({ allowed: true });
      }
    }
  });

  it('POST /api/auth and a Bearer route count the caller IP with the RL# item back', async () => {
    const sent: UpdateCommand[] = [];
    await hitIpCounter(recordingDb(sent), { table: LOCAL_TABLE, limitClass: 'auth', ip: '127.0.0.1', limit: 10, nowMs: Date.now() });
    await hitIpCounter(recordingDb(sent), { table: LOCAL_TABLE, limitClass: 'unauthenticated', ip: '127.0.0.1', limit: 60, nowMs: Date.now() });
    const [auth, unauthenticated] = sent.map((c) => asSent(c)[0]!);
    expect(await evaluator.decide(functionIdOf(routes.authToken), auth!)).toEqual({ allowed: true });
    expect(await evaluator.decide(functionIdOf(routes.balance), unauthenticated!)).toEqual({ allowed: true });
    // …and only its own class's items: the auth route may not count the 'unauthenticated' class.
    expect((await evaluator.decide(functionIdOf(routes.authToken), unauthenticated!)).allowed).toBe(false);
  });

  it('the attribute limit still holds: a read route may not name an account attribute the counter does not', async () => {
    const sent: UpdateCommand[] = [];
    await hitAccountCounter(recordingDb(sent), { table: LOCAL_TABLE, accountId: 'acct_1', keyVersion: 1, limit: 60, nowMs: Date.now(), returnItem: false });
    const [request] = asSent(sent[0]!);
    const widened = {
      ...request!,
      context: { ...request!.context, 'dynamodb:Attributes': [...(request!.context['dynamodb:Attributes'] as string[]), 'webhookUrl'] },
    };
    expect((await evaluator.decide(functionIdOf(routes.balance), widened)).allowed).toBe(false);
  });
});
