import { setTimeout as sleep } from 'node:timers/promises';
import { DeleteCommand, PutCommand, TransactWriteCommand, type TransactWriteCommandInput, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '../http/errors';
import { type Db, isConditionalCheckFailed } from './dynamo';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** One write of an atomic group, with the error its failed condition means to the client. */
export type TxWrite = TransactItem & { onConditionFailed?: () => Error };

/**
 * A transaction that lost only to concurrent transactions on the same items (a hot balance under a
 * burst of withdrawals) is retried with exponential backoff and full jitter: up to 8 retries, waits
 * drawn from 0 to 20 ms doubling up to 640 ms (about 1.3 s in the worst case).
 */
const MAX_CONFLICT_RETRIES = 8;

function conditionError(write: TxWrite | undefined): Error {
  return write?.onConditionFailed?.() ?? new ConflictError('The resource changed while the request ran; retry the request', 'conflict');
}

function strip(write: TxWrite): TransactItem {
  const { onConditionFailed: _ignored, ...item } = write;
  return item;
}

/** A single write needs no transaction (half the write cost); its condition still holds. */
async function writeOne(db: Db, write: TxWrite): Promise<void> {
  try {
    if (write.Put) await db.send(new PutCommand(write.Put));
    else if (write.Update) await db.send(new UpdateCommand(write.Update));
    else if (write.Delete) await db.send(new DeleteCommand(write.Delete));
    else throw new Error('A lone ConditionCheck writes nothing');
  } catch (err) {
    if (isConditionalCheckFailed(err)) throw conditionError(write);
    throw err;
  }
}

type CancellationReason = { Code?: string };

function cancellationReasons(err: unknown): CancellationReason[] | undefined {
  if (typeof err !== 'object' || err === null || (err as { name?: string }).name !== 'TransactionCanceledException') return undefined;
  return (err as { CancellationReasons?: CancellationReason[] }).CancellationReasons ?? [];
}

/**
 * Commits writes atomically: all of them or none. A failed condition becomes that write's error;
 * a transaction that lost only to a concurrent transaction is retried a few times with jitter.
 */
export async function commitWrites(db: Db, writes: readonly TxWrite[]): Promise<void> {
  if (writes.length === 0) return;
  const [only] = writes;
  if (writes.length === 1 && only && !only.ConditionCheck) return writeOne(db, only);
  const input: TransactWriteCommandInput = { TransactItems: writes.map(strip) };
  for (let attempt = 0; ; attempt += 1) {
    try {
      await db.send(new TransactWriteCommand(input));
      return;
    } catch (err) {
      const reasons = cancellationReasons(err);
      if (!reasons) throw err;
      const failed = reasons.findIndex((reason) => reason.Code === 'ConditionalCheckFailed');
      if (failed >= 0) throw conditionError(writes[failed]);
      const onlyConflicts = reasons.every((reason) => !reason.Code || reason.Code === 'None' || reason.Code === 'TransactionConflict');
      if (!onlyConflicts || attempt >= MAX_CONFLICT_RETRIES) throw err;
      await sleep(Math.floor(Math.random() * Math.min(640, 20 * 2 ** attempt)));
    }
  }
}
