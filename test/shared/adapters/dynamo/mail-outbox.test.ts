import { randomBytes, randomUUID } from 'node:crypto';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { dynamoMailOutbox, mailWrite } from '../../../../shared/adapters/dynamo/mail-outbox';
import { dynamoMailSuppressions } from '../../../../shared/adapters/dynamo/mail-suppressions';
import { keys } from '../../../../shared/adapters/dynamo/keys';
import { stripped } from '../../../../shared/adapters/dynamo/transact';
import { runAsFunction } from '../../../../infra/local/iam/hook';
import { queues } from '../../../../shared/platform/queues';
import { accountStore, useLocalStackEnvironment } from '../../../support/api';

/**
 * The mail worker's view of a queued message against the local table, as the mail worker's function
 * (its calls evaluated against the synthesized role): the claim checks the recipient's suppression in
 * its own write (issue 44), and a message not delivered reads back as such.
 */
const key = randomBytes(32);
const asMailWorker = <T>(work: () => Promise<T>) => runAsFunction(`${queues.mail.id}Worker`, work);

async function queued(to: string): Promise<string> {
  const store = accountStore();
  const id = `mail_${randomUUID().replace(/-/g, '')}`;
  // Put as the panel's use cases put it, but under another type and out of the sweep's index: the local
  // stack's own stream forwarder and mail worker leave it to this test.
  const write = mailWrite(store.table, { id, kind: 'invite', to, subject: 'Convite', text: 'link', createdAt: new Date().toISOString() }, key);
  const { GSI2PK: _pk, GSI2SK: _sk, ...item } = write.Put?.Item ?? {};
  await store.db.send(
    new TransactWriteCommand({ TransactItems: [stripped({ Put: { ...write.Put, TableName: store.table, Item: { ...item, type: 'mail-under-test' } } })] }),
  );
  return id;
}

beforeAll(() => useLocalStackEnvironment());

describe('the mail outbox and the suppressed addresses (shared/adapters/dynamo/mail-outbox.ts, mail-suppressions.ts)', () => {
  it('claims a message whose recipient is not suppressed, once while its lease lives; refuses one whose recipient is, writing nothing', async () => {
    const store = accountStore();
    const outbox = dynamoMailOutbox(store.db, store.table, async () => key);
    const suppressions = dynamoMailSuppressions(store.db, store.table);
    const fine = `fine-${randomUUID()}@example.com`;
    const bounced = `Bounced-${randomUUID()}@Example.com`;
    const [fineId, bouncedId] = [await queued(fine), await queued(bounced.toLowerCase())];
    expect(await suppressions.suppress([{ email: bounced, reason: 'bounce', detail: 'Permanent/General', at: 'T' }])).toBe(1);
    expect(await suppressions.suppress([{ email: bounced.toLowerCase(), reason: 'complaint', detail: 'abuse', at: 'T2' }])).toBe(0);

    const now = new Date();
    const until = new Date(now.getTime() + 60_000);
    expect(await asMailWorker(() => outbox.claim(fineId, now, until, fine))).toBe('claimed');
    expect(await asMailWorker(() => outbox.claim(fineId, now, until, fine))).toBe('busy');
    expect(await asMailWorker(() => outbox.claim(bouncedId, now, until, bounced.toLowerCase()))).toBe('suppressed');
    const untouched = (await store.db.send(new GetCommand({ TableName: store.table, Key: keys.mail(bouncedId), ConsistentRead: true }))).Item;
    expect(untouched?.claimUntil).toBeUndefined();

    await asMailWorker(() => outbox.finish(bouncedId, { status: 'suppressed', at: now.toISOString(), reason: 'recipient suppressed' }));
    expect(await asMailWorker(() => outbox.get(bouncedId))).toEqual({ status: 'suppressed', mailId: bouncedId, kind: 'invite' });
    const over = (await store.db.send(new GetCommand({ TableName: store.table, Key: keys.mail(bouncedId), ConsistentRead: true }))).Item;
    expect(over).toMatchObject({ status: 'suppressed', notDeliveredWhy: 'recipient suppressed' });
    expect(over?.bodySealed).toBeUndefined();
    // Over: never claimed again.
    expect(await asMailWorker(() => outbox.claim(bouncedId, new Date(now.getTime() + 120_000), until, bounced))).toBe('busy');
  });
});
