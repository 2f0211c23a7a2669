import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../shared/adapters/dynamo/keys';
import { accountStore, bearer, call, newAccount, tokenFor } from '../support/api';
import { common } from '../support/charges';
import { customerBody } from '../support/customers';

/**
 * Spec 4.1, "same key with a different body or route: 422, code idempotency_key_reused": the key and
 * its first use are checked before the body's fields (issue 30), so a reused key is named whatever the
 * new body's faults; a body that fails validation under a fresh key records nothing for the key.
 */
let auth: Record<string, string>;
let accountId: string;

const key = () => `key-first-${randomUUID()}`;

async function keyRecord(k: string) {
  const store = accountStore();
  return (await store.db.send(new GetCommand({ TableName: store.table, Key: keys.idempotency(accountId, k), ConsistentRead: true }))).Item;
}

describe('the Idempotency-Key is checked before the body', () => {
  beforeAll(async () => {
    const account = await newAccount();
    accountId = account.account_id;
    auth = bearer(await tokenFor(account));
  });

  it('a key first used on POST /api/pix/create, then sent to POST /api/customer with the Pix body: 422 idempotency_key_reused', async () => {
    const k = key();
    const pix = common();
    const first = await call('POST', '/api/pix/create', { headers: { ...auth, 'Idempotency-Key': k }, body: pix });
    expect(first.status).toBe(200);
    const reused = await call('POST', '/api/customer', { headers: { ...auth, 'Idempotency-Key': k }, body: pix });
    expect(reused.status).toBe(422);
    expect(reused.json).toMatchObject({ code: 'idempotency_key_reused' });
    // The general shape with a code, not field errors of the customer route.
    expect(typeof (reused.json as { error: unknown }).error).toBe('string');
  });

  it('a reused key is named before a body that is not JSON, and before invalid fields of the same route', async () => {
    const k = key();
    const pix = common();
    const first = await call('POST', '/api/pix/create', { headers: { ...auth, 'Idempotency-Key': k }, body: pix });
    expect(first.status).toBe(200);
    const notJson = await call('POST', '/api/pix/create', { headers: { ...auth, 'Idempotency-Key': k }, body: '{"amount": ' });
    expect([notJson.status, (notJson.json as { code?: string }).code]).toEqual([422, 'idempotency_key_reused']);
    const invalid = await call('POST', '/api/pix/create', { headers: { ...auth, 'Idempotency-Key': k }, body: { ...common(), amount: -5 } });
    expect([invalid.status, (invalid.json as { code?: string }).code]).toEqual([422, 'idempotency_key_reused']);
    // The first use still replays.
    const again = await call('POST', '/api/pix/create', { headers: { ...auth, 'Idempotency-Key': k }, body: pix });
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.text).toBe(first.text);
  });

  it('a body that fails validation under a fresh key answers its field errors and records nothing: the key then serves a valid request', async () => {
    const k = key();
    const invalid = await call('POST', '/api/customer', { headers: { ...auth, 'Idempotency-Key': k }, body: { ...customerBody(), email: 'not-an-email' } });
    expect(invalid.status).toBe(422);
    expect(invalid.json).toMatchObject({ error: { email: expect.any(Array) } });
    expect(await keyRecord(k)).toBeUndefined();
    const valid = await call('POST', '/api/customer', { headers: { ...auth, 'Idempotency-Key': k }, body: customerBody() });
    expect(valid.status).toBe(200);
    expect(await keyRecord(k)).toMatchObject({ state: 'COMPLETED' });
  });

  it('a malformed key is refused before the body: 422 on Idempotency-Key, not on the fields', async () => {
    const reply = await call('POST', '/api/customer', {
      headers: { ...auth, 'Idempotency-Key': 'bad key!' },
      body: { ...customerBody(), email: 'not-an-email' },
    });
    expect(reply.status).toBe(422);
    expect(Object.keys((reply.json as { error: Record<string, unknown> }).error)).toEqual(['Idempotency-Key']);
  });
});
