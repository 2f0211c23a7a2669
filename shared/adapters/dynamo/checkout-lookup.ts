import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Runtime } from '../../runtime';
import type { Item } from './dynamo';
import { keys } from './keys';

/** A checkout by its reference, strongly consistent; undefined when there is none. */
export async function checkoutByReference(runtime: Runtime, reference: string): Promise<Item | undefined> {
  const out = await runtime.db.send(new GetCommand({ TableName: runtime.config.tableName, Key: keys.checkout(reference), ConsistentRead: true }));
  return out.Item;
}

/** The checkout of a merchant's tx_ref in its account (through the tx_ref's reservation: signed forms), or undefined. */
export function checkoutByTxRef(runtime: Runtime, accountId: string, txRef: string): Promise<Item | undefined> {
  return checkoutOfReservation(runtime, accountId, keys.checkoutTxRef(accountId, txRef));
}

/** The checkout a reservation item (a tx_ref's, or one sale's under it) points to, in the account; undefined when none. */
export async function checkoutOfReservation(runtime: Runtime, accountId: string, key: { PK: string; SK: string }): Promise<Item | undefined> {
  const out = await runtime.db.send(
    new GetCommand({ TableName: runtime.config.tableName, Key: key, ConsistentRead: true, ProjectionExpression: '#r', ExpressionAttributeNames: { '#r': 'reference' } }),
  );
  const reference = out.Item?.reference;
  if (typeof reference !== 'string') return undefined;
  const checkout = await checkoutByReference(runtime, reference);
  return checkout?.accountId === accountId ? checkout : undefined;
}

/** At most this many checkouts are read for one tx_ref (a stranger may post many sales under one). */
export const MAX_CHECKOUTS_PER_TX_REF = 20;

/**
 * Every checkout of a tx_ref in the account (its reservation, and each sale's under it on an account
 * without signed forms), newest first, at most MAX_CHECKOUTS_PER_TX_REF.
 */
export async function checkoutsOfTxRef(runtime: Runtime, accountId: string, txRef: string): Promise<Item[]> {
  const out = await runtime.db.send(
    new QueryCommand({
      TableName: runtime.config.tableName,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': keys.checkoutTxRef(accountId, txRef).PK },
      ProjectionExpression: '#r',
      ExpressionAttributeNames: { '#r': 'reference' },
      ConsistentRead: true,
      Limit: MAX_CHECKOUTS_PER_TX_REF,
    }),
  );
  const references = (out.Items ?? []).map((item) => item.reference).filter((reference): reference is string => typeof reference === 'string');
  const checkouts = await Promise.all(references.map((reference) => checkoutByReference(runtime, reference)));
  return checkouts
    .filter((checkout): checkout is Item => checkout?.accountId === accountId)
    .sort((a, b) => String(b.createdAt).localeCompare(String(a.createdAt)));
}
