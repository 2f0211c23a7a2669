import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { ApiKeyStore } from '../../ports/api-keys';
import type { Db } from './dynamo';
import { keys } from './keys';

/** The issued API keys over the table: a PUBKEY# item per public key (written with its account: accounts.ts). */
export function dynamoApiKeys(db: Db, table: string): ApiKeyStore {
  return {
    async byPublicKey(publicKey) {
      const found = await db.send(new GetCommand({ TableName: table, Key: keys.publicKey(publicKey), ConsistentRead: true }));
      const item = found.Item;
      if (!item || typeof item.secretHash !== 'string') return undefined;
      return { accountId: String(item.accountId), keyVersion: Number(item.kv), secretHash: item.secretHash };
    },
  };
}
