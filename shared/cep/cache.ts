import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from '../adapters/dynamo/dynamo';
import { keys } from '../adapters/dynamo/keys';
import type { TxWrite } from '../adapters/dynamo/transact';
import type { CepAddress } from './port';

export const CEP_CACHE_SECONDS = 30 * 24 * 60 * 60;

/** A cached address still within its lifetime, or undefined. */
export async function cachedAddress(db: Db, table: string, cep: string, nowSeconds: number): Promise<CepAddress | undefined> {
  const out = await db.send(new GetCommand({ TableName: table, Key: keys.cep(cep) }));
  const item = out.Item;
  if (!item || Number(item.ttl) <= nowSeconds) return undefined;
  return item.address as CepAddress;
}

/** The write that caches an address found upstream. */
export function cacheWrite(table: string, address: CepAddress, nowSeconds: number): TxWrite {
  return { Put: { TableName: table, Item: { ...keys.cep(address.zipcode), type: 'cep', address, ttl: nowSeconds + CEP_CACHE_SECONDS } } };
}
