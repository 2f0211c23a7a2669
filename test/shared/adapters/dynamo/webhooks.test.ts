import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deliveryOf, webhookConfiguredWrite, webhookSecretRotatedWrite } from '../../../../shared/adapters/dynamo/webhooks';
import { ConflictError } from '../../../../shared/domain/errors';
import { unsealWebhookSecret } from '../../../../shared/platform/webhook-secret';

const key = randomBytes(32);

describe('webhook changes as writes', () => {
  it('a first configuration seals its secret and holds only while none exists; a later one sets the URL alone', () => {
    const first = webhookConfiguredWrite(
      't',
      { kind: 'webhook.configured', accountId: 'acct_1', url: 'https://a.example/', at: 'T', newSecret: 'whsec_s' },
      key,
    );
    expect(first.Update?.ConditionExpression).toBe('attribute_not_exists(webhookSecretSealed)');
    const sealed = String(first.Update?.ExpressionAttributeValues?.[':secret']);
    expect(sealed).not.toContain('whsec_s');
    expect(unsealWebhookSecret(sealed, 'acct_1', key)).toBe('whsec_s');
    expect(first.onConditionFailed?.()).toBeInstanceOf(ConflictError);
    const later = webhookConfiguredWrite('t', { kind: 'webhook.configured', accountId: 'acct_1', url: 'https://b.example/', at: 'T' }, key);
    // Without events: every type (a subscription made before is removed).
    expect(later.Update).toMatchObject({
      UpdateExpression: 'SET webhookUrl = :url, webhookUpdatedAt = :now REMOVE webhookEvents',
      ExpressionAttributeValues: { ':url': 'https://b.example/', ':now': 'T' },
    });
    expect(later.Update?.ConditionExpression).toBeUndefined();
    const subscribed = webhookConfiguredWrite(
      't',
      { kind: 'webhook.configured', accountId: 'acct_1', url: 'https://b.example/', at: 'T', events: ['invoice.paid'] },
      key,
    );
    expect(subscribed.Update).toMatchObject({
      UpdateExpression: 'SET webhookUrl = :url, webhookUpdatedAt = :now, webhookEvents = :events',
      ExpressionAttributeValues: { ':events': ['invoice.paid'] },
    });
  });

  it('a rotation needs a configured webhook (else 409 webhook_not_configured)', () => {
    const rotated = webhookSecretRotatedWrite('t', { kind: 'webhook.secret_rotated', accountId: 'acct_1', secret: 'whsec_r', at: 'T' }, key);
    expect(rotated.Update?.ConditionExpression).toBe('attribute_exists(webhookUrl)');
    expect(rotated.onConditionFailed?.()).toMatchObject({ code: 'webhook_not_configured' });
  });

  it('a delivery item reads back as the record (no lease between attempts)', () => {
    const item = {
      eventId: 'evt_1',
      accountId: 'acct_1',
      eventType: 'ping',
      url: 'https://a.example/',
      status: 'failed',
      attempts: 8,
      nextAttemptAt: null,
      lastStatus: 500,
      lastError: 'HTTP 500',
      createdAt: 'C',
      updatedAt: 'U',
    };
    expect(deliveryOf(item)).toEqual({ ...item, series: 1, attemptLog: [] });
    const logged = { at: 'U', httpStatus: 500, error: 'HTTP 500', durationMs: 120 };
    expect(deliveryOf({ ...item, attemptLog: [logged, { at: 'V', httpStatus: null, error: 'timeout', durationMs: 10_001 }, 'junk'] }).attemptLog).toEqual([
      logged,
      { at: 'V', httpStatus: null, error: 'timeout', durationMs: 10_001 },
    ]);
    expect(deliveryOf({ ...item, series: 3 }).series).toBe(3);
    expect(deliveryOf({ ...item, claimUntil: 'L' }).claimUntil).toBe('L');
  });
});
