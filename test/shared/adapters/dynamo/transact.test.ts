import { describe, expect, it } from 'vitest';
import { ContentionError, InsufficientBalanceError } from '../../../../shared/domain/errors';
import { retryBudget } from '../../../../shared/adapters/dynamo/contention';
import type { Db } from '../../../../shared/adapters/dynamo/dynamo';
import { commitWrites, type TxWrite } from '../../../../shared/adapters/dynamo/transact';

const named = (name: string, extra: object = {}) => Object.assign(new Error(name), { name, ...extra });
const canceled = (...codes: string[]) => named('TransactionCanceledException', { CancellationReasons: codes.map((Code) => ({ Code })) });

/** A stand-in for DynamoDB's client: answers each call with the next scripted outcome. */
function scriptedDb(outcomes: (Error | 'ok')[]): { db: Db; sent: string[] } {
  const sent: string[] = [];
  const db = {
    send: async (command: { constructor: { name: string } }) => {
      sent.push(command.constructor.name);
      const next = outcomes.shift() ?? 'ok';
      if (next !== 'ok') throw next;
      return {};
    },
  } as unknown as Db;
  return { db, sent };
}

const balanceTake: TxWrite = {
  Update: {
    TableName: 't',
    Key: { PK: 'ACCT#a', SK: 'BALANCE' },
    UpdateExpression: 'SET v = v - :x',
    ConditionExpression: 'v >= :x',
    ExpressionAttributeValues: { ':x': 1 },
  },
  onConditionFailed: () => new InsufficientBalanceError(),
};
const put: TxWrite = { Put: { TableName: 't', Item: { PK: 'WD#1', SK: 'WITHDRAW' }, ConditionExpression: 'attribute_not_exists(PK)' } };

describe('commitWrites under contention', () => {
  it('retries a transaction that lost only to concurrent ones, then commits it once', async () => {
    const { db, sent } = scriptedDb([canceled('TransactionConflict', 'None'), canceled('None', 'TransactionConflict'), 'ok']);
    await commitWrites(db, [balanceTake, put], retryBudget(5_000));
    expect(sent).toEqual(['TransactWriteCommand', 'TransactWriteCommand', 'TransactWriteCommand']);
  });

  it('answers a failed balance condition at once (400), without waiting out conflicts', async () => {
    const { db, sent } = scriptedDb([canceled('ConditionalCheckFailed', 'None')]);
    await expect(commitWrites(db, [balanceTake, put], retryBudget(5_000))).rejects.toBeInstanceOf(InsufficientBalanceError);
    expect(sent).toHaveLength(1);
  });

  it('a condition failure reported beside a conflict is still the condition’s error, at once', async () => {
    const { db, sent } = scriptedDb([canceled('ConditionalCheckFailed', 'TransactionConflict')]);
    await expect(commitWrites(db, [balanceTake, put], retryBudget(5_000))).rejects.toBeInstanceOf(InsufficientBalanceError);
    expect(sent).toHaveLength(1);
  });

  it('a transaction that keeps conflicting ends in ContentionError (503) once the budget is spent', async () => {
    const { db, sent } = scriptedDb(Array.from({ length: 1_000 }, () => canceled('TransactionConflict', 'None')));
    await expect(commitWrites(db, [balanceTake, put], retryBudget(200))).rejects.toBeInstanceOf(ContentionError);
    expect(sent.length).toBeGreaterThan(1);
    expect(sent.length).toBeLessThan(1_000);
  });

  it('a single write that meets a running transaction (TransactionConflictException) is retried too', async () => {
    const { db, sent } = scriptedDb([named('TransactionConflictException'), 'ok']);
    await commitWrites(db, [put], retryBudget(5_000));
    expect(sent).toEqual(['PutCommand', 'PutCommand']);
  });

  it('an unknown failure is not retried and keeps its identity (the pipeline settles it)', async () => {
    const reset = named('ECONNRESET');
    const { db, sent } = scriptedDb([reset]);
    await expect(commitWrites(db, [balanceTake, put], retryBudget(5_000))).rejects.toBe(reset);
    expect(sent).toHaveLength(1);
  });
});
