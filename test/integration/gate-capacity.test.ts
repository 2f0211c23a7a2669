import type { InitializeMiddleware } from '@smithy/types';
import type { ServiceInputTypes, ServiceOutputTypes } from '@aws-sdk/lib-dynamodb';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitWrites } from '../../shared/adapters/dynamo/transact';
import { webhookConfiguredWrite } from '../../shared/adapters/dynamo/webhooks';
import { routes } from '../../shared/http/routes';
import { getRuntime } from '../../shared/wiring/runtime';
import { accountStore, bearer, newAccount, tokenFor, useLocalStackEnvironment } from '../support/api';
import { createAccount } from '../../shared/adapters/dynamo/accounts';
import { PAYMENT_METHODS } from '../../shared/domain/payment-methods';
import { invokeRoute } from '../support/invoke-route';

/**
 * Issue 26, billed capacity: the gate's count is ONE write unit. The account item it updates on every
 * authenticated call is in no index (the account index has entries of its own), so no index copy is
 * written beside it. Measured with DynamoDB's own ConsumedCapacity (INDEXES) on the gate's UpdateItem.
 */
const MEASURE = 'gate-capacity-measure';
type Consumed = { CapacityUnits?: number; Table?: { CapacityUnits?: number }; GlobalSecondaryIndexes?: Record<string, unknown> };
let measured: Consumed[] = [];

beforeAll(() => {
  useLocalStackEnvironment();
  const measure: InitializeMiddleware<ServiceInputTypes, ServiceOutputTypes> = (next, context) => async (args) => {
    const input = args.input as { Key?: { PK?: unknown }; ReturnConsumedCapacity?: string };
    const gate = String(context.commandName) === 'UpdateItemCommand' && typeof input.Key?.PK === 'string' && /^ACCT#[^#]+$/.test(input.Key.PK);
    if (gate) input.ReturnConsumedCapacity = 'INDEXES';
    const out = await next(args);
    if (gate) measured.push((out.output as { ConsumedCapacity?: Consumed }).ConsumedCapacity ?? {});
    return out;
  };
  getRuntime().db.middlewareStack.add(measure, { step: 'initialize', name: MEASURE, priority: 'low' });
});

afterAll(() => getRuntime().db.middlewareStack.remove(MEASURE));

describe("the gate's count (issue 26)", () => {
  it('costs one write unit and writes no index copy, call after call', async () => {
    const auth = bearer(await tokenFor(await newAccount()));
    measured = [];
    expect((await invokeRoute(routes.balance, { headers: auth })).status).toBe(200);
    expect((await invokeRoute(routes.listCustomers, { headers: auth })).status).toBe(200);
    expect(measured).toHaveLength(2);
    for (const consumed of measured) {
      expect(consumed.CapacityUnits).toBe(1);
      expect(consumed.GlobalSecondaryIndexes ?? {}).toEqual({});
    }
  });

  it('stays one write unit for an account at its limit (a full log of 60) with a webhook configured', async () => {
    // A merchant's name as merchants have them (the test accounts' short names kept the item just under 1 KB).
    const issued = await createAccount(accountStore(), { name: 'Loja Exemplo Comércio Ltda', methods: [...PAYMENT_METHODS], withdrawFeeCents: 0 });
    const auth = bearer(await tokenFor(issued));
    const runtime = getRuntime();
    const url = 'https://api.lojaexemplo.com.br/webhooks/payment-gateway';
    const configured = {
      kind: 'webhook.configured',
      accountId: issued.account_id,
      url,
      at: new Date().toISOString(),
      newSecret: `whsec_${'x'.repeat(43)}`,
    } as const;
    await commitWrites(runtime.db, [webhookConfiguredWrite(runtime.config.tableName, configured, randomBytes(32))]);
    const limit = runtime.config.rateLimits.account;
    expect(limit).toBe(60);
    measured = [];
    for (let i = 0; i < limit; i += 1) expect((await invokeRoute(routes.balance, { headers: auth })).status).toBe(200);
    expect(measured).toHaveLength(limit);
    // With the log's times in epoch milliseconds this item passed 1 KB once the log filled: 2 units a call.
    expect(measured.map((consumed) => consumed.CapacityUnits)).toEqual(Array.from({ length: limit }, () => 1));
  });
});
