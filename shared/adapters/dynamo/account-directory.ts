import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { AccountDirectory } from '../../ports/checkouts';
import { callbackOriginsOf } from '../../domain/callback-origins';
import { checkoutSigningOf } from '../../domain/checkout-signing';
import type { CheckoutAccount } from '../../domain/account';
import { accountOf } from './account-record';
import type { Db, Item } from './dynamo';
import { keys } from './keys';

/** An account item read back with its checkout rules (the form signatures, the callback origins). */
function checkoutAccountOf(item: Item): CheckoutAccount {
  return { ...accountOf(item), checkoutSigning: checkoutSigningOf(item), callbackOrigins: callbackOriginsOf(item) };
}

/** The accounts as the hosted checkout finds them: by public key (its PUBKEY# item, then the account), or by id. */
export function dynamoAccountDirectory(db: Db, table: string): AccountDirectory {
  const get = async (accountId: string) => {
    const out = await db.send(new GetCommand({ TableName: table, Key: keys.account(accountId), ConsistentRead: true }));
    return out.Item ? checkoutAccountOf(out.Item) : undefined;
  };
  return {
    get,
    async byPublicKey(publicKey) {
      const key = await db.send(new GetCommand({ TableName: table, Key: keys.publicKey(publicKey), ConsistentRead: true, ProjectionExpression: 'accountId' }));
      const accountId = key.Item?.accountId;
      return typeof accountId === 'string' ? get(accountId) : undefined;
    },
  };
}
