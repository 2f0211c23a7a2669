import type { InitializeMiddleware } from '@smithy/types';
import type { ServiceInputTypes, ServiceOutputTypes } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../shared/http/routes';
import { getRuntime } from '../../shared/runtime';
import { bearer, newAccount, tokenFor, useLocalStackEnvironment } from '../support/api';
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
});
