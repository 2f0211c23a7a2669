import { randomUUID } from 'node:crypto';
import { PutCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { sendAgain, wavesOf } from '../../bench/calls-alone';
import { attachRoundTripCounter, Recorder, recordInto } from '../../bench/round-trips';
import { accountStore } from '../support/api';

/**
 * The bench's calls alone (bench/calls-alone.ts) on DynamoDB Local: a request's calls sent again do
 * what they did (the same items updated, new items beside the ones put) and leave the stored ones alone.
 */
describe("a request's calls sent again alone", () => {
  it('updates the same item again without its condition, puts new items beside, sends a failed call as it was', async () => {
    const { db, table } = accountStore();
    attachRoundTripCounter(db);
    const pk = `CALLS#${randomUUID()}`;
    const first = { TableName: table, Item: { PK: pk, SK: 'ITEM', state: 'PENDING', n: 0 }, ConditionExpression: 'attribute_not_exists(PK)' };
    const recorder = new Recorder();
    await recordInto(recorder, async () => {
      await db.send(new PutCommand(first));
      await db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: table,
                Key: { PK: pk, SK: 'ITEM' },
                UpdateExpression: 'SET #s = :paid ADD n :one',
                ConditionExpression: '#s = :pending',
                ExpressionAttributeNames: { '#s': 'state' },
                ExpressionAttributeValues: { ':paid': 'PAID', ':pending': 'PENDING', ':one': 1 },
              },
            },
            { Put: { TableName: table, Item: { PK: pk, SK: 'EVENT', kind: 'paid' }, ConditionExpression: 'attribute_not_exists(PK)' } },
          ],
        }),
      );
      await expect(db.send(new PutCommand(first))).rejects.toMatchObject({ name: 'ConditionalCheckFailedException' });
    });
    const waits = wavesOf(recorder.trips);
    expect(waits.map((wave) => wave.map((call) => `${call.operation}${call.ok ? '' : ' failed'}`))).toEqual([
      ['PutItem'],
      ['TransactWriteItems'],
      ['PutItem failed'],
    ]);

    await sendAgain(db, waits, 'r1');
    const stored = await db.send(
      new QueryCommand({ TableName: table, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': pk }, ConsistentRead: true }),
    );
    const bySk = new Map((stored.Items ?? []).map((item) => [String(item.SK), item]));
    expect([...bySk.keys()].sort()).toEqual(['EVENT', 'EVENT#calls-alone#r1#0#1', 'ITEM', 'ITEM#calls-alone#r1#0']);
    // The update ran again on the same item although its condition (PENDING) no longer held.
    expect(bySk.get('ITEM')).toMatchObject({ state: 'PAID', n: 2 });
    expect(bySk.get('ITEM#calls-alone#r1#0')).toMatchObject({ state: 'PENDING', n: 0 });
    expect(bySk.get('EVENT')).toMatchObject({ kind: 'paid' });
  });

  it('throws when a call that held the first time fails: the figure would not be the route’s calls', async () => {
    const { db, table } = accountStore();
    const pk = `CALLS#${randomUUID()}`;
    const held = {
      operation: 'UpdateItem',
      ok: true,
      input: { TableName: `${table}-missing`, Key: { PK: pk, SK: 'ITEM' }, UpdateExpression: 'SET a = :a', ExpressionAttributeValues: { ':a': 1 } },
    };
    await expect(sendAgain(db, [[held]], 'r2')).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
    await expect(sendAgain(db, [[{ ...held, ok: false }]], 'r3')).resolves.toBeUndefined();
  });
});
