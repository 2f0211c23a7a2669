import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import { type Db, itemFromConditionFailure } from '../shared/storage/dynamo';
import { itemSize, writeUnits } from './item-size';

/**
 * Counts DynamoDB round trips with two SDK middlewares on the client the handlers use (getDb()):
 * one at `initialize` asks every command for ReturnConsumedCapacity TOTAL and notes what the call
 * is (from its input), one at `deserialize` (inside the retry loop, so once per HTTP attempt)
 * records each round trip, its result and the capacity DynamoDB reported. Round trips are charged
 * to the measured request through AsyncLocalStorage, so nothing that runs outside it is counted.
 */

/** What a round trip was for, read from its key: the gate's counter or key check, the idempotency record, the commit, or another read. */
export type Purpose = 'gate' | 'idempotency' | 'commit' | 'read';

export type RoundTrip = {
  /** DynamoDB operation name (GetItem, UpdateItem, TransactWriteItems...). */
  operation: string;
  purpose: Purpose;
  ok: boolean;
  error?: string;
  ms: number;
  /** Capacity units as DynamoDB Local reported them (0 when the response carried none, e.g. a failed condition). */
  reportedUnits: number;
  /** Write and read units as AWS would bill the call (transactional writes at 2 WCU per item per KB). */
  billedWcu: number;
  billedRcu: number;
};

/** The round trips of one measured request. */
export class Recorder {
  readonly trips: RoundTrip[] = [];
}

const scope = new AsyncLocalStorage<Recorder>();

/** Runs fn with its DynamoDB round trips charged to recorder. */
export function recordInto<T>(recorder: Recorder, fn: () => Promise<T>): Promise<T> {
  return scope.run(recorder, fn);
}

type Plan = { operation: string; purpose: Purpose; kind: 'read' | 'write' | 'transaction'; consistent: boolean; itemUnits: number };

const READS = new Set(['GetItem', 'BatchGetItem', 'Query', 'Scan', 'TransactGetItems']);
const WITH_CAPACITY = new Set([
  'GetItem',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'Query',
  'Scan',
  'BatchGetItem',
  'BatchWriteItem',
  'TransactGetItems',
  'TransactWriteItems',
]);

type Input = Record<string, unknown>;

function record(value: unknown): Input | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Input) : undefined;
}

function keyOf(input: Input): { pk: string; sk: string } {
  const key = record(input.Key) ?? record(input.Item) ?? {};
  return { pk: typeof key.PK === 'string' ? key.PK : '', sk: typeof key.SK === 'string' ? key.SK : '' };
}

function purposeOf(operation: string, input: Input): Purpose {
  if (operation === 'TransactWriteItems') return 'commit';
  const { pk, sk } = keyOf(input);
  // The account item carries the per-account counter and the key version; RL# items are IP counters.
  if (pk.startsWith('RL#') || pk.startsWith('TOKEN#') || (pk.startsWith('ACCT#') && sk === 'ACCOUNT')) return 'gate';
  if (pk.startsWith('IDEM#')) return 'idempotency';
  return READS.has(operation) ? 'read' : 'commit';
}

/** Standard write units of the items a transaction writes: puts by their size, other writes at least 1. */
function transactionItemUnits(input: Input): number {
  const items = Array.isArray(input.TransactItems) ? input.TransactItems : [];
  return items.reduce((sum: number, entry: unknown) => {
    const put = record(record(entry)?.Put);
    const item = put ? record(put.Item) : undefined;
    return sum + (item ? writeUnits(itemSize(item)) : 1);
  }, 0);
}

function planOf(commandName: string | undefined, input: Input): Plan {
  const operation = (commandName ?? 'Unknown').replace(/Command$/, '');
  const kind = operation === 'TransactWriteItems' ? 'transaction' : READS.has(operation) ? 'read' : 'write';
  const item = record(input.Item);
  return {
    operation,
    purpose: purposeOf(operation, input),
    kind,
    consistent: input.ConsistentRead === true,
    itemUnits: kind === 'transaction' ? transactionItemUnits(input) : item ? writeUnits(itemSize(item)) : 1,
  };
}

function reportedUnitsOf(output: unknown): number {
  const consumed = record(output)?.ConsumedCapacity;
  const list: unknown[] = Array.isArray(consumed) ? consumed : consumed === undefined ? [] : [consumed];
  return list.reduce((sum: number, entry) => {
    const units = record(entry)?.CapacityUnits;
    return sum + (typeof units === 'number' ? units : 0);
  }, 0);
}

function errorName(err: unknown): string {
  return typeof err === 'object' && err !== null && typeof (err as { name?: unknown }).name === 'string' ? String((err as { name: string }).name) : 'Error';
}

/** AWS's bill for one call: reads as reported; single writes as reported (Local sizes them right); transactions at twice the standard units. */
function billed(plan: Plan, ok: boolean, reported: number, err: unknown): { billedWcu: number; billedRcu: number } {
  if (plan.kind === 'read') return { billedWcu: 0, billedRcu: ok ? reported || (plan.consistent ? 1 : 0.5) : 0 };
  if (plan.kind === 'transaction') {
    if (ok || errorName(err) === 'TransactionCanceledException') return { billedWcu: 2 * Math.max(reported, plan.itemUnits), billedRcu: 0 };
    return { billedWcu: 0, billedRcu: 0 };
  }
  if (ok) return { billedWcu: reported || plan.itemUnits, billedRcu: 0 };
  // A write whose condition fails is still billed: the larger of the old and the new item, at least 1 WCU.
  if (errorName(err) === 'ConditionalCheckFailedException') {
    const old = itemFromConditionFailure(err);
    return { billedWcu: Math.max(plan.itemUnits, old ? writeUnits(itemSize(old)) : 1), billedRcu: 0 };
  }
  return { billedWcu: 0, billedRcu: 0 };
}

const plans = new WeakMap<object, Plan>();

/** Attaches the counting middlewares to a client once. */
export function attachRoundTripCounter(db: Db): void {
  if (db.middlewareStack.identify().some((name) => name.startsWith('benchRoundTrips'))) return;
  db.middlewareStack.add(
    (next, context) => async (args) => {
      const input = (record(args.input) ?? {}) as Input;
      const plan = planOf(context.commandName, input);
      plans.set(context, plan);
      if (!WITH_CAPACITY.has(plan.operation)) return next(args);
      return next({ ...args, input: { ...input, ReturnConsumedCapacity: 'TOTAL' } as typeof args.input });
    },
    { step: 'initialize', name: 'benchConsumedCapacity' },
  );
  db.middlewareStack.add(
    (next, context) => async (args) => {
      const recorder = scope.getStore();
      if (!recorder) return next(args);
      const plan = plans.get(context) ?? planOf(context.commandName, {});
      const started = performance.now();
      const trip = (ok: boolean, reportedUnits: number, err?: unknown): RoundTrip => ({
        operation: plan.operation,
        purpose: plan.purpose,
        ok,
        ...(ok ? {} : { error: errorName(err) }),
        ms: performance.now() - started,
        reportedUnits,
        ...billed(plan, ok, reportedUnits, err),
      });
      try {
        const result = await next(args);
        recorder.trips.push(trip(true, reportedUnitsOf(result.output)));
        return result;
      } catch (err) {
        recorder.trips.push(trip(false, 0, err));
        throw err;
      }
    },
    { step: 'deserialize', name: 'benchRoundTrips', priority: 'high' },
  );
}
