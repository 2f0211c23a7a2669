import { describe, expect, it } from 'vitest';
import { type Call, inputAgain, wavesOf, withoutCondition } from '../../bench/calls-alone';
import type { Sample } from '../../bench/measure';
import { evaluateTargets, markdown, type Report, typicalSample } from '../../bench/report';
import type { RoundTrip } from '../../bench/round-trips';

const trip = (operation: string, startedAt: number, endedAt: number, input: Record<string, unknown> = {}, ok = true): RoundTrip => ({
  operation,
  purpose: 'read',
  ok,
  ms: endedAt - startedAt,
  startedAt,
  endedAt,
  reportedUnits: 1,
  billedWcu: 0,
  billedRcu: 1,
  billedGsiWcu: 0,
  input,
});

describe("a route's calls alone", () => {
  it('groups the calls in the waits they were made in: those sent together in one, each after an answer in the next', () => {
    const gate = trip('UpdateItem', 0, 3, { gate: 1 });
    const lock = trip('PutItem', 0.1, 2.5, { lock: 1 });
    const read = trip('BatchGetItem', 0.2, 4, { read: 1 });
    const commit = trip('TransactWriteItems', 6, 9, { commit: 1 });
    const waves = wavesOf([commit, read, gate, lock]);
    expect(waves.map((wave) => wave.map((call) => call.operation))).toEqual([['UpdateItem', 'PutItem', 'BatchGetItem'], ['TransactWriteItems']]);
    // A call answered before another was sent puts that one in a later wait, even beside a longer call.
    expect(wavesOf([trip('GetItem', 0, 1), trip('GetItem', 0, 5), trip('PutItem', 1.5, 2)]).map((wave) => wave.length)).toEqual([2, 1]);
    expect(() => wavesOf([{ ...trip('GetItem', 0, 1), input: undefined }])).toThrow(/without its input/);
  });

  it('leaves a held condition out, with the names and values only it used', () => {
    const update = {
      TableName: 'T',
      Key: { PK: 'INV#1', SK: 'INVOICE' },
      UpdateExpression: 'SET #st = :paid, paidAt = :at',
      ConditionExpression: '#st = :pending AND #v = :v',
      ExpressionAttributeNames: { '#st': 'status', '#v': 'version' },
      ExpressionAttributeValues: { ':paid': 'PAID', ':at': '2026-11-28', ':pending': 'PENDING', ':v': 3 },
    };
    expect(withoutCondition(update)).toEqual({
      TableName: 'T',
      Key: { PK: 'INV#1', SK: 'INVOICE' },
      UpdateExpression: 'SET #st = :paid, paidAt = :at',
      ExpressionAttributeNames: { '#st': 'status' },
      ExpressionAttributeValues: { ':paid': 'PAID', ':at': '2026-11-28' },
    });
    // A put whose condition alone used placeholders keeps none.
    expect(withoutCondition({ Item: { PK: 'A' }, ConditionExpression: 'attribute_not_exists(#pk)', ExpressionAttributeNames: { '#pk': 'PK' } })).toEqual({
      Item: { PK: 'A' },
    });
  });

  it('writes new items beside the stored ones, updates the same items, and sends a failed call as it was', () => {
    const put: Call = {
      operation: 'PutItem',
      ok: true,
      input: { TableName: 'T', Item: { PK: 'IDEM#a', SK: 'KEY#k', state: 'LOCK' }, ConditionExpression: 'attribute_not_exists(PK)' },
    };
    expect(inputAgain(put, '7')).toEqual({ TableName: 'T', Item: { PK: 'IDEM#a', SK: 'KEY#k#calls-alone#7', state: 'LOCK' } });
    const failed: Call = { ...put, ok: false };
    expect(inputAgain(failed, '7')).toBe(failed.input);
    const get: Call = { operation: 'GetItem', ok: true, input: { TableName: 'T', Key: { PK: 'A', SK: 'B' } } };
    expect(inputAgain(get, '7')).toBe(get.input);

    const commit: Call = {
      operation: 'TransactWriteItems',
      ok: true,
      input: {
        ClientRequestToken: 'token-1',
        TransactItems: [
          { Put: { TableName: 'T', Item: { PK: 'INV#1', SK: 'INVOICE', amount: 100 }, ConditionExpression: 'attribute_not_exists(PK)' } },
          {
            Update: {
              TableName: 'T',
              Key: { PK: 'BAL#1#3', SK: 'BALANCE' },
              UpdateExpression: 'ADD availableCents :c',
              ExpressionAttributeValues: { ':c': 100 },
            },
          },
          { Delete: { TableName: 'T', Key: { PK: 'LOCK#1', SK: 'LOCK' }, ConditionExpression: 'attribute_exists(PK)' } },
          {
            ConditionCheck: {
              TableName: 'T',
              Key: { PK: 'ACCT#1', SK: 'ACCOUNT' },
              ConditionExpression: 'disabled <> :t',
              ExpressionAttributeValues: { ':t': true },
            },
          },
        ],
      },
    };
    const again = inputAgain(commit, '7');
    expect(again.ClientRequestToken).not.toBe('token-1');
    expect(again.TransactItems).toEqual([
      { Put: { TableName: 'T', Item: { PK: 'INV#1', SK: 'INVOICE#calls-alone#7#0', amount: 100 } } },
      {
        Update: { TableName: 'T', Key: { PK: 'BAL#1#3', SK: 'BALANCE' }, UpdateExpression: 'ADD availableCents :c', ExpressionAttributeValues: { ':c': 100 } },
      },
      { Delete: { TableName: 'T', Key: { PK: 'LOCK#1', SK: 'LOCK#calls-alone#7#2' } } },
      { ConditionCheck: { TableName: 'T', Key: { PK: 'ACCT#1', SK: 'ACCOUNT' }, ConditionExpression: 'attribute_exists(PK) OR attribute_not_exists(PK)' } },
    ]);
    // The recorded input is not changed.
    expect((commit.input.TransactItems as { Put?: { Item: { SK: string } } }[])[0]?.Put?.Item.SK).toBe('INVOICE');
  });

  it('replays the typical request: the first that made the most frequent sequence of calls', () => {
    const sample = (ms: number, ...operations: string[]): Sample => ({ ms, trips: operations.map((op, i) => trip(op, i, i + 1)) });
    const odd = sample(9, 'UpdateItem', 'UpdateItem', 'GetItem');
    const first = sample(5, 'UpdateItem', 'GetItem');
    expect(typicalSample([odd, first, sample(4, 'UpdateItem', 'GetItem')])).toBe(first);
    expect(typicalSample([])).toBeUndefined();
  });

  it("puts a latency target's calls alone beside its routes, and says when the calls alone are already over the limit", () => {
    const request = (ms: number): Sample => ({ ms, trips: [trip('UpdateItem', 0, 1), trip('GetItem', 0, 1)] });
    const samples = new Map<string, Sample[]>(
      ['balance', 'customer-get', 'customer-list', 'invoice-get', 'invoice-get-ref', 'pix-get-txid', 'invoice-list'].map((id) => [id, [request(3)]]),
    );
    const alone = new Map([
      ['balance', 1.2],
      ['customer-get', 0.6],
      ['customer-list', 0.7],
      ['invoice-get', 0.7],
      ['invoice-get-ref', 0.6],
      ['pix-get-txid', 0.6],
      ['invoice-list', 0.9],
    ]);
    const targets = evaluateTargets(samples, 2, alone);
    const readRatio = targets.find((t) => t.id === 'read-ratio');
    expect(readRatio).toMatchObject({ median: 1.5, callsAlone: 1.2, pass: false });
    // A count target has no calls-alone figure; nor a latency target whose routes were not all replayed.
    expect(targets.find((t) => t.id === 'read-waits')?.callsAlone).toBeUndefined();
    expect(evaluateTargets(samples, 2, new Map([['balance', 1.2]])).find((t) => t.id === 'read-ratio')?.callsAlone).toBeUndefined();

    const report = {
      generatedAt: '2026-11-28T00:00:00.000Z',
      iterations: 1,
      warmup: 0,
      payments: { iterations: 1, warmup: 0 },
      environment: { node: '22', platform: 'linux-x64', cpus: 2, dynamodbLocal: 'x', rateLimits: { account: 60, auth: 10 }, rateLimitNote: '' },
      scenarios: [],
      targets,
      itemSizes: [],
      comparison: { rawTransactionMedianMs: 2, peerToRaw: 1, idempotentCreationToRaw: 1, idempotentCreationToPeer: 1 },
    } satisfies Report;
    const text = markdown(report);
    expect(text).toContain('### What the calls alone take');
    expect(text).toContain('| every read route: ≤ 1.0× the raw transaction (median) | 1 | 1.5 | 1.20 | no: the calls alone are over the limit |');
    const under = markdown({ ...report, targets: evaluateTargets(samples, 2, new Map([...alone, ['balance', 0.8]])) });
    expect(under).toContain('| 1 | 1.5 | 0.90 | yes |');
  });
});
