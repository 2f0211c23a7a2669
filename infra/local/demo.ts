import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { createAccount, type AccountStore, type IssuedKeys } from '../../shared/adapters/dynamo/accounts';
import { PAYMENT_METHODS } from '../../shared/domain/payment-methods';

const MARKER = { PK: 'LOCAL#DEMO', SK: 'DEMO' };

/** On the first start against a table, creates the demo account (all methods enabled). */
export async function ensureDemoAccount(store: AccountStore): Promise<{ created: IssuedKeys } | { existing: string }> {
  const marker = await store.db.send(new GetCommand({ TableName: store.table, Key: MARKER, ConsistentRead: true }));
  if (marker.Item) return { existing: String(marker.Item.accountId) };
  const created = await createAccount(store, { name: 'Demo Merchant', methods: [...PAYMENT_METHODS], withdrawFeeCents: 0 });
  await store.db.send(new PutCommand({ TableName: store.table, Item: { ...MARKER, accountId: created.account_id } }));
  return { created };
}
