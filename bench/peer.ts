import { createHash, randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from '../shared/adapters/dynamo/dynamo';

/**
 * A peer service's idempotent creation, built the usual way, as five sequential round trips on the
 * same table: token lookup (GetItem), rate-limit counter (UpdateItem), a Powertools-style idempotency
 * lock (conditional PutItem), the business transaction (TransactWriteItems of 2 items) and the
 * completion of the idempotency record (UpdateItem). It runs straight on the client: no HTTP
 * pipeline, no validation, so it is the peer's floor, not its full cost.
 */
export type PeerFixture = { table: string; accountId: string; tokenHash: string };

const HOUR = 3600;

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Stores the peer's opaque token record (what a token lookup reads). */
export async function seedPeer(db: Db, table: string): Promise<PeerFixture> {
  const accountId = `peer_${randomUUID()}`;
  const tokenHash = sha256(`tok_${randomUUID()}`);
  await db.send(
    new PutCommand({
      TableName: table,
      Item: {
        PK: `TOKEN#${tokenHash}`,
        SK: 'TOKEN',
        type: 'peerToken',
        accountId,
        scopes: ['charges:write', 'balance:read'],
        keyVersion: 1,
        issuedAt: Math.floor(Date.now() / 1000),
        expiresAt: Math.floor(Date.now() / 1000) + 30 * 24 * HOUR,
      },
    }),
  );
  return { table, accountId, tokenHash };
}

/** One idempotent creation, the peer's way. */
export async function peerCreate(db: Db, peer: PeerFixture, name: string): Promise<void> {
  const { table, accountId } = peer;
  const nowMs = Date.now();
  const now = Math.floor(nowMs / 1000);

  // 1. Token lookup.
  const token = await db.send(new GetCommand({ TableName: table, Key: { PK: `TOKEN#${peer.tokenHash}`, SK: 'TOKEN' }, ConsistentRead: true }));
  if (!token.Item || Number(token.Item.expiresAt) <= now) throw new Error('peer: token not found');

  // 2. Rate-limit counter of the current minute (ADD creates the item on the window's first call).
  const window = Math.floor(now / 60);
  await db.send(
    new UpdateCommand({
      TableName: table,
      Key: { PK: `RL#peer#${accountId}#${window}`, SK: 'RL' },
      UpdateExpression: 'ADD cnt :one SET #ttl = if_not_exists(#ttl, :ttl)',
      ConditionExpression: 'attribute_not_exists(cnt) OR cnt < :limit',
      ExpressionAttributeNames: { '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':one': 1, ':limit': 1_000_000, ':ttl': (window + 2) * 60 },
    }),
  );

  // 3. Powertools-style idempotency lock.
  const body = JSON.stringify({ name });
  const idemKey = { PK: `IDEM#peer#${accountId}#${randomUUID()}`, SK: 'IDEM' };
  await db.send(
    new PutCommand({
      TableName: table,
      Item: { ...idemKey, status: 'INPROGRESS', expiration: now + HOUR, in_progress_expiration: nowMs + 60_000, validation: sha256(body) },
      ConditionExpression: 'attribute_not_exists(PK) OR expiration < :now OR (#status = :running AND in_progress_expiration < :nowMs)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':now': now, ':nowMs': nowMs, ':running': 'INPROGRESS' },
    }),
  );

  // 4. The business transaction: the created item and its ledger line.
  const id = randomUUID();
  const createdAt = new Date(nowMs).toISOString();
  await db.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: table,
            Item: { PK: `PROBE#${accountId}`, SK: `ITEM#${id}`, type: 'probe', name, createdAt },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
        {
          Put: {
            TableName: table,
            Item: { PK: `PROBE#${accountId}`, SK: `LEDGER#${createdAt}#${id}`, type: 'ledger', itemId: id, amountCents: 1000, createdAt },
            ConditionExpression: 'attribute_not_exists(PK)',
          },
        },
      ],
    }),
  );

  // 5. Completion of the idempotency record, with the response kept for replays.
  await db.send(
    new UpdateCommand({
      TableName: table,
      Key: idemKey,
      UpdateExpression: 'SET #status = :done, #data = :data REMOVE in_progress_expiration',
      ConditionExpression: '#status = :running',
      ExpressionAttributeNames: { '#status': 'status', '#data': 'data' },
      ExpressionAttributeValues: {
        ':done': 'COMPLETED',
        ':running': 'INPROGRESS',
        ':data': JSON.stringify({ statusCode: 200, body: JSON.stringify({ item: { id, name } }) }),
      },
    }),
  );
}
