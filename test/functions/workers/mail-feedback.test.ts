import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { handler } from '../../../functions/workers/mail-feedback';
import { dynamoMailSuppressions, emailHash, suppressionKey } from '../../../shared/adapters/dynamo/mail-suppressions';
import { runAsFunction } from '../../../infra/local/iam/hook';
import { simulatedEvent, snsEnvelope } from '../../../infra/local/mail-endpoint';
import { queues } from '../../../shared/platform/queues';
import { accountStore, useLocalStackEnvironment } from '../../support/api';
import { sqsEvent } from '../../support/sqs-event';

/**
 * The mail feedback worker in this process, against the local table, as its function (its calls are
 * evaluated against the synthesized role): SES's events as SNS delivers them to the queue.
 */
const WORKER = `${queues.mailFeedback.id}Worker`;
const run = (bodies: string[]) => runAsFunction(WORKER, () => handler(sqsEvent(bodies, queues.mailFeedback.id)));

const unique = (local: string) => `${local}+${randomUUID().slice(0, 8)}@simulator.amazonses.com`;
const sent = (to: string) => ({
  messageId: `ses-${randomUUID()}`,
  from: 'painel@gateway.localhost',
  to: [to],
  subject: 's',
  text: 't',
  at: new Date().toISOString(),
  tags: { mailId: 'mail_T1', kind: 'invite' },
});
/** SES's event for one mailbox simulator outcome, in SNS's envelope. */
const bounceOf = (to: string, bounceType: 'Permanent' | 'Transient', bounceSubType = 'General') =>
  snsEnvelope(simulatedEvent({ event: 'Bounce', bounceType, bounceSubType }, to, sent(to), 'local'));
const complaintOf = (to: string) => snsEnvelope(simulatedEvent({ event: 'Complaint' }, to, sent(to), 'local'));

async function stored(email: string) {
  const store = accountStore();
  return (await store.db.send(new GetCommand({ TableName: store.table, Key: suppressionKey(email), ConsistentRead: true }))).Item;
}

beforeAll(() => useLocalStackEnvironment());

describe('the mail feedback worker (functions/workers/mail-feedback.ts)', () => {
  it('a hard bounce suppresses its recipient: one item keyed by the hash of the normalized e-mail, with no e-mail in it', async () => {
    const email = unique('bounce');
    expect(await run([bounceOf(email.toUpperCase(), 'Permanent')])).toEqual({ batchItemFailures: [] });
    const item = await stored(email);
    expect(item).toMatchObject({ PK: `MAILSUP#${emailHash(email)}`, SK: 'MAILSUP', type: 'mail_suppression', reason: 'bounce', detail: 'Permanent/General' });
    expect(emailHash(email)).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(item)).not.toContain(email.split('@')[0]);
    const suppressions = dynamoMailSuppressions(accountStore().db, accountStore().table);
    expect([...(await suppressions.suppressed([email, ` ${email.toUpperCase()} `, unique('success')]))]).toEqual([email]);
  });

  it('the same event twice (SQS hands it over again) or a later complaint keeps the first suppression as it was', async () => {
    const email = unique('bounce');
    await run([bounceOf(email, 'Permanent', 'OnAccountSuppressionList')]);
    const first = await stored(email);
    expect(await run([bounceOf(email, 'Permanent'), complaintOf(email)])).toEqual({ batchItemFailures: [] });
    expect(await stored(email)).toEqual(first);
    expect(first?.detail).toBe('Permanent/OnAccountSuppressionList');
  });

  it('a complaint suppresses; a soft bounce (the out-of-office simulator) does not; a message that is no SES event is dropped', async () => {
    const complaining = unique('complaint');
    const away = unique('ooto');
    expect(await run([complaintOf(complaining), bounceOf(away, 'Transient'), 'not an event', JSON.stringify({ eventType: 'Delivery', mail: {} })])).toEqual({
      batchItemFailures: [],
    });
    expect(await stored(complaining)).toMatchObject({ reason: 'complaint', detail: 'abuse' });
    expect(await stored(away)).toBeUndefined();
  });

  it('a write the table refuses (here: IAM, its role narrowed) returns the message for redelivery, and records nothing', async () => {
    const email = unique('bounce');
    const event = sqsEvent([bounceOf(email, 'Permanent')], queues.mailFeedback.id);
    const answer = await runAsFunction(WORKER, () => handler(event), { role: { roleLogicalId: 'Narrowed', policies: [] }, expectDenials: true });
    expect(answer.batchItemFailures.map((f) => f.itemIdentifier)).toEqual([event.Records[0]?.messageId]);
    expect(await stored(email)).toBeUndefined();
  });
});
