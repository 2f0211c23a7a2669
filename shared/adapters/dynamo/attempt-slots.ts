import { TransactWriteCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import {
  forgetAt,
  namesALogTwice,
  type RoundResult,
  type SlotLog,
  type SlotLogKind,
  type Slots,
  type SlotScope,
  type SlotWrite,
  takeInRounds,
  type TakeResult,
} from '../../domain/attempt-slots';
import { ContentionError } from '../../domain/errors';
import type { AttemptSlots } from '../../ports/attempt-slots';
import { cancellationReasons, type RetryBudget, retryBudget, retryTransient } from './contention';
import { type Db, type Item, isConditionalCheckFailed, itemFromConditionFailure } from './dynamo';
import { type ItemKey, keys } from './keys';

/** The attribute of a slot log item holding its map {slotId: epoch ms}. */
export const SLOTS_ATTRIBUTE = 'slots';

/**
 * Each kind of log's item: its key (its prefix is what IAM grants: access.ts KEY), its `type`, and an
 * attribute an earlier shape of the item kept, dropped when the map is created (the decline logs' list).
 */
const LOG_ITEMS: { readonly [K in SlotLogKind]: { key: (id: string) => ItemKey; type: string; legacy?: string } } = {
  card: { key: keys.cardDeclines, type: 'cardDeclines', legacy: 'log' },
  merchant: { key: keys.merchantDeclines, type: 'merchantDeclines', legacy: 'log' },
  checkout: { key: keys.checkoutDeclines, type: 'checkoutDeclines' },
  'signin-email': { key: (id) => keys.panelLimit('signin-email', id), type: 'panelLimit' },
  'signin-address': { key: (id) => keys.panelLimit('signin-address', id), type: 'panelLimit' },
  'step-up': { key: (id) => keys.panelLimit('step-up', id), type: 'panelLimit' },
  'reset-mail': { key: (id) => keys.panelLimit('reset-mail', id), type: 'panelLimit' },
  'panel-invite': { key: (id) => keys.panelLimit('panel-invite', id), type: 'panelLimit' },
};

/** The item key of a slot log. */
export function slotLogItemKey(log: SlotLog): ItemKey {
  return LOG_ITEMS[log.kind].key(log.id);
}

/** Every attribute a take or a release names, keys included (an attribute-limited grant lists these). */
export const SLOT_LOG_ATTRIBUTES = ['PK', 'SK', 'type', SLOTS_ATTRIBUTE, 'ttl', 'log'] as const;

/** A stored map as slots (entries that are not epoch ms are ignored: they count for nothing and are never pruned). */
function slotsOf(item: Item | undefined): Slots | undefined {
  const stored = item?.[SLOTS_ATTRIBUTE];
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return undefined;
  return Object.fromEntries(Object.entries(stored as Record<string, unknown>).filter((e): e is [string, number] => typeof e[1] === 'number'));
}

/**
 * One scope's conditional UpdateItem (shared/domain/attempt-slots.ts planWrite: the expression is
 * writeAdmits and afterWrite). The whole old item comes back on a failed condition
 * (ReturnValuesOnConditionCheckFailure, no ReturnValues: nothing else is returned).
 */
function slotUpdate(table: string, scope: SlotScope, write: SlotWrite, slotId: string, nowMs: number): SlotUpdate {
  const item = LOG_ITEMS[scope.log.kind];
  const ttl = Math.ceil(forgetAt(nowMs, scope.window) / 1000);
  const common = { TableName: table, Key: item.key(scope.log.id), ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const };
  if (write.kind === 'create') {
    return {
      ...common,
      UpdateExpression: `SET #slots = :one, #ttl = :ttl, #type = :type${item.legacy ? ' REMOVE #legacy' : ''}`,
      ConditionExpression: 'attribute_not_exists(#slots)',
      ExpressionAttributeNames: { '#slots': SLOTS_ATTRIBUTE, '#ttl': 'ttl', '#type': 'type', ...(item.legacy ? { '#legacy': item.legacy } : {}) },
      ExpressionAttributeValues: { ':one': { [slotId]: nowMs }, ':ttl': ttl, ':type': item.type },
    };
  }
  const pruned = Object.entries(write.prune);
  const names: Record<string, string> = { '#slots': SLOTS_ATTRIBUTE, '#id': slotId, '#ttl': 'ttl' };
  const values: Record<string, unknown> = { ':now': nowMs, ':ttl': ttl, ':cap': write.cap };
  pruned.forEach(([id, at], i) => {
    names[`#p${i}`] = id;
    values[`:p${i}`] = at;
  });
  const remove = pruned.length > 0 ? ` REMOVE ${pruned.map((_, i) => `#slots.#p${i}`).join(', ')}` : '';
  const stillAsRead = pruned.map((_, i) => ` AND #slots.#p${i} = :p${i}`).join('');
  return {
    ...common,
    UpdateExpression: `SET #slots.#id = if_not_exists(#slots.#id, :now), #ttl = :ttl${remove}`,
    ConditionExpression: `attribute_exists(#slots.#id) OR (attribute_exists(#slots) AND size(#slots) < :cap${stillAsRead})`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/** An UpdateItem as a transaction takes it too. */
type SlotUpdate = UpdateCommandInput & { UpdateExpression: string };

/** One round: a single UpdateItem, or one transaction of them (all or nothing); which conditions failed, with their old logs. */
async function sendRound(db: Db, updates: SlotUpdate[], budget: RetryBudget): Promise<RoundResult> {
  const [only] = updates;
  if (updates.length === 1 && only) {
    try {
      await retryTransient(() => db.send(new UpdateCommand(only)), budget);
      return { ok: true };
    } catch (err) {
      if (!isConditionalCheckFailed(err)) throw err;
      return { ok: false, failure: new Map([[0, slotsOf(itemFromConditionFailure(err))]]) };
    }
  }
  try {
    await retryTransient(
      () =>
        db.send(
          new TransactWriteCommand({ TransactItems: updates.map((update) => ({ Update: { ...update, UpdateExpression: update.UpdateExpression ?? '' } })) }),
        ),
      budget,
    );
    return { ok: true };
  } catch (err) {
    const reasons = cancellationReasons(err);
    if (!reasons?.some((r) => r.Code === 'ConditionalCheckFailed')) throw err;
    const failure = new Map<number, Slots | undefined>();
    reasons.forEach((reason, index) => {
      if (reason.Code !== 'ConditionalCheckFailed') return;
      const raw = (reason as { Item?: Record<string, AttributeValue> }).Item;
      failure.set(index, slotsOf(raw ? unmarshall(raw) : undefined));
    });
    return { ok: false, failure };
  }
}

/**
 * The slot logs over the table: each log one item (LOG_ITEMS), its map of slots in one attribute.
 * A take is ONE conditional write per round (an UpdateItem, or a TransactWriteItems of one per scope:
 * all or nothing); a failed condition returns the old item, which says refused (full of live entries)
 * or what the next round writes: the map created, or the entries provably gone from the window
 * removed in the same write as the take. A round loses only to another writer's change of the same
 * logs; after MAX_TAKE_ROUNDS, 503 (nothing taken). Each log's TTL is its window after the last take.
 */
export function dynamoAttemptSlots(db: Db, table: string): AttemptSlots {
  return {
    async take(scopes, slotId, now): Promise<TakeResult> {
      if (scopes.length === 0) throw new Error('A take needs at least one scope');
      if (scopes.length > 100 || namesALogTwice(scopes)) throw new Error('A take names each log once, at most 100 (one transaction)');
      const nowMs = now.getTime();
      const budget = retryBudget();
      const taken = await takeInRounds(scopes, slotId, nowMs, (writes) =>
        sendRound(
          db,
          scopes.map((scope, i) => slotUpdate(table, scope, writes[i] as SlotWrite, slotId, nowMs)),
          budget,
        ),
      );
      if (taken) return taken;
      throw new ContentionError();
    },
    async release(ticket) {
      const budget = retryBudget();
      await Promise.all(
        ticket.logs.map(async (log) => {
          try {
            await retryTransient(
              () =>
                db.send(
                  new UpdateCommand({
                    TableName: table,
                    Key: slotLogItemKey(log),
                    UpdateExpression: 'REMOVE #slots.#id',
                    ConditionExpression: 'attribute_exists(#slots)',
                    ExpressionAttributeNames: { '#slots': SLOTS_ATTRIBUTE, '#id': ticket.slotId },
                  }),
                ),
              budget,
            );
          } catch (err) {
            // No log (forgotten after its window): nothing to give back.
            if (!isConditionalCheckFailed(err)) throw err;
          }
        }),
      );
    },
  };
}
