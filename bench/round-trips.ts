import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { type Db, itemFromConditionFailure } from '../shared/adapters/dynamo/dynamo';
import { tableShape } from '../shared/adapters/dynamo/table';
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
  /** When the attempt was sent and answered (performance.now()): which round trips overlapped (criticalPath). */
  startedAt: number;
  endedAt: number;
  /** Capacity units as DynamoDB Local reported them (0 when the response carried none, e.g. a failed condition). */
  reportedUnits: number;
  /** Write and read units as AWS would bill the call (transactional writes at 2 WCU per item per KB). */
  billedWcu: number;
  billedRcu: number;
  /** Of billedWcu: the standard writes a transaction propagates to the global secondary indexes. */
  billedGsiWcu: number;
  /**
   * A transaction's items whose size only the stored item tells (updates, deletes, condition checks),
   * and the units already known from its puts: `settleSizes` bills them after the request.
   */
  unsized?: { refs: ItemRef[]; tableUnits: number; gsiUnits: number };
  /** The call's input as the code sent it (the document client's form, without the bench's ReturnConsumedCapacity): what calls-alone.ts replays. */
  input?: Input;
};

/** The table and key of one item a transaction touches. */
export type ItemRef = { table: string; key: Record<string, unknown> };

/**
 * The request's waits: the round trips on its critical path, i.e. the longest chain of round trips each
 * sent after the one before it was answered. Round trips sent together (the gate beside a read) are one
 * wait; a retry of a call is a wait of its own.
 */
export function criticalPath(trips: readonly Pick<RoundTrip, 'startedAt' | 'endedAt'>[]): number {
  return Math.max(0, ...chainDepths(trips).map(({ depth }) => depth));
}

/**
 * Each round trip (in the order they were sent) with its depth: the length of the longest chain of round
 * trips, each sent after the one before it was answered, that ends with it (1 for one sent first).
 */
export function chainDepths<T extends Pick<RoundTrip, 'startedAt' | 'endedAt'>>(trips: readonly T[]): { trip: T; depth: number }[] {
  const sorted = [...trips].sort((a, b) => a.startedAt - b.startedAt);
  const depths: { trip: T; depth: number }[] = [];
  for (const trip of sorted) {
    const before = depths.filter((earlier) => earlier.trip.endedAt <= trip.startedAt).map(({ depth }) => depth);
    depths.push({ trip, depth: Math.max(0, ...before) + 1 });
  }
  return depths;
}

/**
 * How long at least one of a request's round trips was in flight: the union of their intervals. The rest
 * of the request's wall time is its own work (the handler, the SDK's marshalling, JSON, logs), when
 * nothing was waiting on the table.
 */
export function timeOnTheTable(trips: readonly Pick<RoundTrip, 'startedAt' | 'endedAt'>[]): number {
  const sorted = [...trips].sort((a, b) => a.startedAt - b.startedAt);
  let total = 0;
  let openUntil = Number.NEGATIVE_INFINITY;
  for (const trip of sorted) {
    const from = Math.max(trip.startedAt, openUntil);
    if (trip.endedAt > from) total += trip.endedAt - from;
    openUntil = Math.max(openUntil, trip.endedAt);
  }
  return total;
}

/** The round trips of one measured request. */
export class Recorder {
  readonly trips: RoundTrip[] = [];
}

const scope = new AsyncLocalStorage<Recorder>();

/** Runs fn with its DynamoDB round trips charged to recorder. */
export function recordInto<T>(recorder: Recorder, fn: () => Promise<T>): Promise<T> {
  return scope.run(recorder, fn);
}

/**
 * What the middlewares know of a call before it is sent. For a transaction: the standard units of its
 * puts (sized from the request) and of their index copies, and the items sized later.
 */
type Plan = {
  operation: string;
  purpose: Purpose;
  kind: 'read' | 'write' | 'transaction';
  consistent: boolean;
  /** The read units AWS bills at least: one per key asked for (half for an eventually consistent read), found or not. */
  minReadUnits: number;
  itemUnits: number;
  gsiUnits: number;
  unsized: ItemRef[];
  input: Input;
};

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

export type Input = Record<string, unknown>;

/** A value as a plain object (a call's input or one of its parts), or undefined. */
export function record(value: unknown): Input | undefined {
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

/** Whether an item has the key attributes of a global secondary index (all of them project ALL). */
function inAnIndex(item: Input): boolean {
  return tableShape.globalSecondaryIndexes.some((index) => item[index.partitionKey] !== undefined && item[index.sortKey] !== undefined);
}

/**
 * A transaction's items: puts sized from the request (with their index copies), the others (update,
 * delete, condition check) noted by key, to be sized from the stored item after the request.
 */
function transactionItems(input: Input): { itemUnits: number; gsiUnits: number; unsized: ItemRef[] } {
  const items = Array.isArray(input.TransactItems) ? input.TransactItems : [];
  let itemUnits = 0;
  let gsiUnits = 0;
  const unsized: ItemRef[] = [];
  for (const entry of items) {
    const action = record(entry);
    const put = record(action?.Put);
    const item = put ? record(put.Item) : undefined;
    if (item) {
      const units = writeUnits(itemSize(item));
      itemUnits += units;
      if (inAnIndex(item)) gsiUnits += units;
      continue;
    }
    const other = record(action?.Update) ?? record(action?.Delete) ?? record(action?.ConditionCheck);
    const key = other ? record(other.Key) : undefined;
    if (other && key && typeof other.TableName === 'string') unsized.push({ table: other.TableName, key });
    else itemUnits += 1;
  }
  return { itemUnits, gsiUnits, unsized };
}

/**
 * The read units AWS bills a read at least, found or not: 1 per key read strongly consistent, 0.5
 * eventually consistent; a BatchGetItem is billed as one GetItem per key (its consistency is per table).
 */
export function minimumReadUnits(operation: string, input: Input): number {
  if (operation !== 'BatchGetItem') return input.ConsistentRead === true ? 1 : 0.5;
  return Object.values(record(input.RequestItems) ?? {}).reduce((sum: number, value) => {
    const table = record(value) ?? {};
    return sum + (Array.isArray(table.Keys) ? table.Keys.length : 0) * (table.ConsistentRead === true ? 1 : 0.5);
  }, 0);
}

function planOf(commandName: string | undefined, input: Input): Plan {
  const operation = (commandName ?? 'Unknown').replace(/Command$/, '');
  const kind = operation === 'TransactWriteItems' ? 'transaction' : READS.has(operation) ? 'read' : 'write';
  const item = record(input.Item);
  const base = {
    operation,
    input,
    purpose: purposeOf(operation, input),
    kind,
    consistent: input.ConsistentRead === true,
    minReadUnits: minimumReadUnits(operation, input),
  } as const;
  if (kind === 'transaction') return { ...base, ...transactionItems(input) };
  return { ...base, itemUnits: item ? writeUnits(itemSize(item)) : 1, gsiUnits: 0, unsized: [] };
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

type Bill = Pick<RoundTrip, 'billedWcu' | 'billedRcu' | 'billedGsiWcu' | 'unsized'>;

/** A transaction's bill: 2 WCU per item per KB on the table; the index copies of what it wrote as standard writes. */
function transactionBill(tableUnits: number, gsiUnits: number, written: boolean): Pick<RoundTrip, 'billedWcu' | 'billedGsiWcu'> {
  const gsi = written ? gsiUnits : 0;
  return { billedWcu: 2 * tableUnits + gsi, billedGsiWcu: gsi };
}

/**
 * AWS's bill for one call: reads as reported; single writes as reported (Local sizes them, index
 * copies included); transactions at twice the standard units per item, the items other than puts
 * counted at 1 KB until `settleSizes` sizes them from the stored item.
 */
function billed(plan: Plan, ok: boolean, reported: number, err: unknown): Bill {
  const none = { billedWcu: 0, billedRcu: 0, billedGsiWcu: 0 };
  if (plan.kind === 'read') return { ...none, billedRcu: ok ? Math.max(reported, plan.minReadUnits) : 0 };
  if (plan.kind === 'transaction') {
    if (!ok && errorName(err) !== 'TransactionCanceledException') return none;
    const unsized = plan.unsized.length > 0 ? { unsized: { refs: plan.unsized, tableUnits: plan.itemUnits, gsiUnits: ok ? plan.gsiUnits : 0 } } : {};
    return { ...none, ...transactionBill(plan.itemUnits + plan.unsized.length, plan.gsiUnits, ok), ...unsized };
  }
  if (ok) return { ...none, billedWcu: reported || plan.itemUnits };
  // A write whose condition fails is still billed: the larger of the old and the new item, at least 1 WCU.
  if (errorName(err) === 'ConditionalCheckFailedException') {
    const old = itemFromConditionFailure(err);
    return { ...none, billedWcu: Math.max(plan.itemUnits, old ? writeUnits(itemSize(old)) : 1) };
  }
  return none;
}

/**
 * Sizes, after the request and outside its timing and its count, the transaction items only the stored
 * item tells: an update or a delete is billed on the larger of the item before and after; the item as
 * it stands after the request stands for both (the routes' updates add attributes or change numbers).
 * An item found in an index adds its standard index write when the transaction was committed.
 */
export async function settleSizes(db: Db, trips: readonly RoundTrip[]): Promise<void> {
  for (const trip of trips) {
    const pending = trip.unsized;
    if (!pending) continue;
    let tableUnits = pending.tableUnits;
    let gsiUnits = pending.gsiUnits;
    for (const ref of pending.refs) {
      const out = await db.send(new GetCommand({ TableName: ref.table, Key: ref.key, ConsistentRead: true }));
      const units = out.Item ? writeUnits(itemSize(out.Item)) : 1;
      tableUnits += units;
      if (trip.ok && out.Item && inAnIndex(out.Item)) gsiUnits += units;
    }
    Object.assign(trip, transactionBill(tableUnits, gsiUnits, trip.ok));
    delete trip.unsized;
  }
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
      const trip = (ok: boolean, reportedUnits: number, err?: unknown): RoundTrip => {
        const endedAt = performance.now();
        return {
          operation: plan.operation,
          purpose: plan.purpose,
          ok,
          ...(ok ? {} : { error: errorName(err) }),
          ms: endedAt - started,
          startedAt: started,
          endedAt,
          reportedUnits,
          ...billed(plan, ok, reportedUnits, err),
          input: plan.input,
        };
      };
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
