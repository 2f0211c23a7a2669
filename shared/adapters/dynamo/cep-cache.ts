import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { CepCached } from '../../domain/changes';
import type { CepAddress } from '../../domain/cep';
import type { CepCache } from '../../ports/cep';
import type { ChangeCompilers } from './changes';
import type { Db } from './dynamo';
import { keys } from './keys';
import type { TxWrite } from './transact';

/** The CEP cache over the table: an item per CEP, with the table's TTL (expired items may linger: their ttl is checked). */
export function dynamoCepCache(db: Db, table: string): CepCache {
  return {
    async get(cep, nowSeconds) {
      const out = await db.send(new GetCommand({ TableName: table, Key: keys.cep(cep) }));
      const item = out.Item;
      if (!item || Number(item.ttl) <= nowSeconds) return undefined;
      return item.address as CepAddress;
    },
  };
}

/** The put that caches an address found upstream. */
export function cepCachedWrite(table: string, change: CepCached): TxWrite {
  return { Put: { TableName: table, Item: { ...keys.cep(change.address.zipcode), type: 'cep', address: change.address, ttl: change.expiresAt } } };
}

/** The CEP cache's changes. */
export const cepCompilers: ChangeCompilers = { 'cep.cached': (context, change) => [cepCachedWrite(context.table, change)] };
