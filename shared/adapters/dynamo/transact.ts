import { DeleteCommand, PutCommand, TransactWriteCommand, type TransactWriteCommandInput, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '../../domain/errors';
import { cancellationReasons, type RetryBudget, retryBudget, retryTransient } from './contention';
import { type Db, isConditionalCheckFailed } from './dynamo';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** One write of an atomic group, with the error its failed condition means to the client. */
export type TxWrite = TransactItem & { onConditionFailed?: () => Error };

function conditionError(write: TxWrite | undefined): Error {
  return write?.onConditionFailed?.() ?? new ConflictError('The resource changed while the request ran; retry the request', 'conflict');
}

/** A write as a transaction item (its client-facing error left out). */
export function stripped(write: TxWrite): TransactItem {
  const { onConditionFailed: _ignored, ...item } = write;
  return item;
}

/** A single write needs no transaction (half the write cost); its condition still holds. */
async function writeOne(db: Db, write: TxWrite, budget: RetryBudget): Promise<void> {
  try {
    await retryTransient(async () => {
      if (write.Put) await db.send(new PutCommand(write.Put));
      else if (write.Update) await db.send(new UpdateCommand(write.Update));
      else if (write.Delete) await db.send(new DeleteCommand(write.Delete));
      else throw new Error('A lone ConditionCheck writes nothing');
    }, budget);
  } catch (err) {
    if (isConditionalCheckFailed(err)) throw conditionError(write);
    throw err;
  }
}

/**
 * Commits writes atomically: all of them or none. A failed condition becomes that write's error at
 * once (e.g. 400 insufficient balance), without waiting out conflicts; a transaction that lost only
 * to concurrent ones is retried with jitter while the request's budget lasts, then answers 503
 * `temporary_conflict` having written nothing.
 */
export async function commitWrites(db: Db, writes: readonly TxWrite[], budget: RetryBudget = retryBudget()): Promise<void> {
  if (writes.length === 0) return;
  const [only] = writes;
  if (writes.length === 1 && only && !only.ConditionCheck) return writeOne(db, only, budget);
  const input: TransactWriteCommandInput = { TransactItems: writes.map(stripped) };
  try {
    await retryTransient(() => db.send(new TransactWriteCommand(input)), budget);
  } catch (err) {
    const failed = (cancellationReasons(err) ?? []).findIndex((reason) => reason.Code === 'ConditionalCheckFailed');
    if (failed >= 0) throw conditionError(writes[failed]);
    throw err;
  }
}
