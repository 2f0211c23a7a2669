import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Runtime } from '../runtime';
import type { Item } from '../storage/dynamo';
import { keys } from '../storage/keys';

/** A checkout by its reference, strongly consistent; undefined when there is none. */
export async function checkoutByReference(runtime: Runtime, reference: string): Promise<Item | undefined> {
  const out = await runtime.db.send(new GetCommand({ TableName: runtime.config.tableName, Key: keys.checkout(reference), ConsistentRead: true }));
  return out.Item;
}

/** The checkout of a merchant's tx_ref in its account (through the tx_ref's reservation), or undefined. */
export async function checkoutByTxRef(runtime: Runtime, accountId: string, txRef: string): Promise<Item | undefined> {
  const out = await runtime.db.send(
    new GetCommand({
      TableName: runtime.config.tableName,
      Key: keys.checkoutTxRef(accountId, txRef),
      ConsistentRead: true,
      ProjectionExpression: '#r',
      ExpressionAttributeNames: { '#r': 'reference' },
    }),
  );
  const reference = out.Item?.reference;
  if (typeof reference !== 'string') return undefined;
  const checkout = await checkoutByReference(runtime, reference);
  return checkout?.accountId === accountId ? checkout : undefined;
}
