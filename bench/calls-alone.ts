/**
 * What a route's DynamoDB calls take alone, with none of the code around them: the calls one of its
 * measured requests made, sent again in the same waits (the calls of one wait together), straight on
 * the client. The route's ratio can come down to this and no further on this machine while it makes
 * these calls; a latency target below it cannot be met by the code, only by other calls.
 *
 * A call is sent again so that it does what it did the first time, without the state the first time
 * left behind getting in its way:
 * - a put writes a new item beside the one it wrote (the same partition key, its sort key with a suffix
 *   of its own), so that nothing the route stored is overwritten;
 * - an update changes the same item again (the same key, the same update expression);
 * - a delete deletes a new key (nothing);
 * - a condition that held is not asked again (it may no longer hold: an invoice already paid), nor is a
 *   transaction's condition check's (its item is still read, under a condition that always holds);
 * - a call that failed the first time (a condition that did not hold) is sent as it was, and may fail again;
 * - a transaction's ClientRequestToken is a new one (the same token within ten minutes writes nothing).
 * The calls alone are thus no slower than the route's own: conditions left out cost nothing to check.
 */
import { randomUUID } from 'node:crypto';
import {
  BatchGetCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactGetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { Db } from '../shared/adapters/dynamo/dynamo';
import { chainDepths, type Input, record as object, type RoundTrip } from './round-trips';

/** One call to send again: its operation and its input. */
export type Call = { operation: string; input: Input; ok: boolean };

/** The calls of one request by wait: the calls of a wait go out together, each wait after the one before is answered. */
export type Waits = Call[][];

/**
 * A request's calls grouped in waits: a call's wait is the length of the longest chain of calls, each
 * sent after the one before was answered, that ends with it (round-trips.ts's chainDepths, which criticalPath uses too).
 */
export function wavesOf(trips: readonly RoundTrip[]): Waits {
  const waves: Waits = [];
  for (const { trip, depth } of chainDepths(trips)) {
    if (!trip.input) throw new Error(`A ${trip.operation} call was recorded without its input`);
    (waves[depth - 1] ??= []).push({ operation: trip.operation, input: trip.input, ok: trip.ok });
  }
  return waves;
}

/** The placeholders (#name, :value) an expression uses. */
function placeholders(expression: unknown, sigil: '#' | ':'): string[] {
  if (typeof expression !== 'string') return [];
  return expression.match(sigil === '#' ? /#[A-Za-z0-9_]+/g : /:[A-Za-z0-9_]+/g) ?? [];
}

const EXPRESSIONS = ['UpdateExpression', 'ProjectionExpression', 'KeyConditionExpression', 'FilterExpression', 'ConditionExpression'] as const;

/** The input with its ConditionExpression left out, and the names and values only the condition used. */
export function withoutCondition(input: Input): Input {
  const rest: Input = { ...input };
  delete rest.ConditionExpression;
  delete rest.ReturnValuesOnConditionCheckFailure;
  const used = (sigil: '#' | ':') => new Set(EXPRESSIONS.flatMap((name) => placeholders(rest[name], sigil)));
  for (const [field, sigil] of [
    ['ExpressionAttributeNames', '#'],
    ['ExpressionAttributeValues', ':'],
  ] as const) {
    const map = object(rest[field]);
    if (!map) continue;
    const keep = used(sigil);
    const kept = Object.fromEntries(Object.entries(map).filter(([placeholder]) => keep.has(placeholder)));
    if (Object.keys(kept).length > 0) rest[field] = kept;
    else delete rest[field];
  }
  return rest;
}

/** A new key beside `key`: the same partition key, the sort key with the suffix. */
function besideKey(key: Input, suffix: string): Input {
  return { ...key, SK: `${String(key.SK ?? '')}#calls-alone#${suffix}` };
}

/** One write of a call (or of a transaction) as it is sent again. */
function writeAgain(kind: 'Put' | 'Update' | 'Delete' | 'ConditionCheck', input: Input, suffix: string): Input {
  if (kind === 'Put') return withoutCondition({ ...input, Item: besideKey(object(input.Item) ?? {}, suffix) });
  if (kind === 'Delete') return withoutCondition({ ...input, Key: besideKey(object(input.Key) ?? {}, suffix) });
  if (kind === 'Update') return withoutCondition(input);
  // A condition check reads its item under a condition that always holds.
  return { ...withoutCondition(input), ConditionExpression: 'attribute_exists(PK) OR attribute_not_exists(PK)' };
}

const ACTIONS = ['Put', 'Update', 'Delete', 'ConditionCheck'] as const;

/** The input a call is sent again with (see the module's comment); `suffix` makes its new keys its own. */
export function inputAgain(call: Call, suffix: string): Input {
  if (!call.ok) return call.input;
  switch (call.operation) {
    case 'PutItem':
      return writeAgain('Put', call.input, suffix);
    case 'UpdateItem':
      return writeAgain('Update', call.input, suffix);
    case 'DeleteItem':
      return writeAgain('Delete', call.input, suffix);
    case 'TransactWriteItems': {
      const items = Array.isArray(call.input.TransactItems) ? call.input.TransactItems : [];
      const TransactItems = items.map((entry: unknown, i) => {
        const action = object(entry) ?? {};
        const kind = ACTIONS.find((name) => object(action[name]));
        const body = kind ? object(action[kind]) : undefined;
        if (!kind || !body) throw new Error('A transaction item without an action');
        return { [kind]: writeAgain(kind, body, `${suffix}#${i}`) };
      });
      return { ...call.input, TransactItems, ...(call.input.ClientRequestToken ? { ClientRequestToken: randomUUID() } : {}) };
    }
    default:
      return call.input;
  }
}

/** Sends one call as its operation names it (document client commands: the inputs were recorded in its form). */
function send(db: Db, operation: string, input: Input): Promise<unknown> {
  const as = <T>(value: Input) => value as T;
  switch (operation) {
    case 'GetItem':
      return db.send(new GetCommand(as<GetCommand['input']>(input)));
    case 'BatchGetItem':
      return db.send(new BatchGetCommand(as<BatchGetCommand['input']>(input)));
    case 'Query':
      return db.send(new QueryCommand(as<QueryCommand['input']>(input)));
    case 'TransactGetItems':
      return db.send(new TransactGetCommand(as<TransactGetCommand['input']>(input)));
    case 'PutItem':
      return db.send(new PutCommand(as<PutCommand['input']>(input)));
    case 'UpdateItem':
      return db.send(new UpdateCommand(as<UpdateCommand['input']>(input)));
    case 'DeleteItem':
      return db.send(new DeleteCommand(as<DeleteCommand['input']>(input)));
    case 'TransactWriteItems':
      return db.send(new TransactWriteCommand(as<TransactWriteCommand['input']>(input)));
    default:
      throw new Error(`The calls alone do not send ${operation}`);
  }
}

/**
 * Sends a request's calls again, wait after wait. A call that held the first time must hold again
 * (else the figure would not be the route's calls): its failure is thrown. One that failed may fail again.
 */
export async function sendAgain(db: Db, waits: Waits, suffix: string): Promise<void> {
  for (const wave of waits) {
    await Promise.all(
      wave.map(async (call, i) => {
        try {
          await send(db, call.operation, inputAgain(call, `${suffix}#${i}`));
        } catch (err) {
          if (call.ok) throw err;
        }
      }),
    );
  }
}
