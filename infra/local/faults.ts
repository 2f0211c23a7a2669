import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import type { Db } from '../../shared/adapters/dynamo/dynamo';
import type { LoadedHandler } from './handlers';

/**
 * A switch of the local stack only (never deployed): a stream consumer fails every batch holding a
 * record of the accounts listed in the item `LOCAL#FAULTS` / `<consumer id>` (attribute `accounts`),
 * as a crashing Lambda would. The tests use it to drive the event source mapping's give-up path.
 */
export const FAULTS_PK = 'LOCAL#FAULTS';

export function withLocalFaultSwitch(handler: LoadedHandler, consumerId: string, db: Db, table: string): LoadedHandler {
  return async (event, context) => {
    const switchItem = (await db.send(new GetCommand({ TableName: table, Key: { PK: FAULTS_PK, SK: consumerId }, ConsistentRead: true }))).Item;
    const broken = new Set(Array.isArray(switchItem?.accounts) ? (switchItem.accounts as string[]) : []);
    if (broken.size > 0) {
      const records = (event as DynamoDBStreamEvent).Records ?? [];
      if (records.some((record) => broken.has(String(record.dynamodb?.NewImage?.accountId?.S)))) {
        throw new Error(`${consumerId} failed (local fault switch)`);
      }
    }
    return handler(event, context);
  };
}
