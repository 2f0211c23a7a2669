import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { addDeadlineMiddleware } from './deadline';
import { trimPerCallWork } from '../aws/per-call-work';

export type Db = DynamoDBDocumentClient;
export type Item = Record<string, unknown>;

/**
 * A document client; the endpoint comes from the SDK's usual chain (AWS_ENDPOINT_URL_DYNAMODB locally).
 * Calls made inside a request give up at the request's deadline (shared/adapters/dynamo/deadline.ts).
 * The client is rid of the SDK's per-call work nothing here uses (shared/adapters/aws/per-call-work.ts).
 */
export function createDb(client: DynamoDBClient = new DynamoDBClient({})): Db {
  const db = DynamoDBDocumentClient.from(trimPerCallWork(client), {
    marshallOptions: { removeUndefinedValues: true, convertEmptyValues: false },
  });
  addDeadlineMiddleware(db.middlewareStack);
  return db;
}

let shared: Db | undefined;

/** The container's document client, created once. */
export function getDb(): Db {
  shared ??= createDb();
  return shared;
}

/** The item a failed condition check returned (raw attribute values on the error), as plain values. */
export function itemFromConditionFailure(err: unknown): Item | undefined {
  if (typeof err !== 'object' || err === null || !('Item' in err)) return undefined;
  const raw = (err as { Item?: Record<string, AttributeValue> }).Item;
  return raw ? unmarshall(raw) : undefined;
}

export function isConditionalCheckFailed(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { name?: string }).name === 'ConditionalCheckFailedException';
}

/** Runs a conditional write: true when it was made, false when its condition did not hold (nothing written). */
export async function conditionHeld(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (err) {
    if (isConditionalCheckFailed(err)) return false;
    throw err;
  }
}

/** What the readers that take the runtime need of it: the client and the table's name (the runtime has both; the adapters never import it). */
export type TableAccess = { db: Db; config: { tableName: string } };
