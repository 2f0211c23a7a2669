import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { signWebhookPayload, verifyWebhookSignature } from '../../../shared/domain/webhook-verify';

const SECRET = 'whsec_test_secret';
const NOW = 1_700_000_000;

/** Computed outside this code base (Python hmac/hashlib): HMAC-SHA256(SECRET, '1700000000.{"id":"evt_1"}'). */
const KNOWN_BODY = '{"id":"evt_1"}';
const KNOWN_V1 = '248a374f50f943a28b0f6ab50faf9a7e7e29b710fa26df9fb1618b9bf8ea9c9a';
/** Same, for a body with non-ASCII text (UTF-8 bytes are signed). */
const UNICODE_BODY = '{"msg":"pagamento confirmado ção"}';
const UNICODE_V1 = '612922d1697a1755aeed6ee99f11d8b4e5beaf9660dd363a5fc81a89b3419ad9';

function eventBody(created: number): string {
  return JSON.stringify({
    id: 'evt_0123456789abcdefghijklmn',
    type: 'invoice.paid',
    created,
    api_version: '2026-10-14',
    data: { invoice: { reference: 'inv_ref_1', invoice_no: 'INV-1', total: 12990, status: 'PAID' } },
  });
}

describe('signWebhookPayload', () => {
  it('produces t=<unix>,v1=<hex> with the known HMAC', () => {
    expect(signWebhookPayload(KNOWN_BODY, SECRET, NOW)).toBe(`t=${NOW},v1=${KNOWN_V1}`);
    expect(signWebhookPayload(UNICODE_BODY, SECRET, NOW)).toBe(`t=${NOW},v1=${UNICODE_V1}`);
  });

  it('refuses an empty secret and a non-integer timestamp', () => {
    expect(() => signWebhookPayload(KNOWN_BODY, '', NOW)).toThrow();
    expect(() => signWebhookPayload(KNOWN_BODY, SECRET, 1.5)).toThrow(RangeError);
  });
});

describe('verifyWebhookSignature', () => {
  const header = `t=${NOW},v1=${KNOWN_V1}`;

  it('accepts the known header, from a string or a Buffer body', () => {
    expect(verifyWebhookSignature(KNOWN_BODY, header, SECRET, 300, NOW)).toBe(true);
    expect(verifyWebhookSignature(Buffer.from(KNOWN_BODY), header, SECRET, 300, NOW)).toBe(true);
    expect(verifyWebhookSignature(Buffer.from(UNICODE_BODY, 'utf8'), `t=${NOW},v1=${UNICODE_V1}`, SECRET, 300, NOW)).toBe(true);
  });

  it('round-trips with signWebhookPayload', () => {
    const body = eventBody(NOW);
    expect(verifyWebhookSignature(body, signWebhookPayload(body, SECRET, NOW), SECRET, 300, NOW)).toBe(true);
  });

  it('uses the current clock and a 300 s tolerance by default', () => {
    const now = Math.floor(Date.now() / 1000);
    const body = eventBody(now);
    expect(verifyWebhookSignature(body, signWebhookPayload(body, SECRET, now), SECRET)).toBe(true);
    expect(verifyWebhookSignature(body, signWebhookPayload(body, SECRET, now - 3600), SECRET)).toBe(false);
  });

  it('rejects a tampered body and a wrong secret', () => {
    expect(verifyWebhookSignature('{"id":"evt_2"}', header, SECRET, 300, NOW)).toBe(false);
    expect(verifyWebhookSignature(`${KNOWN_BODY} `, header, SECRET, 300, NOW)).toBe(false);
    expect(verifyWebhookSignature(KNOWN_BODY, header, 'whsec_other', 300, NOW)).toBe(false);
    expect(verifyWebhookSignature(KNOWN_BODY, header, '', 300, NOW)).toBe(false);
  });

  it('accepts timestamps exactly 300 s away and rejects 301 s in the past or the future', () => {
    expect(verifyWebhookSignature(KNOWN_BODY, header, SECRET, 300, NOW + 300)).toBe(true);
    expect(verifyWebhookSignature(KNOWN_BODY, header, SECRET, 300, NOW - 300)).toBe(true);
    expect(verifyWebhookSignature(KNOWN_BODY, header, SECRET, 300, NOW + 301)).toBe(false); // stale
    expect(verifyWebhookSignature(KNOWN_BODY, header, SECRET, 300, NOW - 301)).toBe(false); // from the future
  });

  it('honours a custom tolerance', () => {
    expect(verifyWebhookSignature(KNOWN_BODY, header, SECRET, 10, NOW + 10)).toBe(true);
    expect(verifyWebhookSignature(KNOWN_BODY, header, SECRET, 10, NOW + 11)).toBe(false);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['no timestamp', `v1=${KNOWN_V1}`],
    ['no v1', `t=${NOW}`],
    ['other scheme only', `t=${NOW},v0=${KNOWN_V1}`],
    ['non-numeric timestamp', `t=abc,v1=${KNOWN_V1}`],
    ['truncated signature', `t=${NOW},v1=${KNOWN_V1.slice(0, 63)}`],
    ['uppercase hex', `t=${NOW},v1=${KNOWN_V1.toUpperCase()}`],
    ['garbage', 'garbage'],
    ['signature alone', KNOWN_V1],
  ])('rejects a %s header', (_label, bad) => {
    expect(verifyWebhookSignature(KNOWN_BODY, bad, SECRET, 300, NOW)).toBe(false);
  });

  it('accepts a header with two v1 values when one is right (secret rotation overlap)', () => {
    const wrong = 'f'.repeat(64);
    expect(verifyWebhookSignature(KNOWN_BODY, `t=${NOW},v1=${wrong},v1=${KNOWN_V1}`, SECRET, 300, NOW)).toBe(true);
    expect(verifyWebhookSignature(KNOWN_BODY, `t=${NOW},v1=${KNOWN_V1},v1=${wrong}`, SECRET, 300, NOW)).toBe(true);
    expect(verifyWebhookSignature(KNOWN_BODY, `t=${NOW},v1=${wrong},v1=${'0'.repeat(64)}`, SECRET, 300, NOW)).toBe(false);
  });

  it('refuses a Buffer body that is not valid UTF-8 instead of decoding it lossily', () => {
    // U+FFFD is what a lossy decode of the byte 0xff yields; its signature must not cover 0xff.
    const replacement = '\uFFFD';
    const signed = signWebhookPayload(replacement, SECRET, NOW);
    expect(verifyWebhookSignature(Buffer.from(replacement, 'utf8'), signed, SECRET, 300, NOW)).toBe(true);
    expect(verifyWebhookSignature(Buffer.from([0xff]), signed, SECRET, 300, NOW)).toBe(false);
  });
});

describe('interoperability with an independent verifier (stripe 23)', () => {
  it('Stripe accepts our header for an event body and returns the parsed event', () => {
    const created = Math.floor(Date.now() / 1000);
    const body = eventBody(created);
    const header = signWebhookPayload(body, SECRET, created);
    const event = Stripe.webhooks.constructEvent(body, header, SECRET) as unknown as { id: string; type: string; created: number };
    expect(event.id).toBe('evt_0123456789abcdefghijklmn');
    expect(event.type).toBe('invoice.paid');
    expect(event.created).toBe(created);
  });

  it('Stripe accepts it through a client instance as well, from Buffer payloads', () => {
    const created = Math.floor(Date.now() / 1000);
    const body = eventBody(created);
    const stripe = new Stripe('sk_test_x');
    expect(() => stripe.webhooks.constructEvent(Buffer.from(body), signWebhookPayload(body, SECRET, created), SECRET)).not.toThrow();
  });

  it('Stripe rejects our header for a tampered body or another secret', () => {
    const created = Math.floor(Date.now() / 1000);
    const body = eventBody(created);
    const header = signWebhookPayload(body, SECRET, created);
    expect(() => Stripe.webhooks.constructEvent(body.replace('12990', '1'), header, SECRET)).toThrow(Stripe.errors.StripeSignatureVerificationError);
    expect(() => Stripe.webhooks.constructEvent(body, header, 'whsec_other')).toThrow(Stripe.errors.StripeSignatureVerificationError);
  });

  it('we accept the header Stripe generates, and reject it for a tampered body', () => {
    const body = eventBody(NOW);
    const header = Stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET, timestamp: NOW });
    expect(verifyWebhookSignature(body, header, SECRET, 300, NOW)).toBe(true);
    expect(verifyWebhookSignature(body.replace('PAID', 'CANCELED'), header, SECRET, 300, NOW)).toBe(false);
  });
});
